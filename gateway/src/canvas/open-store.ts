import type { Logger } from '../observability/logger.ts';
import { createInProcessCanvasStore } from './in-process.ts';
import type { CanvasLimits, CanvasStore } from './ports.ts';

/**
 * In process without `cache_url`; otherwise in Redis, shared by every gateway of that URL, with
 * the in-process fallback while Redis is unreachable (resilient.ts). The Redis client is
 * imported only when configured.
 */
export async function openCanvasStore(deps: {
  cacheUrl: string;
  limits: CanvasLimits;
  logger: Logger;
  /** How often an unreachable Redis is probed (default 5,000 ms). */
  probeIntervalMs?: number;
}): Promise<CanvasStore> {
  if (deps.cacheUrl === '') return createInProcessCanvasStore(deps.limits);
  const [{ createRedisLink }, { createRedisCanvasStore }, { createResilientCanvasStore }] =
    await Promise.all([
      import('../redis/link.ts'),
      import('./redis.ts'),
      import('./resilient.ts'),
    ]);
  const logger = deps.logger.child({ area: 'canvas' });
  const link = await createRedisLink({ url: deps.cacheUrl, logger });
  return createResilientCanvasStore({
    primary: await createRedisCanvasStore({ link, limits: deps.limits, logger }),
    ready: () => link.ready(),
    onReconnect: (fn) => link.onSubscriberReady(fn),
    limits: deps.limits,
    logger,
    probeIntervalMs: deps.probeIntervalMs,
  });
}
