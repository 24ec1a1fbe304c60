/**
 * The Qdrant vector tier (`[memory] vector_store_url`), on `@qdrant/js-client-rest`.
 *
 * - The collection (default `hearth_memory`) is created on first use with cosine distance and
 *   the embedder's dimension, plus a keyword index on `session_id`. An existing collection
 *   with another size or distance is a configuration error: every call rejects with a message
 *   that says so, and `ping()` answers false (so the resilient store stays on the in-memory
 *   index instead of flapping).
 * - Each point's payload holds `session_id`; a search for one session filters on it.
 * - Ids: Qdrant accepts unsigned integers and UUIDs only. Long-term ids (≥ 0) are sent as they
 *   are. Negative ids (short-term-only items) are mapped to the UUID
 *   `00000000-0000-0000-HHHH-HHHHHHHHHHHH` where the 16 hex digits are −id, and mapped back on
 *   the way out; no long-term id can collide with them.
 * - Writes wait for Qdrant to apply them (`wait: true`), so a search right after an upsert
 *   sees it. Requests time out after `timeoutMs`.
 */
import { QdrantClient, type Schemas } from '@qdrant/js-client-rest';
import type { Logger } from '../../observability/logger.ts';
import type { VectorHit, VectorPoint, VectorStore } from '../ports.ts';
import { assertDimensions, assertPoints, assertVector, normaliseTopK } from './rules.ts';

export interface QdrantVectorOptions {
  /** `http(s)://host:6333`, a path prefix allowed. */
  url: string;
  /** Default `hearth_memory`. */
  collection?: string;
  /** The embedder's dimension. */
  dimensions: number;
  logger: Logger;
  /** Per request; default 5,000 ms. */
  timeoutMs?: number;
}

/** Points per upsert request. */
const UPSERT_BATCH = 256;
/** Ids per delete request. */
const DELETE_BATCH = 1_000;
/** The most hits one search asks Qdrant for. */
export const MAX_QDRANT_HITS = 10_000;

const NEGATIVE_ID = /^00000000-0000-0000-([0-9a-f]{4})-([0-9a-f]{12})$/i;

/** A port id as a Qdrant point id (see the header for negative ids). */
export function toQdrantId(id: number): number | string {
  if (id >= 0) return id;
  const hex = (-id).toString(16).padStart(16, '0');
  return `00000000-0000-0000-${hex.slice(0, 4)}-${hex.slice(4)}`;
}

/** A Qdrant point id back as the port id; undefined for ids Hearth did not write. */
export function fromQdrantId(id: unknown): number | undefined {
  if (typeof id === 'number') return Number.isSafeInteger(id) ? id : undefined;
  if (typeof id !== 'string') return undefined;
  const match = NEGATIVE_ID.exec(id);
  if (match === null) return undefined;
  const magnitude = Number.parseInt(`${match[1]}${match[2]}`, 16);
  return Number.isSafeInteger(magnitude) && magnitude > 0 ? -magnitude : undefined;
}

/** The server a URL points at, without credentials (for logs and errors). */
export function describeQdrantUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return '(invalid Qdrant URL)';
  }
}

/** A clear message for a failed request, with the HTTP status when there was one. */
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const status = (error as { status?: unknown }).status;
  const data = (error as { data?: { status?: { error?: unknown } } }).data;
  const detail = typeof data?.status?.error === 'string' ? `: ${data.status.error}` : '';
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return typeof status === 'number' ? `HTTP ${status}${detail}` : `${error.message}${cause}`;
}

export function createQdrantVectorStore(options: QdrantVectorOptions): VectorStore {
  const { dimensions, logger } = options;
  assertDimensions(dimensions);
  const collection = options.collection ?? 'hearth_memory';
  const server = describeQdrantUrl(options.url);
  // checkCompatibility would print to the console; the version is not needed for these calls.
  const client = new QdrantClient({
    url: options.url,
    timeout: options.timeoutMs ?? 5_000,
    checkCompatibility: false,
  });

  let closed = false;
  let ready: Promise<void> | undefined;
  /** Set when the collection exists with a shape this store cannot use. */
  let misconfigured: string | undefined;

  async function request<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw new Error(`qdrant at ${server}: ${what} failed: ${describeFailure(error)}`, {
        cause: error,
      });
    }
  }

  async function createCollection(): Promise<void> {
    try {
      await request('creating collection', () =>
        client.createCollection(collection, { vectors: { size: dimensions, distance: 'Cosine' } }),
      );
    } catch (error) {
      // Another gateway may have created it at the same moment.
      const { exists } = await client.collectionExists(collection);
      if (!exists) throw error;
      return;
    }
    logger.info({ server, collection, dimensions }, 'created the qdrant collection');
    try {
      await client.createPayloadIndex(collection, {
        field_name: 'session_id',
        field_schema: 'keyword',
        wait: true,
      });
    } catch (error) {
      logger.warn(
        { server, collection, err: describeFailure(error) },
        'could not index session_id in qdrant; filtered searches will be slower',
      );
    }
  }

  function checkShape(info: Schemas['CollectionInfo']): void {
    const vectors = info.config.params.vectors;
    const params =
      vectors !== undefined && 'size' in vectors ? (vectors as Schemas['VectorParams']) : undefined;
    if (params === undefined) {
      misconfigured = `qdrant collection ${collection} uses named vectors; Hearth needs one unnamed vector`;
    } else if (params.size !== dimensions || params.distance !== 'Cosine') {
      misconfigured =
        `qdrant collection ${collection} holds ${params.size}-dimensional ${params.distance} vectors; ` +
        `the embedder produces ${dimensions}-dimensional vectors for Cosine distance ` +
        `(drop the collection or use another one)`;
    }
    if (misconfigured !== undefined) {
      logger.error({ server, collection }, misconfigured);
      throw new Error(misconfigured);
    }
  }

  async function prepare(): Promise<void> {
    const { exists } = await request('checking the collection', () =>
      client.collectionExists(collection),
    );
    if (!exists) {
      await createCollection();
      return;
    }
    checkShape(await request('reading the collection', () => client.getCollection(collection)));
  }

  /** Makes sure the collection exists with the right shape; retried after a failure. */
  function ensureReady(): Promise<void> {
    if (closed) return Promise.reject(new Error('the qdrant vector store is closed'));
    if (misconfigured !== undefined) return Promise.reject(new Error(misconfigured));
    ready ??= prepare().catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  }

  return {
    kind: 'qdrant',
    dimensions,

    async upsert(points: readonly VectorPoint[]) {
      assertPoints(points, dimensions);
      if (points.length === 0) return;
      await ensureReady();
      // One point per id, the last one given (as if upserted one after another).
      const unique = [...new Map(points.map((point) => [point.id, point])).values()];
      for (let start = 0; start < unique.length; start += UPSERT_BATCH) {
        const batch = unique.slice(start, start + UPSERT_BATCH).map((point) => ({
          id: toQdrantId(point.id),
          vector: Array.from(point.vector),
          payload: { session_id: point.sessionId },
        }));
        await request('upsert', () => client.upsert(collection, { wait: true, points: batch }));
      }
    },

    async search(vector: Float32Array, topK: number, sessionId?: string): Promise<VectorHit[]> {
      assertVector(vector, dimensions, 'the query vector');
      const limit = Math.min(normaliseTopK(topK), MAX_QDRANT_HITS);
      if (limit === 0) return [];
      await ensureReady();
      const filter: Schemas['Filter'] | undefined =
        sessionId === undefined
          ? undefined
          : { must: [{ key: 'session_id', match: { value: sessionId } }] };
      const result = await request('search', () =>
        client.query(collection, {
          query: Array.from(vector),
          limit,
          filter,
          with_payload: false,
          with_vector: false,
        }),
      );
      const hits: VectorHit[] = [];
      for (const point of result.points) {
        const id = fromQdrantId(point.id);
        if (id === undefined) continue;
        hits.push({ id, score: Math.max(-1, Math.min(1, point.score)) });
      }
      return hits.sort((a, b) => b.score - a.score || a.id - b.id);
    },

    async remove(ids: readonly number[]) {
      const valid = ids.filter((id) => Number.isSafeInteger(id)).map(toQdrantId);
      if (valid.length === 0) return;
      await ensureReady();
      for (let start = 0; start < valid.length; start += DELETE_BATCH) {
        const batch = valid.slice(start, start + DELETE_BATCH);
        await request('delete', () => client.delete(collection, { wait: true, points: batch }));
      }
    },

    async count() {
      await ensureReady();
      const result = await request('count', () => client.count(collection, { exact: true }));
      return result.count;
    },

    async ping() {
      if (closed || misconfigured !== undefined) return false;
      try {
        await ensureReady();
        const { exists } = await client.collectionExists(collection);
        // Deleted behind our back: create it again on the next call.
        if (!exists) ready = undefined;
        return true;
      } catch {
        return false;
      }
    },

    close() {
      closed = true;
      return Promise.resolve();
    },
  };
}
