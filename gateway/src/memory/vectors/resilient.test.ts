import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import type { VectorPoint, VectorStore } from '../ports.ts';
import { capturingLogger } from '../../observability/testing/log-capture.ts';
import { expectHits, runVectorStoreConformance } from './conformance.ts';
import { createInMemoryVectorStore } from './in-memory.ts';
import { createQdrantVectorStore } from './qdrant.ts';
import { createResilientVectorStore } from './resilient.ts';
import { startFakeQdrant, type FakeQdrant } from './testing/fake-qdrant-server.ts';

// Nothing listens on port 1: this is "Qdrant configured but unreachable".
const closedPort = 'http://127.0.0.1:1';
let fake: FakeQdrant;
let collections = 0;

beforeAll(async () => {
  fake = await startFakeQdrant();
});

afterAll(async () => {
  await fake.close();
});

runVectorStoreConformance(
  'resilient, Qdrant unreachable (served in memory)',
  (dimensions) =>
    createResilientVectorStore({
      primary: createQdrantVectorStore({ url: closedPort, dimensions, logger: silentLogger() }),
      fallback: createInMemoryVectorStore(dimensions),
      logger: silentLogger(),
    }),
  { kind: 'in-memory' },
);

runVectorStoreConformance(
  'resilient, Qdrant reachable (a fake Qdrant HTTP server)',
  (dimensions) =>
    createResilientVectorStore({
      primary: createQdrantVectorStore({
        url: fake.url,
        collection: `resilient_${(collections += 1)}`,
        dimensions,
        logger: silentLogger(),
      }),
      fallback: createInMemoryVectorStore(dimensions),
      logger: silentLogger(),
    }),
  { kind: 'qdrant' },
);

const vec = (...values: number[]): Float32Array => Float32Array.from(values);

describe('resilient vector store', () => {
  const open: VectorStore[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((store) => store.close()));
  });

  it('uses the in-memory index, with one warning and no error, when Qdrant is unreachable', async () => {
    const capture = capturingLogger();
    const store = await createResilientVectorStore({
      primary: createQdrantVectorStore({ url: closedPort, dimensions: 2, logger: capture.logger }),
      fallback: createInMemoryVectorStore(2),
      logger: capture.logger,
    });
    open.push(store);
    expect(store.kind).toBe('in-memory');
    await store.upsert([{ id: 1, vector: vec(1, 0), sessionId: 's' }]);
    expectHits(await store.search(vec(1, 0), 5, 's'), [[1, 1]]);
    await expect(store.count()).resolves.toBe(1);
    await store.remove([1]);
    await expect(store.ping()).resolves.toBe(true);
    expect(capture.warnings()).toHaveLength(1);
    expect(capture.warnings()[0]?.msg).toMatch(/unreachable; using in-memory cosine similarity/);
  });

  it('starts in memory within initialProbeMs when Qdrant accepts connections but never answers', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as { port: number };
    try {
      const started = performance.now();
      const store = await createResilientVectorStore({
        primary: createQdrantVectorStore({
          url: `http://127.0.0.1:${port}`,
          dimensions: 2,
          logger: silentLogger(),
          timeoutMs: 500,
        }),
        fallback: createInMemoryVectorStore(2),
        logger: silentLogger(),
        initialProbeMs: 100,
      });
      open.push(store);
      expect(performance.now() - started).toBeLessThan(450);
      expect(store.kind).toBe('in-memory');
      await store.upsert([{ id: 1, vector: vec(1, 0), sessionId: 's' }]);
      expectHits(await store.search(vec(1, 0), 1), [[1, 1]]);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('fills the in-memory index with warmFallback the first time it is needed', async () => {
    const source: VectorPoint[] = [
      { id: 1, vector: vec(1, 0), sessionId: 's' },
      { id: 2, vector: vec(0, 1), sessionId: 's' },
    ];
    let warmed = 0;
    const store = await createResilientVectorStore({
      primary: createQdrantVectorStore({ url: closedPort, dimensions: 2, logger: silentLogger() }),
      fallback: createInMemoryVectorStore(2),
      logger: silentLogger(),
      warmFallback: (index) => {
        warmed += 1;
        return index.upsert(source);
      },
    });
    open.push(store);
    // Not on the switch at start: on the first call the fallback serves.
    expect(store.kind).toBe('in-memory');
    expect(warmed).toBe(0);
    await expect.poll(() => store.count()).toBe(2);
    await store.search(vec(1, 0), 1);
    expect(warmed).toBe(1);
    expectHits(await store.search(vec(0, 1), 1), [[2, 1]]);
  });

  it('warns once when warmFallback fails and keeps serving the fallback', async () => {
    const capture = capturingLogger();
    let attempts = 0;
    const store = await createResilientVectorStore({
      primary: createQdrantVectorStore({ url: closedPort, dimensions: 2, logger: silentLogger() }),
      fallback: createInMemoryVectorStore(2),
      logger: capture.logger,
      warmFallback: () => {
        attempts += 1;
        return Promise.reject(new Error('the database is not open'));
      },
    });
    open.push(store);
    for (let i = 0; i < 5; i += 1) await store.search(vec(1, 0), 1);
    await store.upsert([{ id: 1, vector: vec(1, 0), sessionId: 's' }]);
    expectHits(await store.search(vec(1, 0), 1), [[1, 1]]);
    expect(attempts).toBe(1);
    const warnings = capture.warnings().map((line) => line.msg);
    expect(warnings.filter((msg) => /could not fill/.test(msg))).toHaveLength(1);
  });

  it('rejects a caller’s mistake without switching stores', async () => {
    const changes: string[] = [];
    const store = await createResilientVectorStore({
      primary: createQdrantVectorStore({
        url: fake.url,
        collection: `mistake_${(collections += 1)}`,
        dimensions: 2,
        logger: silentLogger(),
      }),
      fallback: createInMemoryVectorStore(2),
      logger: silentLogger(),
      onChange: (kind) => changes.push(kind),
    });
    open.push(store);
    await expect(store.upsert([{ id: 1, vector: vec(1, 0, 0), sessionId: 's' }])).rejects.toThrow(
      /dimension mismatch/,
    );
    await expect(store.search(vec(1), 1)).rejects.toThrow(/dimension mismatch/);
    expect(store.kind).toBe('qdrant');
    expect(changes).toStrictEqual([]);
  });

  it('refuses stores of different dimensions', async () => {
    await expect(
      createResilientVectorStore({
        primary: createInMemoryVectorStore(3),
        fallback: createInMemoryVectorStore(4),
        logger: silentLogger(),
      }),
    ).rejects.toThrow(/disagree on dimensions/);
  });

  it('rides out a Qdrant outage: in-memory meanwhile, outage writes replayed, then Qdrant again', async () => {
    const own = await startFakeQdrant();
    const capture = capturingLogger();
    const changes: string[] = [];
    const longTerm: VectorPoint[] = [
      { id: 1, vector: vec(1, 0, 0), sessionId: 's' },
      { id: 2, vector: vec(0, 1, 0), sessionId: 's' },
      { id: 3, vector: vec(0, 0, 1), sessionId: 't' },
    ];
    const store = await createResilientVectorStore({
      primary: createQdrantVectorStore({
        url: own.url,
        collection: 'outage',
        dimensions: 3,
        logger: silentLogger(),
        timeoutMs: 1_000,
      }),
      fallback: createInMemoryVectorStore(3),
      logger: capture.logger,
      onChange: (kind) => changes.push(kind),
      probeIntervalMs: 25,
      warmFallback: (index) => index.upsert(longTerm),
    });
    open.push(store);
    try {
      expect(store.kind).toBe('qdrant');
      await store.upsert(longTerm);

      await own.stop();
      // The search that meets the outage is answered from the (warming) in-memory index.
      await expect(store.search(vec(1, 0, 0), 1)).resolves.toBeDefined();
      expect(store.kind).toBe('in-memory');
      await expect.poll(() => store.count()).toBe(3);
      expectHits(await store.search(vec(0, 1, 0), 1), [[2, 1]]);
      await store.upsert([{ id: 4, vector: vec(1, 1, 0), sessionId: 's' }]);
      await store.remove([3]);
      expectHits(await store.search(vec(1, 1, 0), 1, 's'), [[4, 1]]);

      await own.start();
      await expect.poll(() => store.kind, { timeout: 5_000 }).toBe('qdrant');
      expect(changes).toStrictEqual(['in-memory', 'qdrant']);
      // Qdrant received what was written during the outage.
      await expect(store.count()).resolves.toBe(3);
      expectHits(await store.search(vec(1, 1, 0), 1, 's'), [[4, 1]]);
      await expect(store.search(vec(0, 0, 1), 5, 't')).resolves.toStrictEqual([]);
      expect(capture.warnings()).toHaveLength(1);

      // The warmed index is now kept in step, ready for the next outage.
      await store.upsert([{ id: 5, vector: vec(0, 0, 1), sessionId: 't' }]);
      await own.stop();
      expectHits(await store.search(vec(0, 0, 1), 1, 't'), [[5, 1]]);
      expect(store.kind).toBe('in-memory');
    } finally {
      await own.close();
    }
  });
});
