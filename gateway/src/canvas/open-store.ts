import type { Logger } from '../observability/logger.ts';
import type { RedisPool } from '../redis/pool.ts';
import type { BusSeal } from '../scale-out/ports.ts';
import { createInProcessCanvasStore } from './in-process.ts';
import type { CanvasLimits, CanvasStore } from './ports.ts';

/**
 * In process without `cache_url`; otherwise in Redis, shared by every gateway of that URL, with
 * the in-process fallback while Redis is unreachable (resilient.ts). The Redis client is
 * imported only when configured.
 *
 * What the canvas puts on Redis is signed with the cluster secret (redis.ts). Without a usable
 * one (`seal` undefined: scale-out refused sharing), the canvas is this gateway's own, and
 * /status says so (`in-process (not shared: see scale_out)`, where scale_out says why).
 */
export async function openCanvasStore(deps: {
  cacheUrl: string;
  /** The gateway's Redis connections, one link per URL. */
  redis: RedisPool;
  /** The bus seal of the gateways sharing `cacheUrl`; undefined when sharing is refused. */
  seal: BusSeal | undefined;
  limits: CanvasLimits;
  logger: Logger;
  /** How often an unreachable Redis is probed (default 5,000 ms). */
  probeIntervalMs?: number;
}): Promise<CanvasStore> {
  if (deps.cacheUrl === '') return createInProcessCanvasStore(deps.limits);
  const logger = deps.logger.child({ area: 'canvas' });
  if (deps.seal === undefined) {
    logger.warn(
      'canvas not shared: [memory] cache_url is set without a usable [gateway] cluster_secret, ' +
        'so this gateway keeps its own canvas (see /status scale_out)',
    );
    const own = createInProcessCanvasStore(deps.limits);
    return { ...own, kind: `${own.kind} (not shared: see scale_out)` };
  }
  const [{ createRedisCanvasStore }, { createResilientCanvasStore }] = await Promise.all([
    import('./redis.ts'),
    import('./resilient.ts'),
  ]);
  const link = await deps.redis.open(deps.cacheUrl);
  return createResilientCanvasStore({
    primary: await createRedisCanvasStore({ link, limits: deps.limits, logger, seal: deps.seal }),
    ready: () => link.ready(),
    onReconnect: (fn) => link.onSubscriberReady(fn),
    limits: deps.limits,
    logger,
    probeIntervalMs: deps.probeIntervalMs,
  });
}
