/**
 * The behaviour every `VectorStore` adapter must show, as a vitest suite. An adapter's test
 * calls `runVectorStoreConformance(name, create, options)`; `create(dimensions)` must return a
 * new, EMPTY store of that many dimensions. A test an adapter cannot pass is skipped only with
 * a stated reason.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { VectorHit, VectorPoint, VectorStore } from '../ports.ts';

export interface VectorConformanceOptions {
  /** Tests this adapter cannot pass, each group with the reason (shown in the test name). */
  skip?: { reason: string; tests: string[] }[];
  /** The kind the store must report; either kind is accepted when omitted. */
  kind?: VectorStore['kind'];
}

const vec = (...values: number[]): Float32Array => Float32Array.from(values);

/** A deterministic pseudo-random generator (mulberry32), so failures can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function randomVector(random: () => number, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i += 1) vector[i] = random() * 2 - 1;
  return vector;
}

/** Cosine similarity in float64, the reference the adapters are checked against. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    aa += x * x;
    bb += y * y;
  }
  return aa === 0 || bb === 0 ? 0 : dot / Math.sqrt(aa * bb);
}

/** Brute force: every point scored, best first (ties to the lower id). */
export function bruteForce(
  points: readonly VectorPoint[],
  query: Float32Array,
  topK: number,
  sessionId?: string,
): VectorHit[] {
  return points
    .filter((point) => sessionId === undefined || point.sessionId === sessionId)
    .map((point) => ({ id: point.id, score: cosine(point.vector, query) }))
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .slice(0, topK);
}

/** Same ids in the same order, each score within 1e-5. */
export function expectHits(actual: VectorHit[], expected: [id: number, score: number][]): void {
  expect(actual.map((hit) => hit.id)).toStrictEqual(expected.map(([id]) => id));
  actual.forEach((hit, i) => {
    const want = expected[i]?.[1] ?? Number.NaN;
    expect(Math.abs(hit.score - want), `score of id ${hit.id}`).toBeLessThanOrEqual(1e-5);
  });
}

/**
 * The hand-made set: 4 dimensions, stored vectors deliberately not normalised. Cosines with
 * the query (2, 1, 0, 0) worked out by hand: id 2 → 9/√90, id 1 → 2/√5, id 5 → 3/(2√5),
 * id 3 → 1/√5, id 6 → −2/√50, id 4 → −2/√5.
 */
const handMade: VectorPoint[] = [
  { id: 1, vector: vec(1, 0, 0, 0), sessionId: 'a' },
  { id: 2, vector: vec(3, 3, 0, 0), sessionId: 'a' },
  { id: 3, vector: vec(0, 2, 0, 0), sessionId: 'b' },
  { id: 4, vector: vec(-1, 0, 0, 0), sessionId: 'b' },
  { id: 5, vector: vec(1, 1, 1, 1), sessionId: 'a' },
  { id: 6, vector: vec(-1, 0, 0, 3), sessionId: 'c' },
];
const query = vec(2, 1, 0, 0);
const expectedAll: [number, number][] = [
  [2, 0.948683],
  [1, 0.894427],
  [5, 0.67082],
  [3, 0.447214],
  [6, -0.282843],
  [4, -0.894427],
];

export function runVectorStoreConformance(
  name: string,
  create: (dimensions: number) => Promise<VectorStore>,
  options: VectorConformanceOptions = {},
): void {
  const skipped = new Map<string, string>();
  for (const group of options.skip ?? []) {
    if (group.reason.trim() === '') throw new Error('a skipped conformance test needs a reason');
    for (const test of group.tests) skipped.set(test, group.reason);
  }
  const defined = new Set<string>();
  const test = (title: string, body: () => Promise<void>): void => {
    defined.add(title);
    const reason = skipped.get(title);
    if (reason === undefined) it(title, body);
    else it.skip(`${title} (skipped: ${reason})`, body);
  };

  describe(`VectorStore conformance: ${name}`, () => {
    const open: VectorStore[] = [];
    const make = async (dimensions = 4): Promise<VectorStore> => {
      const store = await create(dimensions);
      open.push(store);
      return store;
    };
    const withHandMade = async (): Promise<VectorStore> => {
      const store = await make();
      await store.upsert(handMade);
      return store;
    };

    afterEach(async () => {
      await Promise.all(open.splice(0).map((store) => store.close()));
    });

    describe('identity and health', () => {
      test('reports its kind and dimensions', async () => {
        const store = await make(4);
        if (options.kind === undefined) expect(['qdrant', 'in-memory']).toContain(store.kind);
        else expect(store.kind).toBe(options.kind);
        expect(store.dimensions).toBe(4);
        expect((await make(384)).dimensions).toBe(384);
      });

      test('answers ping() with true while open, false once closed; close() may be repeated', async () => {
        const store = await make();
        await expect(store.ping()).resolves.toBe(true);
        await store.close();
        await expect(store.ping()).resolves.toBe(false);
        await expect(store.close()).resolves.toBeUndefined();
      });
    });

    describe('search', () => {
      test('finds the nearest neighbours, best first, with their cosine similarity', async () => {
        const store = await withHandMade();
        expectHits(await store.search(query, 6), expectedAll);
        expectHits(await store.search(vec(1, 0, 0, 0), 3), [
          [1, 1],
          [2, 0.707107],
          [5, 0.5],
        ]);
      });

      test('does not depend on the length of the query vector', async () => {
        const store = await withHandMade();
        expectHits(await store.search(vec(200, 100, 0, 0), 6), expectedAll);
        expectHits(await store.search(vec(0.002, 0.001, 0, 0), 6), expectedAll);
      });

      test('returns at most topK hits, the best ones', async () => {
        const store = await withHandMade();
        expectHits(await store.search(query, 2), expectedAll.slice(0, 2));
        expectHits(await store.search(query, 1), expectedAll.slice(0, 1));
      });

      test('returns every point when topK exceeds the count', async () => {
        const store = await withHandMade();
        expectHits(await store.search(query, 1_000), expectedAll);
      });

      test('returns nothing for topK 0, or from an empty store', async () => {
        const store = await withHandMade();
        await expect(store.search(query, 0)).resolves.toStrictEqual([]);
        const empty = await make();
        await expect(empty.search(query, 5)).resolves.toStrictEqual([]);
      });

      test('restricts hits to one session when given', async () => {
        const store = await withHandMade();
        expectHits(await store.search(query, 10, 'a'), [
          [2, 0.948683],
          [1, 0.894427],
          [5, 0.67082],
        ]);
        expectHits(await store.search(query, 1, 'b'), [[3, 0.447214]]);
        expectHits(await store.search(query, 10, 'c'), [[6, -0.282843]]);
      });

      test('returns nothing for a session that has no points', async () => {
        const store = await withHandMade();
        await expect(store.search(query, 10, 'nobody')).resolves.toStrictEqual([]);
        await expect(store.search(query, 10, 'A')).resolves.toStrictEqual([]);
      });

      test('keeps every score within [-1, 1]', async () => {
        const store = await make();
        await store.upsert([
          { id: 1, vector: vec(0.1, 0.2, 0.3, 0.4), sessionId: 's' },
          { id: 2, vector: vec(-0.1, -0.2, -0.3, -0.4), sessionId: 's' },
        ]);
        const hits = await store.search(vec(0.1, 0.2, 0.3, 0.4), 2);
        expect(hits.map((hit) => hit.id)).toStrictEqual([1, 2]);
        for (const hit of hits) {
          expect(hit.score).toBeLessThanOrEqual(1);
          expect(hit.score).toBeGreaterThanOrEqual(-1);
        }
        expect(hits[0]?.score).toBeCloseTo(1, 5);
        expect(hits[1]?.score).toBeCloseTo(-1, 5);
      });

      test('agrees with brute force on 300 random 384-dimensional vectors', async () => {
        const random = seededRandom(384);
        const store = await make(384);
        const points = Array.from({ length: 300 }, (_, i) => ({
          id: i + 1,
          vector: randomVector(random, 384),
          sessionId: `s${i % 3}`,
        }));
        await store.upsert(points);
        for (let q = 0; q < 5; q += 1) {
          const probe = randomVector(random, 384);
          const expected = (hits: VectorHit[]) =>
            hits.map((hit): [number, number] => [hit.id, hit.score]);
          expectHits(await store.search(probe, 10), expected(bruteForce(points, probe, 10)));
          expectHits(
            await store.search(probe, 5, 's1'),
            expected(bruteForce(points, probe, 5, 's1')),
          );
        }
      });
    });

    describe('upsert, remove and count', () => {
      test('counts the points it holds', async () => {
        const store = await make();
        await expect(store.count()).resolves.toBe(0);
        await store.upsert(handMade);
        await expect(store.count()).resolves.toBe(6);
      });

      test('replaces the vector and session of an id upserted again', async () => {
        const store = await withHandMade();
        await store.upsert([{ id: 4, vector: vec(2, 1, 0, 0), sessionId: 'a' }]);
        await expect(store.count()).resolves.toBe(6);
        const hits = await store.search(query, 2);
        expectHits(hits, [
          [4, 1],
          [2, 0.948683],
        ]);
        expect((await store.search(query, 10, 'b')).map((hit) => hit.id)).toStrictEqual([3]);
        expect((await store.search(query, 10, 'a')).map((hit) => hit.id)).toStrictEqual([
          4, 2, 1, 5,
        ]);
      });

      test('keeps the last of two points with the same id in one batch', async () => {
        const store = await make();
        await store.upsert([
          { id: 7, vector: vec(1, 0, 0, 0), sessionId: 'x' },
          { id: 7, vector: vec(0, 1, 0, 0), sessionId: 'y' },
        ]);
        await expect(store.count()).resolves.toBe(1);
        expectHits(await store.search(vec(0, 1, 0, 0), 5, 'y'), [[7, 1]]);
        await expect(store.search(vec(0, 1, 0, 0), 5, 'x')).resolves.toStrictEqual([]);
      });

      test('removes points by id and ignores ids it does not hold', async () => {
        const store = await withHandMade();
        await store.remove([2, 5, 99]);
        await expect(store.count()).resolves.toBe(4);
        expectHits(await store.search(query, 10), [
          [1, 0.894427],
          [3, 0.447214],
          [6, -0.282843],
          [4, -0.894427],
        ]);
        await store.remove([]);
        await store.remove([1, 3, 4, 6]);
        await expect(store.count()).resolves.toBe(0);
        await expect(store.search(query, 10)).resolves.toStrictEqual([]);
      });

      test('stores a removed id again as new', async () => {
        const store = await withHandMade();
        await store.remove([1]);
        await store.upsert([{ id: 1, vector: vec(0, 0, 1, 0), sessionId: 'z' }]);
        expectHits(await store.search(vec(0, 0, 1, 0), 1), [[1, 1]]);
        await expect(store.count()).resolves.toBe(6);
      });

      test('accepts negative ids (short-term-only items) next to positive ones', async () => {
        const store = await withHandMade();
        await store.upsert([
          { id: -1, vector: vec(2, 1, 0, 0), sessionId: 'a' },
          { id: -9_007_199_254_740, vector: vec(0, 0, 1, 0), sessionId: 'a' },
        ]);
        expectHits(await store.search(query, 2, 'a'), [
          [-1, 1],
          [2, 0.948683],
        ]);
        expectHits(await store.search(vec(0, 0, 1, 0), 1), [[-9_007_199_254_740, 1]]);
        await store.remove([-1]);
        await expect(store.count()).resolves.toBe(7);
      });

      test('keeps its own copy of each vector', async () => {
        const store = await make();
        const vector = vec(1, 0, 0, 0);
        await store.upsert([{ id: 1, vector, sessionId: 's' }]);
        vector.set([0, 1, 0, 0]);
        expectHits(await store.search(vec(1, 0, 0, 0), 1), [[1, 1]]);
      });

      test('works with a dimension count that is not a multiple of 4', async () => {
        const store = await make(5);
        await store.upsert([
          { id: 1, vector: vec(0, 0, 0, 0, 1), sessionId: 's' },
          { id: 2, vector: vec(1, 0, 0, 0, 1), sessionId: 's' },
        ]);
        expectHits(await store.search(vec(0, 0, 0, 0, 3), 2), [
          [1, 1],
          [2, 0.707107],
        ]);
      });
    });

    describe('invalid input', () => {
      test('rejects a point of the wrong dimension with a clear error, storing nothing', async () => {
        const store = await make();
        const upsert = store.upsert([
          { id: 1, vector: vec(1, 0, 0, 0), sessionId: 's' },
          { id: 2, vector: vec(1, 0, 0), sessionId: 's' },
        ]);
        await expect(upsert).rejects.toThrow(RangeError);
        await expect(upsert).rejects.toThrow(/dimension mismatch: .* 3 dimensions.* 4-dimensional/);
        await expect(store.count()).resolves.toBe(0);
      });

      test('rejects a query of the wrong dimension with a clear error', async () => {
        const store = await withHandMade();
        await expect(store.search(vec(1, 0, 0, 0, 0), 3)).rejects.toThrow(
          /dimension mismatch: the query vector has 5 dimensions/,
        );
        await expect(store.search(vec(1, 0, 0, 0, 0), 3)).rejects.toThrow(RangeError);
      });

      test('rejects non-finite components and ids that are not safe integers', async () => {
        const store = await make();
        await expect(
          store.upsert([{ id: 1, vector: vec(1, Number.NaN, 0, 0), sessionId: 's' }]),
        ).rejects.toThrow(RangeError);
        await expect(
          store.upsert([{ id: 1.5, vector: vec(1, 0, 0, 0), sessionId: 's' }]),
        ).rejects.toThrow(RangeError);
        await expect(store.search(vec(Infinity, 0, 0, 0), 3)).rejects.toThrow(RangeError);
        await expect(store.count()).resolves.toBe(0);
      });
    });
  });

  for (const title of skipped.keys()) {
    if (!defined.has(title)) throw new Error(`skip names an unknown conformance test: ${title}`);
  }
}
