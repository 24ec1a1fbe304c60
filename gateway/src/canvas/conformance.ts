import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { isHearthError, type HearthError } from '../errors.ts';
import type { CanvasBlock, CanvasEvent, CanvasLimits, CanvasStore } from './ports.ts';

export const CONFORMANCE_LIMITS: CanvasLimits = {
  maxBlockBytes: 4_096,
  maxCanvasBytes: 2_000,
  maxBlocks: 5,
};

export function textBlock(content = 'hello', type: CanvasBlock['type'] = 'markdown'): CanvasBlock {
  return { id: randomUUID(), type, content, created_at: '2026-11-26T05:00:00.000Z' };
}

/** Waits until `events` holds `count` items (pub/sub adapters deliver asynchronously). */
export async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for canvas events');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The HearthError an operation rejects with (fails the test when it resolves). */
async function refusal(operation: Promise<unknown>): Promise<HearthError> {
  const error = await operation.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!isHearthError(error)) throw new Error(`expected a HearthError, got ${String(error)}`);
  return error;
}

/**
 * The behaviour every canvas store adapter must show. `open` builds a fresh, empty store with
 * CONFORMANCE_LIMITS.
 */
export function runCanvasStoreConformance(name: string, open: () => Promise<CanvasStore>): void {
  describe(`canvas store conformance: ${name}`, () => {
    const opened: CanvasStore[] = [];
    const fresh = async () => {
      const store = await open();
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });

    it('keeps blocks in the order they were added, with their size', async () => {
      const store = await fresh();
      const first = textBlock('first');
      const second = { ...textBlock('second', 'code'), language: 'ts' };
      await store.add(first);
      await store.add(second);
      expect(await store.blocks()).toEqual([first, second]);
      expect(await store.bytes()).toBe(
        Buffer.byteLength(JSON.stringify(first)) + Buffer.byteLength(JSON.stringify(second)),
      );
    });

    it('tells subscribers of every add and clear, and stops after unsubscribe', async () => {
      const store = await fresh();
      const events: CanvasEvent[] = [];
      const unsubscribe = store.subscribe((event) => events.push(event));
      const block = textBlock();
      await store.add(block);
      await store.clear();
      await until(() => events.length === 2);
      expect(events).toEqual([{ type: 'add', block }, { type: 'clear' }]);
      unsubscribe();
      await store.add(textBlock());
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(events).toHaveLength(2);
    });

    it('clear empties the canvas and its byte count', async () => {
      const store = await fresh();
      await store.add(textBlock());
      await store.clear();
      expect(await store.blocks()).toEqual([]);
      expect(await store.bytes()).toBe(0);
    });

    it('refuses a block past the block count cap with 413, keeping what it had', async () => {
      const store = await fresh();
      for (let i = 0; i < CONFORMANCE_LIMITS.maxBlocks; i += 1) await store.add(textBlock(`${i}`));
      const error = await refusal(store.add(textBlock('one too many')));
      expect(error.code).toBe('payload_too_large');
      expect(error.message).toContain(`at most ${CONFORMANCE_LIMITS.maxBlocks} blocks`);
      expect(await store.blocks()).toHaveLength(CONFORMANCE_LIMITS.maxBlocks);
    });

    it('refuses a block past the canvas byte cap with 413, keeping what it had', async () => {
      const store = await fresh();
      const big = textBlock('x'.repeat(1_200));
      await store.add(big);
      const error = await refusal(store.add(textBlock('y'.repeat(1_200))));
      expect(error.code).toBe('payload_too_large');
      expect(error.message).toContain(`${CONFORMANCE_LIMITS.maxCanvasBytes} bytes`);
      expect(await store.blocks()).toEqual([big]);
    });

    it('never passes the caps under concurrent adds', async () => {
      const store = await fresh();
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) => store.add(textBlock(`${i}`))),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(
        CONFORMANCE_LIMITS.maxBlocks,
      );
      expect(await store.blocks()).toHaveLength(CONFORMANCE_LIMITS.maxBlocks);
    });
  });
}
