import type { Logger } from 'pino';
import { createLocalSessionEvents } from './events/local.ts';
import type { LocalSessionSockets } from './events/ports.ts';
import type { RedisPool } from '../redis/pool.ts';
import type { LeaseTiming, PresenceTiming, ScaleOut } from './ports.ts';

export type { ScaleOut };

export interface BuildScaleOutDeps {
  /** `[memory] cache_url`: empty for a single gateway (everything in process). */
  cacheUrl: string;
  /** The gateway's Redis connections, one link per URL. */
  redis: RedisPool;
  sockets: LocalSessionSockets;
  /** This gateway's id among its peers (a random UUID per process). */
  gatewayId: string;
  logger: Logger;
  now: () => number;
  /** How long this gateway's presence key lives and how often it is refreshed (presence.ts). */
  presence?: PresenceTiming;
  /** How long a connection lease outlives a holder that stopped renewing it. */
  leaseTiming?: LeaseTiming;
}

/**
 * In process without `cache_url`; otherwise Redis. The Redis client is imported only when
 * configured (like the short-term tier, memory/build-memory.ts), so a single gateway never
 * loads it.
 */
export async function buildScaleOut(deps: BuildScaleOutDeps): Promise<ScaleOut> {
  const logger = deps.logger.child({ area: 'scale-out' });
  if (deps.cacheUrl === '') {
    const events = createLocalSessionEvents(deps.sockets);
    return {
      gatewayId: deps.gatewayId,
      shared: undefined,
      events,
      lease: () => undefined,
      claim: undefined,
      backends: () => ({ events: events.kind }),
      close: () => events.close(),
    };
  }

  const [{ createGatewayPresence }, { createRedisSessionEvents }] = await Promise.all([
    import('./presence.ts'),
    import('./events/redis.ts'),
  ]);
  const link = await deps.redis.open(deps.cacheUrl);
  const presence = await createGatewayPresence({
    link,
    gatewayId: deps.gatewayId,
    logger,
    ...deps.presence,
  });
  const events = createRedisSessionEvents({
    link,
    sockets: deps.sockets,
    gatewayId: deps.gatewayId,
    logger,
  });
  const [{ createRedisConnectionLease }, { createRedisMessageClaim }] = await Promise.all([
    import('./connection-lease.ts'),
    import('./message-claim.ts'),
  ]);
  return {
    gatewayId: deps.gatewayId,
    shared: { link, presence },
    events,
    lease: (key) =>
      createRedisConnectionLease({
        link,
        key: `hearth:lease:${key}`,
        gatewayId: deps.gatewayId,
        timing: deps.leaseTiming,
        logger,
        now: deps.now,
      }),
    claim: createRedisMessageClaim({ link, gatewayId: deps.gatewayId, logger }),
    backends: () => ({ events: events.kind }),
    async close() {
      await events.close();
      await presence.close();
      await link.close();
    },
  };
}
