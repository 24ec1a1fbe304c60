import { makeBlock, type RenderBody } from './blocks.ts';
import type { CanvasBlock, CanvasLimits, CanvasStore } from './ports.ts';

export interface CanvasService {
  state(): Promise<{ blocks: CanvasBlock[]; count: number }>;
  render(body: RenderBody): Promise<CanvasBlock>;
  clear(): Promise<void>;
  status(): Promise<{ count: number; bytes: number; viewers: number; backend: string }>;
  /** The html block with this id, or undefined (its sandbox page). */
  htmlBlock(id: string): Promise<CanvasBlock | undefined>;
  /** Counts a `/ws/canvas` viewer of this gateway; returns its goodbye. */
  viewerJoined(): () => void;
  readonly store: () => CanvasStore;
}

/** The canvas as the routes and sockets see it: validation and caps over a store. */
export function createCanvasService(deps: {
  store: () => CanvasStore;
  limits: CanvasLimits;
  now: () => number;
}): CanvasService {
  let viewers = 0;
  return {
    store: deps.store,
    async state() {
      const blocks = await deps.store().blocks();
      return { blocks, count: blocks.length };
    },
    async render(body) {
      const block = makeBlock(body, deps.limits, deps.now);
      await deps.store().add(block);
      return block;
    },
    clear: () => deps.store().clear(),
    async status() {
      const store = deps.store();
      const [blocks, bytes] = await Promise.all([store.blocks(), store.bytes()]);
      return { count: blocks.length, bytes, viewers, backend: store.kind };
    },
    async htmlBlock(id) {
      const blocks = await deps.store().blocks();
      return blocks.find((block) => block.id === id && block.type === 'html');
    },
    viewerJoined() {
      viewers += 1;
      let left = false;
      return () => {
        if (!left) viewers -= 1;
        left = true;
      };
    },
  };
}
