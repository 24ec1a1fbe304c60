import type { Logger } from 'pino';
import type { LocalSessionSockets } from '../events/ports.ts';
import type { Area } from '../lifecycle/area.ts';
import { late } from '../lifecycle/late.ts';
import { buildScaleOut, type ScaleOut } from './build-scale-out.ts';
import type { PresenceTiming } from './presence.ts';

export interface ScaleOutAreaDeps {
  /** `[memory] cache_url`: empty for a single gateway. */
  cacheUrl: string;
  /** This gateway's own session sockets. */
  sockets: LocalSessionSockets;
  /** This gateway's id among its peers. */
  gatewayId: string;
  logger: Logger;
  now: () => number;
  presence?: PresenceTiming;
}

export interface ScaleOutArea extends Area {
  /** The shared approval board and session events; 503 before the phase has run. */
  readonly scaleOut: () => ScaleOut;
  /** The same, or undefined before the phase has run. */
  readonly peek: () => ScaleOut | undefined;
}

/** What gateways behind one reverse proxy share: pending approvals and session events. */
export function scaleOutArea(deps: ScaleOutAreaDeps): ScaleOutArea {
  const scaleOut = late<ScaleOut>('Scale-out');
  return {
    name: 'scale-out',
    async start() {
      scaleOut.set(
        await buildScaleOut({
          cacheUrl: deps.cacheUrl,
          sockets: deps.sockets,
          gatewayId: deps.gatewayId,
          logger: deps.logger,
          now: deps.now,
          presence: deps.presence,
        }),
      );
    },
    status: () => scaleOut.peek()?.backends() ?? {},
    scaleOut: scaleOut.get,
    peek: scaleOut.peek,
    close: () => scaleOut.peek()?.close(),
  };
}
