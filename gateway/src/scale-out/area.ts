import { randomUUID } from 'node:crypto';
import { defineArea } from '../lifecycle/install.ts';
import { late } from '../lifecycle/late.ts';
import { buildScaleOut, type BuildScaleOutDeps } from './build-scale-out.ts';
import type { LocalSessionSockets, ScaleOut, ScaleOutArea, ScaleOutOptions } from './ports.ts';

/** What gateways behind one reverse proxy share: session events, leases, claims. */
export function scaleOutArea(deps: BuildScaleOutDeps): ScaleOutArea {
  const scaleOut = late<ScaleOut>('Scale-out');
  return {
    name: 'scale-out',
    start: async () => scaleOut.set(await buildScaleOut(deps)),
    status: () => scaleOut.peek()?.backends() ?? {},
    scaleOut: scaleOut.get,
    peek: scaleOut.peek,
    close: () => scaleOut.peek()?.close(),
  };
}

export const scaleOut = defineArea(
  'scaleOut',
  (
    kernel,
    { sessions }: { sessions: { localSockets: LocalSessionSockets } },
    options: ScaleOutOptions | undefined,
  ) =>
    scaleOutArea({
      cacheUrl: kernel.config.memory.cache_url,
      clusterSecret: kernel.config.gateway.cluster_secret,
      cachePassword: kernel.config.memory.cache_password_secret,
      redis: kernel.redis,
      sockets: sessions.localSockets,
      // This process among the gateways sharing `[memory] cache_url`.
      gatewayId: randomUUID(),
      logger: kernel.logger,
      now: kernel.now,
      presence: options?.presenceTiming,
      leaseTiming: options?.leaseTiming,
    }),
);
