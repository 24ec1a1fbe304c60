/** Checks every vector adapter applies the same way, with the same messages. */
import type { VectorPoint } from '../ports.ts';

export function assertDimensions(dimensions: number): void {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 65_536) {
    throw new RangeError(`vector dimensions must be an integer from 1 to 65536, got ${dimensions}`);
  }
}

/** Rejects a vector of the wrong length or with a NaN/infinite component. */
export function assertVector(vector: Float32Array, dimensions: number, what: string): void {
  if (vector.length !== dimensions) {
    throw new RangeError(
      `dimension mismatch: ${what} has ${vector.length} dimensions, this store holds ` +
        `${dimensions}-dimensional vectors (was the embedding model changed?)`,
    );
  }
  for (let i = 0; i < vector.length; i += 1) {
    if (!Number.isFinite(vector[i])) {
      throw new RangeError(`${what} has a non-finite component at index ${i}`);
    }
  }
}

/** Checks a whole batch before anything is written, so a bad point stores nothing. */
export function assertPoints(points: readonly VectorPoint[], dimensions: number): void {
  for (const point of points) {
    if (!Number.isSafeInteger(point.id)) {
      throw new RangeError(`a vector point id must be a safe integer, got ${point.id}`);
    }
    assertVector(point.vector, dimensions, `the vector of point ${point.id}`);
  }
}

/** `topK` as a whole number of hits, 0 for anything not positive. */
export function normaliseTopK(topK: number): number {
  if (Number.isNaN(topK) || topK <= 0) return 0;
  return topK === Infinity ? Number.MAX_SAFE_INTEGER : Math.floor(topK);
}
