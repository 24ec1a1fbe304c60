/**
 * Which gateways sharing `[memory] cache_url` are alive (DESIGN "Scale-out"). Each keeps a key
 * `<prefix><gatewayId>` in Redis with a short TTL and refreshes it on a timer. A gateway that
 * crashes (or loses Redis) stops refreshing and its key lapses within `ttlMs`; peers then treat
 * what only it could finish as gone (the pending approvals whose tool call waited there). A
 * clean close deletes the key at once.
 *
 * Refresh failures are logged at debug level: the parts that fall back while Redis is
 * unreachable own the user-facing warning.
 */
import type { Logger } from '../observability/logger.ts';
import type { RedisLink } from '../redis/link.ts';

export interface PresenceTiming {
  /** How long the key outlives its last refresh; default 10,000 ms. */
  ttlMs?: number;
  /** How often the key is refreshed; default 3,000 ms (must be below `ttlMs`). */
  refreshMs?: number;
}

export interface GatewayPresenceOptions extends PresenceTiming {
  link: Pick<RedisLink, 'client' | 'onSubscriberReady'>;
  /** This gateway's id among its peers. */
  gatewayId: string;
  logger: Logger;
  /** Prefix of every presence key; default `hearth:gw:alive:`. */
  keyPrefix?: string;
}

/** What a part needs to check another gateway's liveness inside Redis (a key and its TTL). */
export interface PresenceKeys {
  /** The key that exists while gateway `gatewayId` is alive. */
  keyOf(gatewayId: string): string;
  /** The TTL to give this gateway's key when a part writes it along with its own data. */
  readonly ttlMs: number;
}

export interface GatewayPresence extends PresenceKeys {
  /** Writes this gateway's key with a fresh TTL now; false when Redis did not take it. */
  refresh(): Promise<boolean>;
  /** Stops refreshing and deletes this gateway's key (peers see it gone at once). */
  close(): Promise<void>;
}

const message = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** Resolves after the first refresh (failed or not); refreshes until `close()`. */
export async function createGatewayPresence(
  options: GatewayPresenceOptions,
): Promise<GatewayPresence> {
  const { link, gatewayId, logger } = options;
  const ttlMs = options.ttlMs ?? 10_000;
  const refreshMs = options.refreshMs ?? 3_000;
  if (!(refreshMs > 0 && refreshMs < ttlMs)) {
    throw new Error(
      `presence refresh (${refreshMs} ms) must be above 0 and below its TTL (${ttlMs} ms)`,
    );
  }
  const prefix = options.keyPrefix ?? 'hearth:gw:alive:';
  const keyOf = (id: string) => `${prefix}${id}`;
  const own = keyOf(gatewayId);
  let closed = false;
  let failing = false;

  async function refresh(): Promise<boolean> {
    if (closed) return false;
    try {
      await link.client.set(own, '1', { expiration: { type: 'PX', value: ttlMs } });
      failing = false;
      return true;
    } catch (error) {
      if (!failing) logger.debug({ err: message(error) }, 'gateway presence not refreshed');
      failing = true;
      return false;
    }
  }

  const timer = setInterval(() => void refresh(), refreshMs);
  timer.unref();
  // Back after an outage: say so at once rather than at the next tick.
  link.onSubscriberReady(() => void refresh());
  await refresh();

  return {
    keyOf,
    ttlMs,
    refresh,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await link.client.del(own).catch((error: unknown) => {
        logger.debug({ err: message(error) }, 'gateway presence not removed; it lapses on its own');
      });
    },
  };
}
