import type { Logger } from '../observability/logger.ts';
import type { RedisLink } from '../redis/link.ts';

/**
 * A connection only one gateway may hold at a time (a channel's long-polling connection):
 * the holder keeps a key with its id alive; when it dies the key expires and a peer takes over.
 */
export interface ConnectionLease {
  /** True once held by this gateway; false while another one holds it. */
  acquire(): Promise<boolean>;
  release(): Promise<void>;
  /** Called when this gateway lost the lease it held (it could not renew it in time). */
  onLost(listener: () => void): void;
  /** How soon a gateway that did not get the lease should try again. */
  readonly retryMs: number;
}

export interface LeaseTiming {
  /** How long the lease lives without renewal: the failover time when a holder dies. */
  ttlMs: number;
}

export const DEFAULT_LEASE_TIMING: LeaseTiming = { ttlMs: 10_000 };

/** Renews only when we still hold it; 1 when renewed, 0 when someone else (or nobody) has it. */
const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`;

/** Deletes only our own lease. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

/**
 * A lease in Redis: `SET key <gateway id> NX PX ttl`, renewed every third of the TTL by a script
 * that checks the holder. A renewal that fails (someone else holds it, or Redis did not answer
 * before the TTL ran out) means the lease is lost: listeners are told, renewal stops.
 */
export function createRedisConnectionLease(options: {
  link: RedisLink;
  key: string;
  gatewayId: string;
  timing?: LeaseTiming;
  logger: Logger;
  now: () => number;
}): ConnectionLease {
  const { client } = options.link;
  const ttlMs = (options.timing ?? DEFAULT_LEASE_TIMING).ttlMs;
  const listeners: (() => void)[] = [];
  let renewal: NodeJS.Timeout | undefined;
  let renewedAt = 0;

  const stop = () => {
    if (renewal) clearInterval(renewal);
    renewal = undefined;
  };
  const lost = () => {
    stop();
    options.logger.warn({ lease: options.key }, 'connection lease lost');
    for (const listener of listeners) listener();
  };

  async function renew(): Promise<void> {
    try {
      const renewed = await client.eval(RENEW, {
        keys: [options.key],
        arguments: [options.gatewayId, String(ttlMs)],
      });
      if (renewed === 1) renewedAt = options.now();
      else lost();
    } catch {
      // Redis did not answer: the key may have expired by now, and a peer may hold it.
      if (renewal && options.now() - renewedAt >= ttlMs) lost();
    }
  }

  return {
    retryMs: Math.max(50, Math.round(ttlMs / 3)),
    async acquire() {
      try {
        const set = await client.set(options.key, options.gatewayId, { NX: true, PX: ttlMs });
        const held = set === 'OK' || (await client.get(options.key)) === options.gatewayId;
        if (!held) return false;
      } catch {
        return false;
      }
      renewedAt = options.now();
      if (!renewal) {
        renewal = setInterval(() => void renew(), Math.max(20, Math.round(ttlMs / 3)));
        renewal.unref();
      }
      return true;
    },
    async release() {
      stop();
      await client
        .eval(RELEASE, { keys: [options.key], arguments: [options.gatewayId] })
        .catch(() => undefined);
    },
    onLost(listener) {
      listeners.push(listener);
    },
  };
}
