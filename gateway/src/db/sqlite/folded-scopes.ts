/**
 * The rows of small search scopes (a session's, up to the search probe), newest first, with
 * their contents folded as an ASCII query compares them, kept between searches. A turn's
 * keyword search over a session then tests each row in JavaScript instead of having SQLite read
 * and LIKE-test every row of the session again (~1 µs a row for a turn's three keywords).
 *
 * An entry is only ever used for the same signature: the scope's row count and highest id, read
 * in the search's own snapshot. Ids are never reused (AUTOINCREMENT), so any insert or delete
 * changes the signature; content edits do not, and the owner calls `clear` after them, as after
 * another connection's commit.
 */

/** One scope's rows, newest first: `folded[i]` is the folded content of the row `ids[i]`. */
export interface FoldedScope {
  readonly ids: readonly number[];
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
  /** Folds and keeps `rows` ([id, content], newest first) for the scope, evicting the oldest used. */
  set(
    scope: string,
    signature: ScopeSignature,
    rows: readonly (readonly [number, string])[],
  ): FoldedScope;
  clear(): void;
  /** Scopes and folded characters held (for tests and status). */
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

export function foldedScopeCache({
  maxScopes = 64,
  maxChars = 2_000_000,
}: { maxScopes?: number; maxChars?: number } = {}): FoldedScopeCache {
  /** In order of last use, least recent first. */
  const entries = new Map<string, Entry>();
  let chars = 0;

  function drop(scope: string): void {
    const entry = entries.get(scope);
    if (entry === undefined) return;
    entries.delete(scope);
    chars -= entry.chars;
  }

  return {
    get(scope, { rows, newestId }) {
      const entry = entries.get(scope);
      if (entry === undefined) return undefined;
      if (entry.rows !== rows || entry.newestId !== newestId) {
        drop(scope);
        return undefined;
      }
      entries.delete(scope);
      entries.set(scope, entry);
      return entry;
    },

    set(scope, signature, rows) {
      drop(scope);
      const ids = rows.map(([id]) => id);
      const folded = rows.map(([, content]) => foldAscii(content));
      const entry: Entry = {
        ...signature,
        ids,
        folded,
        chars: folded.reduce((sum, text) => sum + text.length, 0),
      };
      if (entry.chars > maxChars) return entry;
      entries.set(scope, entry);
      chars += entry.chars;
      for (const [oldest] of entries) {
        if (entries.size <= maxScopes && chars <= maxChars) break;
        drop(oldest);
      }
      return entry;
    },

    clear() {
      entries.clear();
      chars = 0;
    },

    get size() {
      return { scopes: entries.size, chars };
    },
  };
}

/**
 * Each needle's first `limit` rows of the scope (newest first) whose folded content holds it,
 * in one pass that stops once every needle has its `limit`.
 */
export function matchFolded(
  scope: FoldedScope,
  needles: readonly string[],
  limit: number,
): number[][] {
  const found: number[][] = needles.map(() => []);
  let open = needles.length;
  for (let row = 0; row < scope.ids.length && open > 0; row += 1) {
    const text = scope.folded[row] as string;
    for (let index = 0; index < needles.length; index += 1) {
      const list = found[index] as number[];
      if (list.length < limit && text.includes(needles[index] as string)) {
        list.push(scope.ids[row] as number);
        if (list.length === limit) open -= 1;
      }
    }
  }
  return found;
}
