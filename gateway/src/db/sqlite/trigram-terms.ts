/**
 * Which trigrams of a `search` query the FTS5 trigram index (memory_entries_fts, migration
 * 0002_memory_search) can look up without missing a row that the exact test matches.
 *
 * The index folds case one code point at a time with FTS5's own table (Unicode 6-era: it
 * leaves Cherokee, Georgian Mtavruli, Osage and other newer capitals alone, and keeps U+0130
 * İ as it is). The exact test folds with JavaScript's toLowerCase(), which maps İ to two code
 * points ("i" + U+0307) and Σ to ς or σ by context. A query character is only safe to look up
 * when every content character that the exact test could line up with it folds, in FTS5, to
 * what it folds to. This module works out which characters break that rule, against the
 * SQLite and the JavaScript Unicode tables actually running, and keeps the trigrams made of
 * safe characters only: every row the exact test matches holds all of them, so the rows
 * holding all of them are a superset that the exact test then filters. A query without one
 * takes the table scan. NUL (which FTS5 drops from text and cannot take in a query) and lone
 * surrogates (stored as U+FFFD) are never safe.
 */
import BetterSqlite3 from 'better-sqlite3';

const TRIGRAM = 3;
/** More terms narrow little further and cost a doclist each; long queries keep a spread. */
const MAX_TERMS = 32;

export interface TrigramLookup {
  /** The FTS5 MATCH expression: each usable trigram as a quoted string (all must match). */
  match: string;
  /** The same trigrams folded as FTS5 stores them, for fts5vocab (approximate for rare letters). */
  terms: string[];
}

/**
 * The trigrams of `query` that the index can answer, or undefined when the table must be
 * scanned (under three usable characters in a row). `fold` says which exact test the
 * candidates meet: 'ascii' for SQLite's LIKE (ASCII letters fold, nothing else does),
 * 'unicode' for the toLowerCase() comparison.
 */
export function trigramLookup(query: string, fold: 'ascii' | 'unicode'): TrigramLookup | undefined {
  const points = [...(fold === 'ascii' ? query : query.toLowerCase())].map(
    (character) => character.codePointAt(0) ?? 0,
  );
  const rules = fold === 'ascii' ? undefined : unicodeFoldRules();
  const safe = points.map((_, index) => isSafe(points, index, rules));
  const trigrams = new Set<string>();
  for (let index = 0; index + TRIGRAM <= points.length; index += 1)
    if (safe[index] && safe[index + 1] && safe[index + 2])
      trigrams.add(String.fromCodePoint(...points.slice(index, index + TRIGRAM)));
  if (trigrams.size === 0) return undefined;
  const chosen = spread([...trigrams], MAX_TERMS);
  return {
    match: chosen.map((trigram) => `"${trigram.replaceAll('"', '""')}"`).join(' '),
    terms: chosen.map((trigram) => fts5Folded(trigram, rules)),
  };
}

/** At most `count` of `items`, evenly spaced, first and last included. */
function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  const step = (items.length - 1) / (count - 1);
  return Array.from({ length: count }, (_, index) => items[Math.round(index * step)] as T);
}

function fts5Folded(text: string, rules: FoldRules | undefined): string {
  let folded = '';
  for (const character of text) {
    const point = character.codePointAt(0) ?? 0;
    folded +=
      point < 0x80
        ? character.toLowerCase()
        : String.fromCodePoint(rules?.fts5Fold.get(point) ?? point);
  }
  return folded;
}

interface FoldRules {
  /** Never safe. */
  unsafe: Set<number>;
  /**
   * First code points of a multi-code-point lower case (the "i" of İ): safe only when the
   * next query character rules out that the content has the multi-code-point letter there.
   */
  unsafeAtEnd: Set<number>;
  /** Second and later code points of a multi-code-point lower case (U+0307 of İ). */
  tails: Set<number>;
  /** FTS5's fold of the code points where it is not the identity (of those examined). */
  fts5Fold: Map<number, number>;
}

function isSafe(points: readonly number[], index: number, rules: FoldRules | undefined): boolean {
  const point = points[index] ?? 0;
  if (point === 0 || (point >= 0xd800 && point <= 0xdfff)) return false;
  if (rules === undefined) return true;
  if (rules.unsafe.has(point)) return false;
  if (!rules.unsafeAtEnd.has(point)) return true;
  const next = points[index + 1];
  return next !== undefined && !rules.tails.has(next);
}

let rules: FoldRules | undefined;

/**
 * Letters with a lower case all sit in planes 0 and 1 (Unicode 16; planes 2 and 3 hold
 * ideographs, 14 format characters, 15 and 16 private use). trigram-terms.test.ts checks
 * that the running JavaScript engine agrees.
 */
export const LAST_CASED_POINT = 0x1_ffff;

/** Built on first use (a few milliseconds: planes 0 and 1 through toLowerCase), then kept. */
function unicodeFoldRules(): FoldRules {
  rules ??= buildFoldRules();
  return rules;
}

function buildFoldRules(): FoldRules {
  // For each lower-case code point y, the characters whose lower case is exactly y; for each
  // multi-code-point lower case, the characters by its first code point, and its tails.
  const sameLower = new Map<number, number[]>();
  const multiByFirst = new Map<number, number[]>();
  const tails = new Set<number>();
  const add = (map: Map<number, number[]>, key: number, value: number): void => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  for (let point = 0; point <= LAST_CASED_POINT; point += 1) {
    if (point === 0xd800) point = 0xe000;
    const character = String.fromCodePoint(point);
    // Context (final sigma) only ever changes which lower case a letter takes, never whether
    // it has one, so the contexts are only tried for letters that change on their own.
    if (character.toLowerCase() === character) continue;
    for (const lower of contextualLowerCases(character)) {
      const [first = 0, ...rest] = [...lower].map((part) => part.codePointAt(0) ?? 0);
      if (rest.length === 0) add(sameLower, first, point);
      else {
        add(multiByFirst, first, point);
        for (const tail of rest) tails.add(tail);
      }
    }
  }

  const examined = new Set<number>([...sameLower.keys(), ...multiByFirst.keys(), ...tails]);
  for (const list of [...sameLower.values(), ...multiByFirst.values()])
    for (const point of list) examined.add(point);
  const fts5Fold = fts5FoldOf([...examined]);
  const folded = (point: number): number => fts5Fold.get(point) ?? point;

  const unsafe = new Set(tails);
  for (const [lower, sources] of sameLower)
    if (sources.some((source) => folded(source) !== folded(lower))) unsafe.add(lower);
  const unsafeAtEnd = new Set<number>();
  for (const [first, sources] of multiByFirst)
    if (sources.some((source) => folded(source) !== folded(first))) unsafeAtEnd.add(first);
  return { unsafe, unsafeAtEnd, tails, fts5Fold };
}

/** toLowerCase() of a character alone, at the end of a word and inside one (final sigma). */
function contextualLowerCases(character: string): Set<string> {
  return new Set([
    character.toLowerCase(),
    `A${character}`.toLowerCase().slice(1),
    `A${character}A`.toLowerCase().slice(1, -1),
  ]);
}

/**
 * How FTS5's trigram tokenizer (case_sensitive 0) folds each of `points`, read back from a
 * private in-memory index: each code point is indexed as three copies of itself, so its one
 * trigram is three copies of its fold.
 */
function fts5FoldOf(points: readonly number[]): Map<number, number> {
  const probe = new BetterSqlite3(':memory:');
  try {
    probe.exec(
      "create virtual table t using fts5(c, tokenize = 'trigram case_sensitive 0');" +
        "create virtual table v using fts5vocab(t, 'instance');",
    );
    const insert = probe.prepare('insert into t (rowid, c) values (?, ?)');
    probe.transaction(() => {
      for (const point of points) insert.run(point, String.fromCodePoint(point).repeat(3));
    })();
    const fold = new Map<number, number>();
    const rows = probe.prepare('select doc, term from v').all() as { doc: number; term: string }[];
    for (const { doc, term } of rows) {
      const folded = term.codePointAt(0) ?? doc;
      if (folded !== doc) fold.set(doc, folded);
    }
    return fold;
  } finally {
    probe.close();
  }
}
