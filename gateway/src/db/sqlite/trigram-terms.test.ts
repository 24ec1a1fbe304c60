import { describe, expect, it } from 'vitest';
import { LAST_CASED_POINT, trigramLookup } from './trigram-terms.ts';

const matchOf = (query: string, fold: 'ascii' | 'unicode'): string | undefined =>
  trigramLookup(query, fold)?.match;

describe('trigramLookup', () => {
  it('looks up every trigram of the query, each quoted, each once', () => {
    expect(matchOf('Coffee', 'ascii')).toBe('"Cof" "off" "ffe" "fee"');
    expect(matchOf('abc', 'ascii')).toBe('"abc"');
    expect(matchOf('aaaa', 'ascii')).toBe('"aaa"');
    expect(matchOf('a "b"', 'ascii')).toBe('"a """ " ""b" """b"""');
    expect(matchOf('Über', 'unicode')).toBe('"übe" "ber"');
  });

  it('gives the terms as FTS5 stores them, for its vocabulary table', () => {
    expect(trigramLookup('CoFfee', 'ascii')?.terms).toStrictEqual(['cof', 'off', 'ffe', 'fee']);
    expect(trigramLookup('ΟΔΟΣ', 'unicode')?.terms).toStrictEqual(['οδο', 'δοσ']);
  });

  it('keeps at most 32 terms of a long query, spread over it', () => {
    const query = Array.from({ length: 200 }, (_, index) => String(index).padStart(3, '0')).join(
      '',
    );
    const lookup = trigramLookup(query, 'ascii');
    expect(lookup?.terms).toHaveLength(32);
    expect(lookup?.terms[0]).toBe('000');
    expect(lookup?.terms.at(-1)).toBe(query.slice(-3));
  });

  it('has nothing for the index under three characters', () => {
    expect(trigramLookup('', 'ascii')).toBeUndefined();
    expect(trigramLookup('ab', 'ascii')).toBeUndefined();
    expect(trigramLookup('ét', 'unicode')).toBeUndefined();
    expect(trigramLookup('🔥🔥', 'unicode')).toBeUndefined();
    expect(matchOf('🔥🔥🔥', 'unicode')).toBe('"🔥🔥🔥"');
  });

  it('leaves out NUL and lone surrogates', () => {
    expect(matchOf('ab\0cdef', 'ascii')).toBe('"cde" "def"');
    expect(trigramLookup('ab\0cd', 'ascii')).toBeUndefined();
    expect(matchOf('é\uD800abcd', 'unicode')).toBe('"abc" "bcd"');
  });

  it('leaves out letters whose capitals FTS5 does not fold as JavaScript does', () => {
    // Cherokee: toLowerCase() maps Ꮳ (U+13E3) to ꮳ (U+ABB3); FTS5 folds neither.
    expect(trigramLookup('ꮳꮃꭹ', 'unicode')).toBeUndefined();
    expect(trigramLookup('ᏣᎳᎩ', 'unicode')).toBeUndefined();
    expect(matchOf('ᏣᎳᎩ tsalagi', 'unicode')).toBe('" ts" "tsa" "sal" "ala" "lag"');
    // Georgian Mtavruli capitals (Unicode 11) likewise.
    expect(trigramLookup('ᲡᲐᲥᲐᲠᲗᲕᲔᲚᲝ', 'unicode')).toBeUndefined();
  });

  it('keeps the Greek sigmas, which FTS5 folds together', () => {
    expect(matchOf('ΟΔΟΣ', 'unicode')).toBe('"οδο" "δος"');
    expect(matchOf('οδοσ', 'unicode')).toBe('"οδο" "δοσ"');
  });

  it('drops an "i" that may stand for the first half of İ, but only where it may', () => {
    // toLowerCase('İ') is "i" + U+0307; FTS5 keeps İ as it is.
    expect(matchOf('über di', 'unicode')).toBe('"übe" "ber" "er " "r d"');
    expect(matchOf('über dix', 'unicode')).toBe('"übe" "ber" "er " "r d" " di" "dix"');
    expect(matchOf('İstanbul', 'unicode')).toBe('"sta" "tan" "anb" "nbu" "bul"');
    // An ASCII query takes LIKE, which never matches İ for "i".
    expect(matchOf('adi', 'ascii')).toBe('"adi"');
  });
});

describe('the fold rules', () => {
  it('may skip the planes above 1: no character there has a lower case', () => {
    const changed: string[] = [];
    for (let point = LAST_CASED_POINT + 1; point <= 0x10_ffff; point += 1) {
      const character = String.fromCodePoint(point);
      if (character.toLowerCase() !== character) changed.push(point.toString(16));
    }
    expect(changed).toStrictEqual([]);
  });
});
