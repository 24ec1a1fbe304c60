import { blockBytes, canvasFull } from './blocks.ts';
import type { CanvasBlock, CanvasEvent, CanvasLimits, CanvasStore } from './ports.ts';

/** The canvas of a single gateway: blocks in memory, events to this process's listeners. */
export function createInProcessCanvasStore(limits: CanvasLimits): CanvasStore {
  let blocks: CanvasBlock[] = [];
  let bytes = 0;
  const listeners = new Set<(event: CanvasEvent) => void>();
  const emit = (event: CanvasEvent) => {
    for (const listener of listeners) listener(event);
  };
  return {
    kind: 'in-process',
    blocks: () => Promise.resolve([...blocks]),
    bytes: () => Promise.resolve(bytes),
    add(block) {
      const size = blockBytes(block);
      if (blocks.length + 1 > limits.maxBlocks) return Promise.reject(canvasFull(limits, 'blocks'));
      if (bytes + size > limits.maxCanvasBytes) return Promise.reject(canvasFull(limits, 'bytes'));
      blocks.push(block);
      bytes += size;
      emit({ type: 'add', block });
      return Promise.resolve();
    },
    clear() {
      blocks = [];
      bytes = 0;
      emit({ type: 'clear' });
      return Promise.resolve();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      listeners.clear();
      return Promise.resolve();
    },
  };
}
