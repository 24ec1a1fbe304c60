/**
 * The entries of small search scopes (a session's, up to the search probe), newest first, with
 * their contents folded as an ASCII query compares them, kept between searches. A turn's
 * keyword search over a session then tests each row in JavaScript and answers with the kept
 * entries, instead of having SQLite read and LIKE-test every row of the session again (~1 µs a
 * row for a turn's three keywords) and read the matches back.
 *
 * An entry is only ever used for the same signature: the scope's row count and highest id, read
 * in the search's own snapshot. Ids are never reused (AUTOINCREMENT), so any insert or delete
 * changes the signature; edits do not, and the owner calls `clear` after them, as after another
 * connection's commit.
 */
import { copyOrigin, type MemoryEntry } from '../../memory/ports.ts';

/** One scope's entries, newest first, and the folded content of each. */
export interface FoldedScope {
  readonly entries: readonly MemoryEntry[];
  readonly folded: readonly string[];
}

export interface ScopeSignature {
  rows: number;
  newestId: number;
}

interface Entry extends FoldedScope, ScopeSignature {
  chars: number;
}

export interface FoldedScopeCache {
  get(scope: string, signature: ScopeSignature): FoldedScope | undefined;
  /** What is kept for the scope, with the signature it was read with, whatever it is now. */
  kept(scope: string): (FoldedScope & ScopeSignature) | undefined;
  delete(scope: string): void;
  /** Folds and keeps the scope's entries (newest first), evicting the least recently used. */
  set(scope: string, signature: ScopeSignature, entries: readonly MemoryEntry[]): FoldedScope;
  clear(): void;
  /** Scopes and characters held (for tests). */
  readonly size: { scopes: number; chars: number };
}

const ASCII_TEXT = /^\p{ASCII}*$/u;
const ASCII_CAPITAL = /[A-Z]/g;

/**
 * `content` as SQLite's LIKE compares it with an ASCII pattern: ASCII letters folded, every
 * other character as it is, and the text ending at its first NUL.
 */
export function foldAscii(content: string): string {
  const nul = content.indexOf('\0');
  const text = nul < 0 ? content : content.slice(0, nul);
  // toLowerCase() also folds non-ASCII letters (U+212A KELVIN SIGN becomes "k"), which LIKE does not.
  return ASCII_TEXT.test(text)
    ? text.toLowerCase()
    : text.replace(ASCII_CAPITAL, (letter) => letter.toLowerCase());
}

/**
 * What an entry holds besides its content, counted as characters against `maxChars` (its
 * other fields, tags and origin, as objects): many short rows are bounded as much as few long.
 */
const ENTRY_CHARS = 200;

export function foldedScopeCache({
  maxScopes = 64,
  maxChars = 2_000_000,
}: { maxScopes?: number; maxChars?: number } = {}): FoldedScopeCache {
  /** In order of last use, least recent first. */
  const scopes = new Map<string, Entry>();
  let chars = 0;

  function drop(scope: string): void {
    const entry = scopes.get(scope);
    if (entry === undefined) return;
    scopes.delete(scope);
    chars -= entry.chars;
  }

  return {
    get(scope, { rows, newestId }) {
      const entry = scopes.get(scope);
      if (entry === undefined) return undefined;
      // Kept as it was (`kept`) until the owner sets what the scope holds now.
      if (entry.rows !== rows || entry.newestId !== newestId) return undefined;
      scopes.delete(scope);
      scopes.set(scope, entry);
      return entry;
    },

    kept: (scope) => scopes.get(scope),

    delete: drop,

    set(scope, signature, entries) {
      drop(scope);
      const folded = entries.map((kept) => foldAscii(kept.content));
      const entry: Entry = {
        ...signature,
        entries,
        folded,
        // Each content twice (as stored and folded), and the entry's own fields and objects.
        chars: entries.reduce(
          (sum, kept, index) =>
            sum + kept.content.length + (folded[index] as string).length + ENTRY_CHARS,
          0,
        ),
      };
      if (entry.chars > maxChars) return entry;
      scopes.set(scope, entry);
      chars += entry.chars;
      for (const [oldest] of scopes) {
        if (scopes.size <= maxScopes && chars <= maxChars) break;
        drop(oldest);
      }
      return entry;
    },

    clear() {
      scopes.clear();
      chars = 0;
    },

    get size() {
      return { scopes: scopes.size, chars };
    },
  };
}

/**
 * Each needle's first `limit` entries of the scope (newest first) whose folded content holds
 * it, in one pass that stops once every needle has its `limit`. The entries are copies, one per
 * entry found, so that nothing a caller does to them reaches the kept ones.
 */
export function matchFolded(
  scope: FoldedScope,
  needles: readonly string[],
  limit: number,
): MemoryEntry[][] {
  const found: MemoryEntry[][] = needles.map(() => []);
  const copies = new Map<number, MemoryEntry>();
  let open = needles.length;
  for (let row = 0; row < scope.entries.length && open > 0; row += 1) {
    const text = scope.folded[row] as string;
    for (let index = 0; index < needles.length; index += 1) {
      const list = found[index] as MemoryEntry[];
      if (list.length < limit && text.includes(needles[index] as string)) {
        let copy = copies.get(row);
        if (copy === undefined) {
          const kept = scope.entries[row] as MemoryEntry;
          copy = { ...kept, tags: [...kept.tags], origin: copyOrigin(kept.origin) };
          copies.set(row, copy);
        }
        list.push(copy);
        if (list.length === limit) open -= 1;
      }
    }
  }
  return found;
}

/** Newer first: the order of a scope's entries (created_at, then id, both descending). */
const newer = (a: MemoryEntry, b: MemoryEntry): boolean =>
  a.created_at > b.created_at || (a.created_at === b.created_at && a.id > b.id);

/** Two lists of entries, each newest first, as one newest first. */
export function mergeNewestFirst(
  one: readonly MemoryEntry[],
  other: readonly MemoryEntry[],
): MemoryEntry[] {
  const merged: MemoryEntry[] = [];
  let i = 0;
  let j = 0;
  while (i < one.length && j < other.length)
    merged.push(newer(one[i] as MemoryEntry, other[j] as MemoryEntry) ? one[i++]! : other[j++]!);
  while (i < one.length) merged.push(one[i++]!);
  while (j < other.length) merged.push(other[j++]!);
  return merged;
}
