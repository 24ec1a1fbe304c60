/**
 * The in-memory cosine index: the vector tier without Qdrant, and its fallback while Qdrant is
 * unreachable (behaviour rule 3). It is rebuilt from the long-term store at start.
 *
 * Layout: vectors are normalised on insert and kept in ONE growable block (a
 * `WebAssembly.Memory`, capacity doubling), each row padded with zeros to a multiple of 16
 * floats; ids sit in a parallel `Float64Array`, session ids as small integers in a parallel
 * `Uint32Array` (a Map turns session strings into those integers). Cosine similarity is then a
 * dot product with the normalised query.
 *
 * Search is one pass of dot products (dot-kernel.ts: WebAssembly SIMD, or plain JavaScript)
 * over all rows, or over the session's rows when filtered, followed by a bounded top-k
 * selection (a binary min-heap of size k): nothing per query is proportional to the index but
 * the scores buffer, which is allocated once with the index. Ties in score go to the lower id.
 * Remove swaps the last row into the hole; upserting an existing id overwrites its row.
 */
import type { VectorHit, VectorPoint, VectorStore } from '../ports.ts';
import {
  createRowMemory,
  jsKernel,
  PAGE_BYTES,
  strideOf,
  wasmKernel,
  type DotKernel,
} from './dot-kernel.ts';
import { assertDimensions, assertPoints, assertVector, normaliseTopK } from './rules.ts';

export interface InMemoryVectorOptions {
  /** Rows reserved up front; default 1,024 (the block doubles when full). */
  initialCapacity?: number;
  /** 'auto' (default) uses WebAssembly SIMD where available; 'js' forces the plain kernel. */
  kernel?: 'auto' | 'js';
}

export interface InMemoryVectorStore extends VectorStore {
  readonly kind: 'in-memory';
  /** Which dot-product kernel this index runs. */
  readonly kernel: DotKernel['name'];
}

export function createInMemoryVectorStore(
  dimensions: number,
  options: InMemoryVectorOptions = {},
): InMemoryVectorStore {
  assertDimensions(dimensions);
  const stride = strideOf(dimensions);
  const strideBytes = stride * 4;
  /** Byte offsets in the memory: the query row first, then the rows, then scratch space. */
  const QUERY = 0;
  const DATA = strideBytes;

  let capacity = Math.max(16, Math.floor(options.initialCapacity ?? 1_024));
  const bytesFor = (rows: number): number => DATA + rows * strideBytes + rows * 8;
  const memory = createRowMemory(Math.ceil(bytesFor(capacity) / PAGE_BYTES));
  const kernel: DotKernel =
    (options.kernel === 'js' ? undefined : wasmKernel(memory)) ?? jsKernel(memory);
  let f32 = new Float32Array(memory.buffer);
  let i32 = new Int32Array(memory.buffer);
  /** Scores of the last search, then the slots a filtered search visits. */
  const scoresAt = (): number => DATA + capacity * strideBytes;
  const listAt = (): number => scoresAt() + capacity * 4;

  let count = 0;
  let ids = new Float64Array(capacity);
  let sessionOf = new Uint32Array(capacity);
  const slotOf = new Map<number, number>();

  const sessionIndex = new Map<string, number>();
  const sessionNames: string[] = [];
  const sessionRows: number[] = [];
  const freeSessionIndexes: number[] = [];
  let closed = false;

  function assertOpen(): void {
    if (closed) throw new Error('the in-memory vector store is closed');
  }

  function ensureCapacity(rows: number): void {
    if (rows <= capacity) return;
    let next = capacity;
    while (next < rows) next *= 2;
    const missing = bytesFor(next) - memory.buffer.byteLength;
    if (missing > 0) memory.grow(Math.ceil(missing / PAGE_BYTES));
    f32 = new Float32Array(memory.buffer);
    i32 = new Int32Array(memory.buffer);
    const grownIds = new Float64Array(next);
    grownIds.set(ids.subarray(0, count));
    ids = grownIds;
    const grownSessions = new Uint32Array(next);
    grownSessions.set(sessionOf.subarray(0, count));
    sessionOf = grownSessions;
    capacity = next;
  }

  function acquireSession(sessionId: string): number {
    let index = sessionIndex.get(sessionId);
    if (index === undefined) {
      index = freeSessionIndexes.pop() ?? sessionRows.length;
      sessionIndex.set(sessionId, index);
      sessionNames[index] = sessionId;
      sessionRows[index] = 0;
    }
    sessionRows[index] = (sessionRows[index] ?? 0) + 1;
    return index;
  }

  function releaseSession(index: number): void {
    const left = (sessionRows[index] ?? 1) - 1;
    sessionRows[index] = left;
    if (left > 0) return;
    const sessionId = sessionNames[index];
    if (sessionId !== undefined) sessionIndex.delete(sessionId);
    freeSessionIndexes.push(index);
  }

  /** Writes `vector / |vector|` at float offset `base`, zero-padded to the stride. */
  function writeNormalised(base: number, vector: Float32Array): void {
    let squares = 0;
    for (let j = 0; j < dimensions; j += 1) squares += vector[j]! * vector[j]!;
    const scale = squares > 0 ? 1 / Math.sqrt(squares) : 0;
    for (let j = 0; j < dimensions; j += 1) f32[base + j] = vector[j]! * scale;
    f32.fill(0, base + dimensions, base + stride);
  }

  function upsertOne(point: VectorPoint): void {
    const session = acquireSession(point.sessionId);
    let slot = slotOf.get(point.id);
    if (slot === undefined) {
      ensureCapacity(count + 1);
      slot = count;
      count += 1;
      slotOf.set(point.id, slot);
      ids[slot] = point.id;
    } else {
      releaseSession(sessionOf[slot]!);
    }
    sessionOf[slot] = session;
    writeNormalised((DATA + slot * strideBytes) / 4, point.vector);
  }

  function removeOne(id: number): void {
    const slot = slotOf.get(id);
    if (slot === undefined) return;
    slotOf.delete(id);
    releaseSession(sessionOf[slot]!);
    const last = count - 1;
    if (slot !== last) {
      const from = (DATA + last * strideBytes) / 4;
      f32.copyWithin((DATA + slot * strideBytes) / 4, from, from + stride);
      ids[slot] = ids[last]!;
      sessionOf[slot] = sessionOf[last]!;
      slotOf.set(ids[slot], slot);
    }
    count = last;
  }

  function search(vector: Float32Array, topK: number, sessionId?: string): VectorHit[] {
    assertOpen();
    assertVector(vector, dimensions, 'the query vector');
    const wanted = normaliseTopK(topK);
    if (wanted === 0 || count === 0) return [];

    let candidates = count;
    let filtered = false;
    if (sessionId !== undefined) {
      const session = sessionIndex.get(sessionId);
      if (session === undefined) return [];
      candidates = sessionRows[session] ?? 0;
      filtered = candidates < count;
      if (filtered) {
        const list = listAt() / 4;
        let n = 0;
        for (let slot = 0; slot < count; slot += 1) {
          if (sessionOf[slot] === session) i32[list + n++] = slot;
        }
      }
    }

    writeNormalised(QUERY / 4, vector);
    if (filtered) kernel.gather(QUERY, DATA, listAt(), candidates, strideBytes, scoresAt());
    else kernel.scan(QUERY, DATA, count, strideBytes, scoresAt());

    return selectTopK(Math.min(wanted, candidates), candidates, filtered);
  }

  /** The best `k` of the `n` scores just computed, best first (higher score, then lower id). */
  function selectTopK(k: number, n: number, filtered: boolean): VectorHit[] {
    const scores = scoresAt() / 4;
    const list = listAt() / 4;
    const heapScore = new Float64Array(k);
    const heapId = new Float64Array(k);
    let size = 0;
    // a is worse than b: lower score, or the same score and a higher id.
    const worse = (sa: number, ia: number, sb: number, ib: number): boolean =>
      sa < sb || (sa === sb && ia > ib);

    for (let i = 0; i < n; i += 1) {
      const score = f32[scores + i]!;
      if (size === k && score < heapScore[0]!) continue;
      const id = ids[filtered ? i32[list + i]! : i]!;
      if (size < k) {
        // sift up
        let at = size++;
        while (at > 0) {
          const parent = (at - 1) >> 1;
          if (!worse(score, id, heapScore[parent]!, heapId[parent]!)) break;
          heapScore[at] = heapScore[parent]!;
          heapId[at] = heapId[parent]!;
          at = parent;
        }
        heapScore[at] = score;
        heapId[at] = id;
      } else if (worse(heapScore[0]!, heapId[0]!, score, id)) {
        // replace the worst, sift down
        let at = 0;
        for (;;) {
          const left = 2 * at + 1;
          if (left >= k) break;
          const right = left + 1;
          const child =
            right < k && worse(heapScore[right]!, heapId[right]!, heapScore[left]!, heapId[left]!)
              ? right
              : left;
          if (!worse(heapScore[child]!, heapId[child]!, score, id)) break;
          heapScore[at] = heapScore[child]!;
          heapId[at] = heapId[child]!;
          at = child;
        }
        heapScore[at] = score;
        heapId[at] = id;
      }
    }

    const hits: VectorHit[] = [];
    for (let i = 0; i < size; i += 1) {
      hits.push({ id: heapId[i]!, score: Math.max(-1, Math.min(1, heapScore[i]!)) });
    }
    return hits.sort((a, b) => b.score - a.score || a.id - b.id);
  }

  return {
    kind: 'in-memory',
    dimensions,
    kernel: kernel.name,

    upsert: (points) =>
      settle(() => {
        assertOpen();
        assertPoints(points, dimensions);
        for (const point of points) upsertOne(point);
      }),

    search: (vector, topK, sessionId) => settle(() => search(vector, topK, sessionId)),

    remove: (removeIds) =>
      settle(() => {
        assertOpen();
        for (const id of removeIds) removeOne(id);
      }),

    count: () =>
      settle(() => {
        assertOpen();
        return count;
      }),

    ping: () => Promise.resolve(!closed),

    close() {
      closed = true;
      slotOf.clear();
      sessionIndex.clear();
      count = 0;
      return Promise.resolve();
    },
  };
}

/** Runs synchronous work as a promise: a throw becomes a rejection. */
function settle<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
