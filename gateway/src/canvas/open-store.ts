import type { Logger } from '../observability/logger.ts';
import type { RedisPool } from '../redis/pool.ts';
import { createInProcessCanvasStore } from './in-process.ts';
import type { CanvasLimits, CanvasStore } from './ports.ts';

/**
 * In process without `cache_url`; otherwise in Redis, shared by every gateway of that URL, with
 * the in-process fallback while Redis is unreachable (resilient.ts). The Redis client is
 * imported only when configured.
 */
export async function openCanvasStore(deps: {
  cacheUrl: string;
  /** The gateway's Redis connections, one link per URL. */
  redis: RedisPool;
  limits: CanvasLimits;
  logger: Logger;
  /** How often an unreachable Redis is probed (default 5,000 ms). */
  probeIntervalMs?: number;
}): Promise<CanvasStore> {
  if (deps.cacheUrl === '') return createInProcessCanvasStore(deps.limits);
  const [{ createRedisCanvasStore }, { createResilientCanvasStore }] = await Promise.all([
    import('./redis.ts'),
    import('./resilient.ts'),
  ]);
  const logger = deps.logger.child({ area: 'canvas' });
  const link = await deps.redis.open(deps.cacheUrl);
  return createResilientCanvasStore({
    primary: await createRedisCanvasStore({ link, limits: deps.limits, logger }),
    ready: () => link.ready(),
    onReconnect: (fn) => link.onSubscriberReady(fn),
    limits: deps.limits,
    logger,
    probeIntervalMs: deps.probeIntervalMs,
  });
}
