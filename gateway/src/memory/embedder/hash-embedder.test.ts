import { describe, expect, it } from 'vitest';
import { cosineSimilarity, createHashEmbedder, hashEmbed } from './hash-embedder.ts';

describe('hash embedder (test double)', () => {
  it('is available at once, with the configured width and unit-length vectors', async () => {
    const embedder = createHashEmbedder({ dimensions: 32 });
    expect(embedder.state).toBe('available');
    expect(embedder.detail).toBeNull();
    const [vector] = await embedder.embed(['Memory in the gateway']);
    expect(vector).toHaveLength(32);
    expect(Math.hypot(...vector!)).toBeCloseTo(1, 6);
    expect(embedder.embeddedCount).toBe(1);
  });

  it('is deterministic and ignores case and punctuation', () => {
    expect(Array.from(hashEmbed('The cat, sat!', 64))).toEqual(
      Array.from(hashEmbed('the CAT sat', 64)),
    );
  });

  it('ranks texts sharing words above unrelated ones', async () => {
    const [query, related, unrelated] = await createHashEmbedder().embed([
      'where did I park the blue car',
      'I parked the blue car near the station',
      'recipe for lemon cake',
    ]);
    expect(cosineSimilarity(query!, related!)).toBeGreaterThan(
      cosineSimilarity(query!, unrelated!),
    );
  });

  it('gives a zero vector for text without words and rejects a bad width', () => {
    expect(Array.from(hashEmbed('?!', 8))).toEqual(Array<number>(8).fill(0));
    expect(() => createHashEmbedder({ dimensions: 0 })).toThrow(RangeError);
  });
});
