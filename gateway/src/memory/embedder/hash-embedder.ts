/**
 * TEST DOUBLE. A deterministic embedder for ranking, deduplication and vector-store tests:
 * each lower-cased word (letters and digits) is hashed into one of `dimensions` buckets with
 * a ± sign, and the counts are L2-normalised. Texts that share words are therefore more
 * similar than texts that do not, with no model and no randomness.
 *
 * It has no notion of meaning and must never be wired in production, not even as a
 * fallback: when the real model is unavailable the specification's fallback is to skip
 * semantic search for the turn (`Embedder.state` 'unavailable'), not to embed badly.
 */
import { createHash } from 'node:crypto';
import type { Embedder } from './port.ts';

export interface HashEmbedderOptions {
  /** Vector width; default 64. */
  dimensions?: number;
}

export interface HashEmbedder extends Embedder {
  /** How many texts have been embedded (tests assert on call volume). */
  readonly embeddedCount: number;
}

export function createHashEmbedder(options: HashEmbedderOptions = {}): HashEmbedder {
  const dimensions = options.dimensions ?? 64;
  if (!Number.isInteger(dimensions) || dimensions < 1) {
    throw new RangeError(`dimensions must be a positive integer, got ${dimensions}`);
  }
  let embeddedCount = 0;
  return {
    state: 'available',
    detail: null,
    dimensions,
    get embeddedCount() {
      return embeddedCount;
    },
    embed(texts) {
      embeddedCount += texts.length;
      return Promise.resolve(texts.map((text) => hashEmbed(text, dimensions)));
    },
  };
}

/** The hashed bag-of-words vector of one text (zero vector when it has no words). */
export function hashEmbed(text: string, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const digest = createHash('sha256').update(word).digest();
    const bucket = digest.readUInt32LE(0) % dimensions;
    const sign = (digest[4] ?? 0) & 1 ? -1 : 1;
    vector[bucket] = (vector[bucket] ?? 0) + sign;
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm);
    for (let index = 0; index < dimensions; index += 1)
      vector[index] = (vector[index] ?? 0) * scale;
  }
  return vector;
}

/** Cosine similarity of two vectors of the same width (dot product when both are unit length). */
export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new RangeError(`width mismatch: ${a.length} vs ${b.length}`);
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index += 1) {
    const x = a[index] ?? 0;
    const y = b[index] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}
