/**
 * A small HTTP server that speaks the part of Qdrant's REST API the adapter uses, so the
 * adapter's requests are exercised for real without a Qdrant server. Shapes follow the
 * OpenAPI schema shipped in `@qdrant/js-client-rest` (dist/types/openapi/generated_schema.d.ts)
 * and the paths its generated client calls (dist/esm/openapi/generated_api_client.js):
 *
 *   GET  /collections/{name}/exists          collectionExists
 *   GET  /collections/{name}                 getCollection
 *   PUT  /collections/{name}                 createCollection
 *   PUT  /collections/{name}/index           createPayloadIndex
 *   PUT  /collections/{name}/points          upsert          (?wait=true)
 *   POST /collections/{name}/points/query    query
 *   POST /collections/{name}/points/delete   delete          (?wait=true)
 *   POST /collections/{name}/points/count    count
 *
 * Like Qdrant with cosine distance, it normalises vectors on upsert and scores by dot product.
 * It is NOT a recording of a real server (none is available here); the `qdrant.services`
 * test runs the same conformance suite against a real Qdrant when QDRANT_URL is set.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

interface StoredPoint {
  id: number | string;
  vector: number[];
  payload: Record<string, unknown>;
}

interface Collection {
  size: number;
  distance: string;
  /** When set, the collection reports one named vector of that name (tests of misuse). */
  vectorName?: string;
  points: Map<string, StoredPoint>;
  indexes: Record<string, unknown>;
}

export interface FakeQdrant {
  readonly url: string;
  readonly requests: RecordedRequest[];
  readonly collections: Map<string, Collection>;
  /** Stops listening and drops open connections (Qdrant "dies"); the data is kept. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

class HttpError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function pointKey(id: unknown): { key: string; id: number | string } {
  if (typeof id === 'number' && Number.isInteger(id) && id >= 0) return { key: `n${id}`, id };
  if (typeof id === 'string' && UUID.test(id)) {
    const lower = id.toLowerCase();
    return { key: `u${lower}`, id: lower };
  }
  throw new HttpError(
    400,
    'Format error in JSON body: data did not match any variant of untagged enum ExtendedPointId',
  );
}

function normalise(vector: number[]): number[] {
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
  return norm === 0 ? vector : vector.map((x) => x / norm);
}

function matchesFilter(point: StoredPoint, filter: unknown): boolean {
  if (filter === undefined || filter === null) return true;
  if (!isRecord(filter) || !Array.isArray(filter.must)) {
    throw new HttpError(400, 'the fake server only understands { must: [...] } filters');
  }
  return filter.must.every((condition: unknown) => {
    if (!isRecord(condition) || typeof condition.key !== 'string' || !isRecord(condition.match)) {
      throw new HttpError(400, 'the fake server only understands { key, match: { value } }');
    }
    return point.payload[condition.key] === condition.match.value;
  });
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'Format error in JSON body');
  }
}

export async function startFakeQdrant(): Promise<FakeQdrant> {
  const requests: RecordedRequest[] = [];
  const collections = new Map<string, Collection>();
  let operation = 0;
  const started = performance.now();

  const ok = (response: ServerResponse, result: unknown, status = 200): void => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ result, status: 'ok', time: (performance.now() - started) / 1e6 }),
    );
  };
  const fail = (response: ServerResponse, status: number, message: string): void => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ status: { error: message }, time: 0 }));
  };
  const updated = () => ({ operation_id: (operation += 1), status: 'completed' });

  function collectionOf(name: string): Collection {
    const found = collections.get(name);
    if (found === undefined)
      throw new HttpError(404, `Not found: Collection \`${name}\` doesn't exist!`);
    return found;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake');
    const method = request.method ?? 'GET';
    const body = await readBody(request);
    requests.push({
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body,
    });
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const route = `${method} ${parts.length > 0 && parts[0] === 'collections' ? ['collections', '{name}', ...parts.slice(2)].join('/') : parts.join('/')}`;
    const name = parts[1] ?? '';
    const input = isRecord(body) ? body : {};

    switch (route) {
      case 'GET ':
        return ok(response, undefined);
      case 'GET collections/{name}/exists':
        return ok(response, { exists: collections.has(name) });
      case 'GET collections/{name}': {
        const found = collectionOf(name);
        return ok(response, {
          status: 'green',
          optimizer_status: 'ok',
          segments_count: 1,
          points_count: found.points.size,
          indexed_vectors_count: 0,
          config: {
            params: {
              vectors:
                found.vectorName === undefined
                  ? { size: found.size, distance: found.distance }
                  : { [found.vectorName]: { size: found.size, distance: found.distance } },
              shard_number: 1,
              replication_factor: 1,
              write_consistency_factor: 1,
              on_disk_payload: true,
            },
            hnsw_config: { m: 16, ef_construct: 100, full_scan_threshold: 10_000 },
            optimizer_config: {},
          },
          payload_schema: found.indexes,
        });
      }
      case 'PUT collections/{name}': {
        if (collections.has(name)) {
          throw new HttpError(409, `Wrong input: Collection \`${name}\` already exists!`);
        }
        const vectors = input.vectors;
        if (
          !isRecord(vectors) ||
          typeof vectors.size !== 'number' ||
          typeof vectors.distance !== 'string'
        ) {
          throw new HttpError(400, 'the fake server needs vectors: { size, distance }');
        }
        collections.set(name, {
          size: vectors.size,
          distance: vectors.distance,
          points: new Map(),
          indexes: {},
        });
        return ok(response, true);
      }
      case 'PUT collections/{name}/index': {
        const found = collectionOf(name);
        if (typeof input.field_name !== 'string') throw new HttpError(400, 'field_name missing');
        found.indexes[input.field_name] = { data_type: input.field_schema, points: 0 };
        return ok(response, updated());
      }
      case 'PUT collections/{name}/points': {
        const found = collectionOf(name);
        if (!Array.isArray(input.points)) throw new HttpError(400, 'points missing');
        const staged: [string, StoredPoint][] = [];
        for (const point of input.points as unknown[]) {
          if (!isRecord(point) || !Array.isArray(point.vector))
            throw new HttpError(400, 'bad point');
          const { key, id } = pointKey(point.id);
          const vector = point.vector as number[];
          if (vector.length !== found.size) {
            throw new HttpError(
              400,
              `Wrong input: Vector dimension error: expected dim: ${found.size}, got ${vector.length}`,
            );
          }
          const payload = isRecord(point.payload) ? point.payload : {};
          staged.push([
            key,
            { id, vector: found.distance === 'Cosine' ? normalise(vector) : vector, payload },
          ]);
        }
        for (const [key, point] of staged) found.points.set(key, point);
        return ok(response, updated());
      }
      case 'POST collections/{name}/points/query': {
        const found = collectionOf(name);
        const query = input.query;
        if (!Array.isArray(query))
          throw new HttpError(400, 'the fake server needs a dense query vector');
        if (query.length !== found.size) {
          throw new HttpError(
            400,
            `Wrong input: Vector dimension error: expected dim: ${found.size}, got ${query.length}`,
          );
        }
        const limit = typeof input.limit === 'number' ? input.limit : 10;
        const q = normalise(query as number[]);
        const scored = [...found.points.values()]
          .filter((point) => matchesFilter(point, input.filter))
          .map((point) => ({
            id: point.id,
            version: 1,
            score: Math.fround(point.vector.reduce((sum, x, i) => sum + x * (q[i] ?? 0), 0)),
          }))
          .sort((a, b) => b.score - a.score)
          .slice(0, limit);
        return ok(response, { points: scored });
      }
      case 'POST collections/{name}/points/delete': {
        const found = collectionOf(name);
        if (!Array.isArray(input.points))
          throw new HttpError(400, 'the fake server deletes by id list only');
        for (const id of input.points as unknown[]) found.points.delete(pointKey(id).key);
        return ok(response, updated());
      }
      case 'POST collections/{name}/points/count': {
        const found = collectionOf(name);
        const count = [...found.points.values()].filter((point) =>
          matchesFilter(point, input.filter),
        ).length;
        return ok(response, { count });
      }
      default:
        throw new HttpError(404, `the fake Qdrant has no route ${method} ${url.pathname}`);
    }
  }

  let server: Server | undefined;
  let port = 0;

  async function listen(): Promise<void> {
    const next = createServer((request, response) => {
      handle(request, response).catch((error: unknown) => {
        if (error instanceof HttpError) fail(response, error.status, error.message);
        else fail(response, 500, error instanceof Error ? error.message : String(error));
      });
    });
    next.listen(port, '127.0.0.1');
    await once(next, 'listening');
    port = (next.address() as AddressInfo).port;
    server = next;
  }

  async function stop(): Promise<void> {
    const running = server;
    server = undefined;
    if (running === undefined) return;
    const closed = new Promise<void>((resolve) => running.close(() => resolve()));
    running.closeAllConnections();
    await closed;
  }

  await listen();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    collections,
    stop,
    start: () => (server === undefined ? listen() : Promise.resolve()),
    close: stop,
  };
}
