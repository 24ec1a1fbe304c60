import type { Logger } from '../observability/logger.ts';
import { createInProcessCanvasStore } from './in-process.ts';
import type { CanvasLimits, CanvasStore } from './ports.ts';

/**
 * In process without `cache_url`; otherwise in Redis, shared by every gateway of that URL. The
 * Redis client is imported only when configured.
 */
export async function openCanvasStore(deps: {
  cacheUrl: string;
  limits: CanvasLimits;
  logger: Logger;
}): Promise<CanvasStore> {
  if (deps.cacheUrl === '') return createInProcessCanvasStore(deps.limits);
  const [{ createRedisLink }, { createRedisCanvasStore }] = await Promise.all([
    import('../scale-out/redis-link.ts'),
    import('./redis.ts'),
  ]);
  const logger = deps.logger.child({ area: 'canvas' });
  return createRedisCanvasStore({
    link: await createRedisLink({ url: deps.cacheUrl, logger }),
    limits: deps.limits,
    logger,
  });
}
