import { describe, expect, it } from 'vitest';
import { foldAscii, foldedScopeCache, matchFolded } from './folded-scopes.ts';

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

describe('matchFolded', () => {
  const scope = { ids: [9, 7, 5, 3, 1], folded: ['a garden', 'tea', 'garden tea', 'x', 'garden'] };

  it("keeps each needle's first matches, newest first, up to the limit", () => {
    expect(matchFolded(scope, ['garden', 'tea', 'absent'], 2)).toStrictEqual([[9, 5], [7, 5], []]);
    expect(matchFolded(scope, ['garden', 'garden'], 10)).toStrictEqual([
      [9, 5, 1],
      [9, 5, 1],
    ]);
    expect(matchFolded(scope, ['', 'x'], 1)).toStrictEqual([[9], [3]]);
  });
});

describe('foldedScopeCache', () => {
  const rows = (count: number, text = 'row'): [number, string][] =>
    Array.from({ length: count }, (_, index) => [count - index, `${text} ${index}`]);

  it('answers only for the signature it was filled with', () => {
    const cache = foldedScopeCache();
    cache.set('s', { rows: 2, newestId: 2 }, rows(2, 'Garden'));
    expect(cache.get('s', { rows: 2, newestId: 2 })?.folded).toStrictEqual([
      'garden 0',
      'garden 1',
    ]);
    // A row more, or another newest row: the scope changed, and the entry is dropped.
    expect(cache.get('s', { rows: 3, newestId: 3 })).toBeUndefined();
    expect(cache.get('s', { rows: 2, newestId: 2 })).toBeUndefined();
    expect(cache.size).toStrictEqual({ scopes: 0, chars: 0 });
  });

  it('keeps at most its scopes and characters, dropping the least recently used', () => {
    const cache = foldedScopeCache({ maxScopes: 2, maxChars: 40 });
    const one = { rows: 2, newestId: 2 };
    cache.set('a', one, rows(2));
    cache.set('b', one, rows(2));
    cache.get('a', one);
    cache.set('c', one, rows(2));
    expect(cache.get('b', one)).toBeUndefined();
    expect(cache.get('a', one)).toBeDefined();
    expect(cache.get('c', one)).toBeDefined();
    // Too large on its own: answered, not kept.
    const big = cache.set('d', { rows: 9, newestId: 9 }, rows(9, 'a longer row text'));
    expect(big.ids).toHaveLength(9);
    expect(cache.get('d', { rows: 9, newestId: 9 })).toBeUndefined();
    expect(cache.size.chars).toBeLessThanOrEqual(40);
    cache.clear();
    expect(cache.size).toStrictEqual({ scopes: 0, chars: 0 });
  });
});
