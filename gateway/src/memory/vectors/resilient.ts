/**
 * The spec's vector fallback (behaviour rule 3: "Vector store unreachable: in-memory cosine
 * similarity is used"). Calls go to the primary (Qdrant) while it answers. The first failure
 * switches to the fallback (the in-memory index) with one warning, and the call is served
 * there: no backend error reaches the caller. While degraded, the primary is probed every
 * `probeIntervalMs` (an unref'd timer); once it answers, the store switches back with one info
 * log. Caller errors (a vector of the wrong dimension, a bad id) reject as usual and never
 * switch stores.
 *
 * Keeping the two in step:
 * - The in-memory index is empty until something fills it. Pass `warmFallback` (for example:
 *   page through `LongTermMemory.embeddings()` and upsert into the given store) and it is run,
 *   in the background, the first time a call is served by the fallback (that call sees the
 *   index as far as it is filled). From then on every write is
 *   mirrored to the fallback too, so it stays ready for the next outage. Without
 *   `warmFallback`, the fallback only holds what was written during outages.
 * - Upserts and removes made during an outage are replayed on the primary before switching
 *   back, so Qdrant does not miss them (at most `maxPendingWrites` ids are remembered; beyond
 *   that a warning says Qdrant may lack some vectors until they are written again).
 */
import type { Logger } from '../../observability/logger.ts';
import type { VectorPoint, VectorStore } from '../ports.ts';
import { assertPoints, assertVector } from './rules.ts';
import { createFailover } from '../../lifecycle/failover.ts';

export interface ResilientVectorOptions {
  /** The preferred store, normally Qdrant. */
  primary: VectorStore;
  /** Used while the primary fails, normally the in-memory index. */
  fallback: VectorStore;
  logger: Logger;
  /** Called with the kind now in use, each time it changes. */
  onChange?: (kind: VectorStore['kind']) => void;
  /** How often the primary is probed while degraded; default 5,000 ms. */
  probeIntervalMs?: number;
  /** Fills the fallback the first time it is needed (see the header). */
  warmFallback?: (fallback: VectorStore) => Promise<void>;
  /** Outage writes remembered for replay; default 10,000 ids. */
  maxPendingWrites?: number;
  /** How long the first probe may take before the store starts degraded; default 1,000 ms. */
  initialProbeMs?: number;
}

const REPLAY_BATCH = 256;

/**
 * Resolves once the primary has been probed (for at most `initialProbeMs`), so `kind` is right
 * from the start. Never rejects because the primary is down; a primary that answers only later
 * is picked up by the regular probe.
 */
export async function createResilientVectorStore(
  options: ResilientVectorOptions,
): Promise<VectorStore> {
  const { primary, fallback, logger } = options;
  if (primary.dimensions !== fallback.dimensions) {
    throw new RangeError(
      `the vector stores disagree on dimensions: ${primary.kind} ${primary.dimensions}, ` +
        `${fallback.kind} ${fallback.dimensions}`,
    );
  }
  const { dimensions } = primary;
  const maxPendingWrites = options.maxPendingWrites ?? 10_000;

  /** True once the fallback holds the full index and is kept in step with every write. */
  let mirroring = false;
  let warming: Promise<void> | undefined;
  let warmFailed = false;
  /** Outage writes for the primary: the point to upsert, or null for a removal. */
  const pending = new Map<number, VectorPoint | null>();
  let droppedWrites = false;

  const message = (error: unknown): string =>
    error instanceof Error ? error.message : String(error);

  function warm(): void {
    if (warming !== undefined || options.warmFallback === undefined) return;
    const started = performance.now();
    warming = options
      .warmFallback(fallback)
      .then(async () => {
        mirroring = true;
        logger.info(
          { count: await fallback.count(), ms: Math.round(performance.now() - started) },
          `filled the ${fallback.kind} vector index`,
        );
      })
      .catch((error: unknown) => {
        // Not retried during this outage (no warning per call); the next outage tries again.
        warmFailed = true;
        logger.warn({ err: message(error) }, `could not fill the ${fallback.kind} vector index`);
      });
  }

  function remember(id: number, point: VectorPoint | null): void {
    pending.delete(id);
    pending.set(id, point);
    if (pending.size <= maxPendingWrites) return;
    const oldest = pending.keys().next();
    if (!oldest.done) pending.delete(oldest.value);
    if (!droppedWrites) {
      droppedWrites = true;
      logger.warn(
        { maxPendingWrites },
        `too many vector writes during the outage; ${primary.kind} may lack some until they are written again`,
      );
    }
  }

  async function replayPending(): Promise<void> {
    while (pending.size > 0) {
      const upserts: VectorPoint[] = [];
      const removals: number[] = [];
      for (const [id, point] of pending) {
        if (point === null) removals.push(id);
        else upserts.push(point);
        if (upserts.length + removals.length >= REPLAY_BATCH) break;
      }
      if (removals.length > 0) await primary.remove(removals);
      if (upserts.length > 0) await primary.upsert(upserts);
      for (const id of removals) if (pending.get(id) === null) pending.delete(id);
      for (const point of upserts) if (pending.get(point.id) === point) pending.delete(point.id);
    }
  }

  let replayed = 0;
  const failover = createFailover({
    logger,
    probeIntervalMs: options.probeIntervalMs,
    recover: async () => {
      if (!(await primary.ping())) return false;
      replayed = pending.size;
      await replayPending();
      return true;
    },
    log: {
      degraded: {
        fields: { primary: primary.kind, fallback: fallback.kind },
        msg: `vector store (${primary.kind}) unreachable; using ${fallback.kind} cosine similarity until it answers again`,
      },
      recovered: () => ({
        fields: { primary: primary.kind, replayed },
        msg: `vector store (${primary.kind}) reachable again`,
      }),
      stillDown: 'vector store still unreachable',
    },
    onSwitch: (usingPrimary) => {
      if (usingPrimary) {
        droppedWrites = false;
        if (warmFailed) {
          warming = undefined;
          warmFailed = false;
        }
      }
      options.onChange?.(usingPrimary ? primary.kind : fallback.kind);
    },
  });

  function route<T>(onPrimary: () => Promise<T>, onFallback: () => Promise<T>): Promise<T> {
    if (failover.closed) return Promise.reject(new Error('the vector store is closed'));
    return failover.route(onPrimary, () => {
      // Filled on first use rather than on the switch, so warmFallback may depend on things
      // built after this store (the memory service, say).
      warm();
      return onFallback();
    });
  }

  /** Validation first, so a caller's mistake is a rejection and never a switch of stores. */
  function validated<T>(check: () => void, work: () => Promise<T>): Promise<T> {
    try {
      check();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return work();
  }

  await failover.probeAtStart(primary, options.initialProbeMs);

  return {
    get kind() {
      return failover.usingPrimary ? primary.kind : fallback.kind;
    },
    dimensions,

    upsert(points) {
      return validated(
        () => assertPoints(points, dimensions),
        () =>
          route(
            async () => {
              await primary.upsert(points);
              if (mirroring) await fallback.upsert(points);
            },
            async () => {
              await fallback.upsert(points);
              for (const point of points) {
                remember(point.id, { ...point, vector: Float32Array.from(point.vector) });
              }
            },
          ),
      );
    },

    search(vector, topK, sessionId) {
      return validated(
        () => assertVector(vector, dimensions, 'the query vector'),
        () =>
          route(
            () => primary.search(vector, topK, sessionId),
            () => fallback.search(vector, topK, sessionId),
          ),
      );
    },

    remove(ids) {
      return route(
        async () => {
          await primary.remove(ids);
          if (mirroring) await fallback.remove(ids);
        },
        async () => {
          await fallback.remove(ids);
          for (const id of ids) if (Number.isSafeInteger(id)) remember(id, null);
        },
      );
    },

    count() {
      return route(
        () => primary.count(),
        () => fallback.count(),
      );
    },

    /** True while open: with the fallback, the store as a whole always works (see `kind`). */
    ping() {
      return Promise.resolve(!failover.closed);
    },

    async close() {
      if (failover.closed) return;
      failover.close();
      await warming;
      await Promise.all([primary.close(), fallback.close()]);
    },
  };
}
