import type { HearthConfig } from '../config/schema.ts';
import type { PublicPages } from '../http/pages.ts';
import type { Area } from '../lifecycle/area.ts';
import { late } from '../lifecycle/late.ts';
import type { Logger } from '../observability/logger.ts';
import { canvasFramePages } from './frame-page.ts';
import type { CanvasLimits, CanvasStore } from './ports.ts';
import { canvasRoutes } from './routes.ts';
import { createCanvasService, type CanvasService } from './service.ts';
import { canvasSocket } from './socket.ts';
import { defineArea } from '../lifecycle/install.ts';
import { openCanvasStore } from './open-store.ts';
import type { ScaleOut } from '../scale-out/ports.ts';

export interface CanvasAreaDeps {
  config: HearthConfig['canvas'];
  openStore: (limits: CanvasLimits) => Promise<CanvasStore>;
  logger: Logger;
  now: () => number;
}

export interface CanvasArea extends Area {
  readonly canvas: CanvasService;
  readonly pages: PublicPages;
}

/**
 * The canvas (`/canvas/*`, `/ws/canvas`, the html blocks' sandbox pages): blocks the agent or a
 * client renders for every viewer, in process or shared through Redis (signed, redis.ts).
 */
export function canvasArea(deps: CanvasAreaDeps): CanvasArea {
  const limits: CanvasLimits = {
    maxBlockBytes: deps.config.max_block_bytes,
    maxCanvasBytes: deps.config.max_canvas_bytes,
    maxBlocks: deps.config.max_blocks,
  };
  const store = late<CanvasStore>('The canvas');
  const canvas = createCanvasService({ store: store.get, limits, now: deps.now });
  return {
    name: 'canvas',
    canvas,
    routes: canvasRoutes(canvas, () => store.peek() !== undefined),
    sockets: [{ path: '/ws/canvas', handler: canvasSocket({ canvas, logger: deps.logger }) }],
    pages: canvasFramePages(canvas),
    start: async () => store.set(await deps.openStore(limits)),
    status: (): Record<string, string> => {
      const open = store.peek();
      return open ? { canvas: open.kind } : {};
    },
    close: () => store.peek()?.close(),
  };
}

export interface CanvasNeeds {
  scaleOut: { scaleOut: () => ScaleOut };
}

export const canvas = defineArea('canvas', (kernel, needs: CanvasNeeds) =>
  canvasArea({
    config: kernel.config.canvas,
    openStore: (limits) =>
      openCanvasStore({
        cacheUrl: kernel.config.memory.cache_url,
        redis: kernel.redis,
        // Shared only with what the cluster secret signs; undefined when sharing is refused.
        seal: needs.scaleOut.scaleOut().shared?.seal,
        limits,
        logger: kernel.logger,
      }),
    logger: kernel.logger,
    now: kernel.now,
  }),
);
