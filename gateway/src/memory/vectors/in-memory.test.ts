import { describe, expect, it } from 'vitest';
import type { VectorPoint } from '../ports.ts';
import {
  bruteForce,
  expectHits,
  randomVector,
  runVectorStoreConformance,
  seededRandom,
} from './conformance.ts';
import {
  createRowMemory,
  jsKernel,
  kernelModuleBytes,
  PAGE_BYTES,
  wasmKernel,
} from './dot-kernel.ts';
import { createInMemoryVectorStore } from './in-memory.ts';

runVectorStoreConformance(
  'in-memory (WebAssembly SIMD kernel)',
  (dimensions) => Promise.resolve(createInMemoryVectorStore(dimensions)),
  { kind: 'in-memory' },
);

runVectorStoreConformance(
  'in-memory (JavaScript kernel)',
  (dimensions) => Promise.resolve(createInMemoryVectorStore(dimensions, { kernel: 'js' })),
  { kind: 'in-memory' },
);

const asExpected = (hits: { id: number; score: number }[]): [number, number][] =>
  hits.map((hit) => [hit.id, hit.score]);

describe('in-memory vector index specifics', () => {
  it('runs the WebAssembly SIMD kernel on Node 24', () => {
    const api = (globalThis as unknown as { WebAssembly: { validate(b: Uint8Array): boolean } })
      .WebAssembly;
    expect(api.validate(kernelModuleBytes())).toBe(true);
    expect(createInMemoryVectorStore(8).kernel).toBe('wasm-simd');
    expect(createInMemoryVectorStore(8, { kernel: 'js' }).kernel).toBe('js');
  });

  it.each(['auto', 'js'] as const)(
    'agrees with brute force on 2,000 random vectors through growth and churn (%s kernel)',
    async (kernel) => {
      const random = seededRandom(2_000);
      const dimensions = 384;
      const store = createInMemoryVectorStore(dimensions, { initialCapacity: 16, kernel });
      const points = new Map<number, VectorPoint>();
      const upsert = async (batch: VectorPoint[]) => {
        await store.upsert(batch);
        for (const point of batch) points.set(point.id, point);
      };
      for (let start = 0; start < 2_000; start += 250) {
        await upsert(
          Array.from({ length: 250 }, (_, i) => ({
            id: start + i + 1,
            vector: randomVector(random, dimensions),
            sessionId: `session-${(start + i) % 7}`,
          })),
        );
      }
      // churn: remove a few hundred, overwrite a few hundred (some moving session)
      const removed = Array.from({ length: 300 }, (_, i) => 1 + ((i * 37) % 2_000));
      await store.remove(removed);
      for (const id of removed) points.delete(id);
      await upsert(
        Array.from({ length: 200 }, (_, i) => ({
          id: 1_001 + i * 3,
          vector: randomVector(random, dimensions),
          sessionId: `session-${i % 9}`,
        })),
      );
      await expect(store.count()).resolves.toBe(points.size);

      const all = [...points.values()];
      for (let q = 0; q < 20; q += 1) {
        const query = randomVector(random, dimensions);
        expectHits(await store.search(query, 10), asExpected(bruteForce(all, query, 10)));
        const session = `session-${q % 9}`;
        expectHits(
          await store.search(query, 25, session),
          asExpected(bruteForce(all, query, 25, session)),
        );
      }
      const query = randomVector(random, dimensions);
      expectHits(await store.search(query, 5_000), asExpected(bruteForce(all, query, 5_000)));
    },
  );

  it('computes the same scores with either kernel, also without WebAssembly memory', () => {
    const stride = 16;
    for (const memory of [createRowMemory(1), createRowMemory(1, false)]) {
      const f32 = new Float32Array(memory.buffer);
      f32.set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], 0); // query
      f32.set(
        Array.from({ length: 16 }, () => 1),
        16,
      ); // row 0
      f32.set(
        Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? 1 : -1)),
        32,
      ); // row 1
      new Int32Array(memory.buffer).set([1, 0], 64); // gather list: rows 1, 0
      for (const kernel of [jsKernel(memory), wasmKernel(memory)]) {
        if (kernel === undefined) continue;
        kernel.scan(0, stride * 4, 2, stride * 4, 512);
        kernel.gather(0, stride * 4, 256, 2, stride * 4, 520);
        expect([...new Float32Array(memory.buffer, 512, 4)]).toStrictEqual([136, -8, -8, 136]);
      }
    }
    const standIn = createRowMemory(1, false);
    new Float32Array(standIn.buffer)[3] = 7;
    expect(wasmKernel(standIn)).toBeUndefined();
    expect(standIn.grow(2)).toBe(1);
    expect(standIn.buffer.byteLength).toBe(3 * PAGE_BYTES);
    expect(new Float32Array(standIn.buffer)[3]).toBe(7);
  });

  it('breaks score ties by the lower id', async () => {
    const store = createInMemoryVectorStore(2);
    const same = Float32Array.from([1, 1]);
    await store.upsert([30, 10, 20, 40].map((id) => ({ id, vector: same, sessionId: 's' })));
    const hits = await store.search(Float32Array.from([1, 0]), 3);
    expect(hits.map((hit) => hit.id)).toStrictEqual([10, 20, 30]);
  });

  it('gives a zero vector a score of 0 against everything', async () => {
    const store = createInMemoryVectorStore(3);
    await store.upsert([{ id: 1, vector: new Float32Array(3), sessionId: 's' }]);
    await expect(store.search(Float32Array.from([1, 2, 3]), 1)).resolves.toStrictEqual([
      { id: 1, score: 0 },
    ]);
  });

  it('forgets a session once its last point is gone and reuses its slot', async () => {
    const store = createInMemoryVectorStore(2);
    const v = Float32Array.from([1, 0]);
    await store.upsert([{ id: 1, vector: v, sessionId: 'old' }]);
    await store.remove([1]);
    await store.upsert([{ id: 2, vector: v, sessionId: 'new' }]);
    await expect(store.search(v, 5, 'old')).resolves.toStrictEqual([]);
    expectHits(await store.search(v, 5, 'new'), [[2, 1]]);
    // moving the only point of a session to another session frees the first
    await store.upsert([{ id: 2, vector: v, sessionId: 'newer' }]);
    await expect(store.search(v, 5, 'new')).resolves.toStrictEqual([]);
    expectHits(await store.search(v, 5, 'newer'), [[2, 1]]);
  });

  it('rejects bad dimensions at creation and calls once closed', async () => {
    expect(() => createInMemoryVectorStore(0)).toThrow(RangeError);
    expect(() => createInMemoryVectorStore(1.5)).toThrow(RangeError);
    const store = createInMemoryVectorStore(2);
    await store.close();
    await expect(store.count()).rejects.toThrow(/closed/);
    await expect(store.search(Float32Array.from([1, 0]), 1)).rejects.toThrow(/closed/);
  });
});
