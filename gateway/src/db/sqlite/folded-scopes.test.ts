import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../../memory/ports.ts';
import { foldAscii, foldedScopeCache, matchFolded, mergeNewestFirst } from './folded-scopes.ts';

describe('foldAscii: a content as SQLite LIKE compares it with an ASCII pattern', () => {
  it('folds ASCII capitals only, and ends the text at its first NUL', () => {
    expect(foldAscii('Green TEA in the Garden')).toBe('green tea in the garden');
    expect(foldAscii('Kelvin \u212A and K')).toBe('kelvin \u212A and k');
    expect(foldAscii('İSTANBUL Über ÉTÉ')).toBe('İstanbul Über ÉtÉ');
    expect(foldAscii('ΟΔΟΣ Garden')).toBe('ΟΔΟΣ garden');
    expect(foldAscii('before\0AFTER')).toBe('before');
    expect(foldAscii('\0')).toBe('');
    expect(foldAscii('')).toBe('');
  });
});

const entry = (id: number, content: string): MemoryEntry => ({
  id,
  session_id: 's',
  content,
  content_hash: `h${id}`,
  importance_score: 0.5,
  tags: ['kept'],
  type: 'turn',
  created_at: id,
  updated_at: id,
  origin: { trust: 'untrusted', sources: [{ kind: 'browser', name: 'example.org' }] },
});
/** Entries, newest (highest id) first. */
const entries = (count: number, text = 'row'): MemoryEntry[] =>
  Array.from({ length: count }, (_, index) => entry(count - index, `${text} ${index}`));

describe('matchFolded', () => {
  const contents = ['a Garden', 'tea', 'garden TEA', 'x', 'garden'];
  const scope = foldedScopeCache().set(
    's',
    { rows: 5, newestId: 9 },
    contents.map((content, index) => entry(9 - 2 * index, content)),
  );
  const ids = (lists: MemoryEntry[][]) => lists.map((list) => list.map((found) => found.id));

  it("keeps each needle's first matches, newest first, up to the limit", () => {
    expect(ids(matchFolded(scope, ['garden', 'tea', 'absent'], 2))).toStrictEqual([
      [9, 5],
      [7, 5],
      [],
    ]);
    expect(ids(matchFolded(scope, ['garden', 'garden'], 10))).toStrictEqual([
      [9, 5, 1],
      [9, 5, 1],
    ]);
    expect(ids(matchFolded(scope, ['', 'x'], 1))).toStrictEqual([[9], [3]]);
  });

  it('hands out copies: what a caller changes does not reach the kept entries', () => {
    const [[found]] = matchFolded(scope, ['tea'], 1) as [[MemoryEntry]];
    expect(found).toStrictEqual(scope.entries[1]);
    found.tags.push('changed');
    (found.origin.sources[0] as { name: string }).name = 'changed';
    found.content = 'changed';
    expect(scope.entries[1]).toStrictEqual(entry(7, 'tea'));
  });
});

describe('foldedScopeCache', () => {
  it('answers only for the signature it was filled with', () => {
    const cache = foldedScopeCache();
    cache.set('s', { rows: 2, newestId: 2 }, entries(2, 'Garden'));
    expect(cache.get('s', { rows: 2, newestId: 2 })?.folded).toStrictEqual([
      'garden 0',
      'garden 1',
    ]);
    // A row more, or another newest row: the scope changed; what is kept is only `kept`.
    expect(cache.get('s', { rows: 3, newestId: 3 })).toBeUndefined();
    expect(cache.get('s', { rows: 2, newestId: 3 })).toBeUndefined();
    expect(cache.kept('s')).toMatchObject({ rows: 2, newestId: 2 });
    cache.delete('s');
    expect(cache.kept('s')).toBeUndefined();
    expect(cache.size).toStrictEqual({ scopes: 0, chars: 0 });
  });

  it('keeps at most its scopes and characters, dropping the least recently used', () => {
    const cache = foldedScopeCache({ maxScopes: 2, maxChars: 1_000 });
    const one = { rows: 2, newestId: 2 };
    cache.set('a', one, entries(2));
    cache.set('b', one, entries(2));
    cache.get('a', one);
    cache.set('c', one, entries(2));
    expect(cache.get('b', one)).toBeUndefined();
    expect(cache.get('a', one)).toBeDefined();
    expect(cache.get('c', one)).toBeDefined();
    // Too large on its own: answered, not kept.
    const big = cache.set('d', { rows: 9, newestId: 9 }, entries(9, 'a longer row text'));
    expect(big.entries).toHaveLength(9);
    expect(cache.get('d', { rows: 9, newestId: 9 })).toBeUndefined();
    expect(cache.size.chars).toBeLessThanOrEqual(1_000);
    // Many empty rows count too: an entry is more than its content.
    const empty = Array.from({ length: 10 }, (_, index) => entry(10 - index, ''));
    cache.set('e', { rows: 10, newestId: 10 }, empty);
    expect(cache.kept('e')).toBeUndefined();
    cache.clear();
    expect(cache.size).toStrictEqual({ scopes: 0, chars: 0 });
  });
});

describe('mergeNewestFirst', () => {
  const at = (id: number, created: number): MemoryEntry => ({
    ...entry(id, 'x'),
    created_at: created,
  });
  const ids = (list: readonly MemoryEntry[]) => list.map((found) => found.id);

  it('orders by created_at, then id, both descending', () => {
    const added = [at(9, 50), at(8, 10), at(7, 10)];
    const kept = [at(6, 40), at(5, 10), at(2, 10), at(1, 5)];
    expect(ids(mergeNewestFirst(added, kept))).toStrictEqual([9, 6, 8, 7, 5, 2, 1]);
    expect(ids(mergeNewestFirst([], kept))).toStrictEqual([6, 5, 2, 1]);
    expect(ids(mergeNewestFirst(added, []))).toStrictEqual([9, 8, 7]);
  });
});
