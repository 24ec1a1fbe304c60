import type { Area } from '../lifecycle/area.ts';
import { late } from '../lifecycle/late.ts';
import { buildScaleOut, type BuildScaleOutDeps, type ScaleOut } from './build-scale-out.ts';

export interface ScaleOutArea extends Area {
  /** The shared approval board and session events; 503 before the phase has run. */
  readonly scaleOut: () => ScaleOut;
  /** The same, or undefined before the phase has run. */
  readonly peek: () => ScaleOut | undefined;
}

/** What gateways behind one reverse proxy share: pending approvals and session events. */
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
