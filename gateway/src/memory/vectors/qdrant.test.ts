import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import type { VectorStore } from '../ports.ts';
import { runVectorStoreConformance } from './conformance.ts';
import {
  createQdrantVectorStore,
  describeQdrantUrl,
  fromQdrantId,
  MAX_QDRANT_HITS,
  toQdrantId,
} from './qdrant.ts';
import { startFakeQdrant, type FakeQdrant } from './testing/fake-qdrant-server.ts';

let fake: FakeQdrant;
let collections = 0;

beforeAll(async () => {
  fake = await startFakeQdrant();
});

afterAll(async () => {
  await fake.close();
});

runVectorStoreConformance(
  'qdrant adapter against a fake Qdrant HTTP server',
  (dimensions) =>
    Promise.resolve(
      createQdrantVectorStore({
        url: fake.url,
        collection: `conformance_${(collections += 1)}`,
        dimensions,
        logger: silentLogger(),
      }),
    ),
  { kind: 'qdrant' },
);

const vec = (...values: number[]): Float32Array => Float32Array.from(values);

describe('qdrant adapter: the requests it sends', () => {
  let store: VectorStore;
  let collection: string;
  const sent = () => fake.requests.map((r) => `${r.method} ${r.path}`);

  beforeEach(() => {
    collection = `shapes_${(collections += 1)}`;
    store = createQdrantVectorStore({
      url: fake.url,
      collection,
      dimensions: 3,
      logger: silentLogger(),
    });
    fake.requests.length = 0;
  });

  it('creates the collection on first use: cosine distance, the embedder’s size, a session index', async () => {
    await store.count();
    expect(sent()).toStrictEqual([
      `GET /collections/${collection}/exists`,
      `PUT /collections/${collection}`,
      `PUT /collections/${collection}/index`,
      `POST /collections/${collection}/points/count`,
    ]);
    expect(fake.requests[1]?.body).toStrictEqual({ vectors: { size: 3, distance: 'Cosine' } });
    expect(fake.requests[2]?.body).toStrictEqual({
      field_name: 'session_id',
      field_schema: 'keyword',
    });
    expect(fake.requests[2]?.query).toStrictEqual({ wait: 'true' });
    expect(fake.requests[3]?.body).toStrictEqual({ exact: true });
    // prepared once: the next call goes straight to the point
    fake.requests.length = 0;
    await store.count();
    expect(sent()).toStrictEqual([`POST /collections/${collection}/points/count`]);
  });

  it('uses an existing collection of the right shape without creating it again', async () => {
    await store.count();
    const second = createQdrantVectorStore({
      url: fake.url,
      collection,
      dimensions: 3,
      logger: silentLogger(),
    });
    fake.requests.length = 0;
    await second.count();
    expect(sent()).toStrictEqual([
      `GET /collections/${collection}/exists`,
      `GET /collections/${collection}`,
      `POST /collections/${collection}/points/count`,
    ]);
  });

  it('upserts with wait=true, the session id in the payload, negative ids as UUIDs', async () => {
    await store.upsert([
      { id: 42, vector: vec(1, 0.5, 0), sessionId: 'chat:alice' },
      { id: -7, vector: vec(0, 1, 0), sessionId: 'chat:alice' },
    ]);
    const upsert = fake.requests.find((r) => r.method === 'PUT' && r.path.endsWith('/points'));
    expect(upsert?.query).toStrictEqual({ wait: 'true' });
    expect(upsert?.body).toStrictEqual({
      points: [
        { id: 42, vector: [1, 0.5, 0], payload: { session_id: 'chat:alice' } },
        {
          id: '00000000-0000-0000-0000-000000000007',
          vector: [0, 1, 0],
          payload: { session_id: 'chat:alice' },
        },
      ],
    });
  });

  it('sends large upserts in batches of 256 points', async () => {
    const points = Array.from({ length: 600 }, (_, i) => ({
      id: i,
      vector: vec(1, i, 0),
      sessionId: 's',
    }));
    await store.upsert(points);
    const batches = fake.requests.filter((r) => r.method === 'PUT' && r.path.endsWith('/points'));
    expect(batches.map((r) => (r.body as { points: unknown[] }).points.length)).toStrictEqual([
      256, 256, 88,
    ]);
    await expect(store.count()).resolves.toBe(600);
  });

  it('searches through the query endpoint, filtered by session, without payloads or vectors', async () => {
    await store.upsert([{ id: 1, vector: vec(1, 0, 0), sessionId: 's' }]);
    fake.requests.length = 0;
    await store.search(vec(0.5, 0.25, 0), 8, 's');
    await store.search(vec(0.5, 0.25, 0), 3);
    expect(sent()).toStrictEqual([
      `POST /collections/${collection}/points/query`,
      `POST /collections/${collection}/points/query`,
    ]);
    expect(fake.requests[0]?.body).toStrictEqual({
      query: [0.5, 0.25, 0],
      limit: 8,
      filter: { must: [{ key: 'session_id', match: { value: 's' } }] },
      with_payload: false,
      with_vector: false,
    });
    expect(fake.requests[1]?.body).toStrictEqual({
      query: [0.5, 0.25, 0],
      limit: 3,
      with_payload: false,
      with_vector: false,
    });
  });

  it('caps the number of hits it asks for', async () => {
    await store.search(vec(1, 0, 0), Infinity);
    const query = fake.requests.find((r) => r.path.endsWith('/points/query'));
    expect((query?.body as { limit: number }).limit).toBe(MAX_QDRANT_HITS);
  });

  it('deletes by id list with wait=true, mapping negative ids', async () => {
    await store.remove([3, -1]);
    const deletion = fake.requests.find((r) => r.path.endsWith('/points/delete'));
    expect(deletion?.method).toBe('POST');
    expect(deletion?.query).toStrictEqual({ wait: 'true' });
    expect(deletion?.body).toStrictEqual({ points: [3, '00000000-0000-0000-0000-000000000001'] });
  });

  it('sends nothing for empty work', async () => {
    await store.upsert([]);
    await store.remove([]);
    await expect(store.search(vec(1, 0, 0), 0)).resolves.toStrictEqual([]);
    expect(fake.requests).toStrictEqual([]);
  });

  it('validates dimensions before sending anything', async () => {
    await expect(store.upsert([{ id: 1, vector: vec(1, 0), sessionId: 's' }])).rejects.toThrow(
      /dimension mismatch/,
    );
    await expect(store.search(vec(1, 0), 2)).rejects.toThrow(/dimension mismatch/);
    expect(fake.requests).toStrictEqual([]);
  });
});

describe('qdrant adapter: an existing collection of the wrong shape', () => {
  it('rejects every call with a message saying what is wrong, and pings false', async () => {
    const name = `wrong_size_${(collections += 1)}`;
    await createQdrantVectorStore({
      url: fake.url,
      collection: name,
      dimensions: 768,
      logger: silentLogger(),
    }).count();
    const store = createQdrantVectorStore({
      url: fake.url,
      collection: name,
      dimensions: 384,
      logger: silentLogger(),
    });
    await expect(store.count()).rejects.toThrow(
      /holds 768-dimensional Cosine vectors; the embedder produces 384-dimensional/,
    );
    await expect(store.search(new Float32Array(384), 1)).rejects.toThrow(/768-dimensional/);
    await expect(store.ping()).resolves.toBe(false);
  });

  it('refuses a collection of named vectors', async () => {
    const name = `named_${(collections += 1)}`;
    fake.collections.set(name, {
      size: 4,
      distance: 'Cosine',
      vectorName: 'dense',
      points: new Map(),
      indexes: {},
    });
    const store = createQdrantVectorStore({
      url: fake.url,
      collection: name,
      dimensions: 4,
      logger: silentLogger(),
    });
    await expect(store.count()).rejects.toThrow(/uses named vectors/);
    await expect(store.ping()).resolves.toBe(false);
  });
});

describe('qdrant adapter without a reachable Qdrant', () => {
  it('rejects calls with a clear message naming the server, and pings false', async () => {
    const store = createQdrantVectorStore({
      url: 'http://user:secret@127.0.0.1:1',
      dimensions: 3,
      logger: silentLogger(),
      timeoutMs: 1_000,
    });
    const failure = store.count();
    await expect(failure).rejects.toThrow(
      /^qdrant at http:\/\/127\.0\.0\.1:1: checking the collection failed/,
    );
    await expect(failure).rejects.not.toThrow(/secret/);
    await expect(store.ping()).resolves.toBe(false);
  });

  it('reconnects on the next call once Qdrant answers again', async () => {
    const own = await startFakeQdrant();
    const store = createQdrantVectorStore({
      url: own.url,
      collection: 'comeback',
      dimensions: 2,
      logger: silentLogger(),
    });
    await store.upsert([{ id: 1, vector: vec(1, 0), sessionId: 's' }]);
    await own.stop();
    await expect(store.count()).rejects.toThrow(/count failed/);
    await expect(store.ping()).resolves.toBe(false);
    await own.start();
    await expect(store.ping()).resolves.toBe(true);
    await expect(store.count()).resolves.toBe(1);
    await own.close();
  });
});

describe('qdrant ids', () => {
  it.each([0, 1, 42, Number.MAX_SAFE_INTEGER])('sends the long-term id %d as it is', (id) => {
    expect(toQdrantId(id)).toBe(id);
    expect(fromQdrantId(id)).toBe(id);
  });

  it.each([-1, -255, -65_536, -Number.MAX_SAFE_INTEGER])(
    'maps the negative id %d to a UUID and back',
    (id) => {
      const uuid = toQdrantId(id);
      expect(uuid).toMatch(/^00000000-0000-0000-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(fromQdrantId(uuid)).toBe(id);
      expect(fromQdrantId(String(uuid).toUpperCase())).toBe(id);
    },
  );

  it('ignores ids Hearth did not write', () => {
    expect(fromQdrantId('6f1c4a52-1b7e-4a8e-9d1c-0a5c3e9b7f21')).toBeUndefined();
    expect(fromQdrantId('00000000-0000-0000-0000-000000000000')).toBeUndefined();
    expect(fromQdrantId(2 ** 60)).toBeUndefined();
    expect(fromQdrantId(null)).toBeUndefined();
  });

  it('describes a Qdrant URL without its credentials', () => {
    expect(describeQdrantUrl('https://me:key@vectors.example:6333/prefix')).toBe(
      'https://vectors.example:6333/prefix',
    );
  });
});
