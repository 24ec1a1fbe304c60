/**
 * `LongTermMemory.search` on SQLite: entries whose `content` contains the query ignoring case
 * (JavaScript's toLowerCase() folding), newest first (`created_at desc, id desc`), up to the
 * limit. Every plan below returns exactly those rows; they differ only in cost.
 *
 * - Exact test: an ASCII query takes LIKE, which SQLite runs natively and ASCII-case-
 *   insensitively: 2-4× faster than calling into JavaScript per row, and the same result, as
 *   the only non-ASCII letters whose lower case holds ASCII ones are U+212A KELVIN SIGN and
 *   U+0130 (İ). Any other query folds both sides with hearth_lower().
 * - Candidates: the FTS5 trigram index `memory_entries_fts` (migration 0002_memory_search)
 *   finds the rows holding every trigram of the query that it can answer exactly
 *   (trigram-terms.ts); the exact test then filters them. Queries under three characters, or
 *   without such a trigram, scan the table as before.
 * - The index costs about a microsecond per candidate, so a word found in half the table is
 *   slower through it than a newest-first scan that stops at the limit. Each indexed search
 *   therefore first scans the newest PROBE_ROWS rows of its scope; when they hold `limit`
 *   matches (or are the whole scope) those are the answer. A session smaller than the index's
 *   candidate list is scanned instead of looked up.
 * - A turn's keywords (a few ASCII queries) over a session smaller than the probe share one
 *   walk of the session's entries as folded-scopes.ts keeps them (folded) between searches,
 *   tested in JavaScript; the kept entries are used only while the session's row count and
 *   highest id are those they were read with, and are dropped after an edit or another
 *   connection's commit.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { SQL } from 'drizzle-orm';
import type { MemoryEntry, MemoryOrigin } from '../../memory/ports.ts';
import { orm } from '../drizzle.ts';
import { LEGACY_NOTE_ORIGIN, LEGACY_OTHER_ORIGIN, readOrigin, rowLimit } from '../memory-rows.ts';
import type { SqliteDrizzle } from './repositories.ts';
import { memoryEntries } from './schema.ts';
import {
  foldAscii,
  foldedScopeCache,
  matchFolded,
  mergeNewestFirst,
  type ScopeSignature,
} from './folded-scopes.ts';
import { trigramLookup } from './trigram-terms.ts';

const { and, desc, eq, gt, sql } = orm;

/** Rows of the scope scanned newest-first before the index is asked. */
const PROBE_ROWS = 1_000;

export interface SqliteMemoryOptions {
  /**
   * How many of the newest rows of a search's scope are scanned before the trigram index is
   * asked (default 1,000). 0 asks the index whenever it can answer: the results are the same.
   */
  searchProbeRows?: number;
}
/** SQLite refuses LIKE patterns over 50,000 bytes; longer queries take the hearth_lower path. */
const MAX_LIKE_QUERY = 10_000;
const ASCII_ONLY = /^\p{ASCII}*$/u;
/** SQLite's LIKE ends its pattern at a NUL, so a query holding one takes instr() instead. */
const likeable = (query: string): boolean =>
  ASCII_ONLY.test(query) && !query.includes('\0') && query.length <= MAX_LIKE_QUERY;

/**
 * SQLite's own lower() folds ASCII letters only; this SQL function folds like JavaScript's
 * toLowerCase() (all of Unicode), so `search` matches "Über" for "über" as PostgreSQL does.
 */
const FOLD_FUNCTION = 'hearth_lower';

export const entryColumns = {
  id: memoryEntries.id,
  session_id: memoryEntries.sessionId,
  content: memoryEntries.content,
  content_hash: memoryEntries.contentHash,
  importance_score: memoryEntries.importanceScore,
  tags: memoryEntries.tags,
  type: memoryEntries.type,
  created_at: memoryEntries.createdAt,
  updated_at: memoryEntries.updatedAt,
  origin:
    sql<MemoryOrigin>`coalesce(${memoryEntries.origin}, case when ${memoryEntries.type} = 'note' then ${LEGACY_NOTE_ORIGIN} else ${LEGACY_OTHER_ORIGIN} end)`.mapWith(
      readOrigin,
    ),
};

type Fold = 'ascii' | 'unicode';
type Plan = 'scan' | 'recent' | 'indexed';
type SearchOptions = { limit: number; session_id?: string };

export function sqliteMemorySearch(
  db: SqliteDrizzle & { $client: BetterSqlite3.Database },
  { searchProbeRows = PROBE_ROWS }: SqliteMemoryOptions = {},
): {
  searchAll: (queries: readonly string[], options: SearchOptions) => MemoryEntry[][];
  contentsChanged: () => void;
} {
  db.$client.function(FOLD_FUNCTION, { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  );
  const fold = (value: unknown): SQL => sql`${sql.raw(FOLD_FUNCTION)}(${value})`;

  /** `content` contains the query: placeholders `pattern` (LIKE) or `needle` (fold). */
  function contains(content: SQL | typeof memoryEntries.content, how: Fold): SQL {
    return how === 'ascii'
      ? sql`${content} like ${sql.placeholder('pattern')} escape '\\'`
      : sql`instr(${fold(content)}, ${fold(sql.placeholder('needle'))}) > 0`;
  }
  const inSession = (bySession: boolean) =>
    bySession ? eq(memoryEntries.sessionId, sql.placeholder('session')) : undefined;
  const newestFirst = [desc(memoryEntries.createdAt), desc(memoryEntries.id)];

  function prepare(plan: Plan, how: Fold, bySession: boolean) {
    if (plan === 'recent') {
      // The exact test on the scope's newest rows only: those at or after the boundary row
      // (`since_created`, `since_id`). Walked newest first on the (session_id, created_at)
      // index, so it stops at `limit` matches and never reads past the boundary.
      // `created_at >= …` on its own lets SQLite bound the index range; the rest breaks ties.
      const sinceBoundary = sql`${memoryEntries.createdAt} >= ${sql.placeholder('since_created')} and (${memoryEntries.createdAt} > ${sql.placeholder('since_created')} or ${memoryEntries.id} >= ${sql.placeholder('since_id')})`;
      return db
        .select(entryColumns)
        .from(memoryEntries)
        .where(and(contains(memoryEntries.content, how), inSession(bySession), sinceBoundary))
        .orderBy(...newestFirst)
        .limit(sql.placeholder('limit'))
        .prepare();
    }
    const candidates =
      plan === 'indexed'
        ? sql`${memoryEntries.id} in (select rowid from memory_entries_fts where memory_entries_fts match ${sql.placeholder('match')})`
        : undefined;
    return db
      .select(entryColumns)
      .from(memoryEntries)
      .where(and(candidates, contains(memoryEntries.content, how), inSession(bySession)))
      .orderBy(...newestFirst)
      .limit(sql.placeholder('limit'))
      .prepare();
  }

  /**
   * Compiled once per shape: the chat pipeline searches on every turn, and preparing a
   * statement per call cost ~20% of a turn's CPU and left native memory behind until the GC.
   */
  const statements = new Map<string, ReturnType<typeof prepare>>();
  function statement(plan: Plan, how: Fold, bySession: boolean) {
    const key = `${plan}:${how}:${bySession ? 'session' : 'all'}`;
    let found = statements.get(key);
    if (!found) {
      found = prepare(plan, how, bySession);
      statements.set(key, found);
    }
    return found;
  }

  const client = db.$client;
  const rowsUpTo = {
    all: client.prepare('select count(*) from (select 1 from memory_entries limit ?)').pluck(),
    // With the highest id: the two are the signature of a session's folded rows (folded-scopes.ts).
    session: client
      .prepare(
        'select count(*), max(id) from (select id from memory_entries where session_id = ? limit ?)',
      )
      .raw(true),
    /**
     * A session's exact count and highest id, without the cap's subquery (~2× cheaper on a
     * small session, but as long as the session): only for sessions last seen small.
     */
    sessionExact: client
      .prepare('select count(*), max(id) from memory_entries where session_id = ?')
      .raw(true),
  };
  /** The scope's n-th newest row (0 = newest), from the index alone; undefined when fewer. */
  type Boundary = { created_at: number; id: number };
  const nthNewest = {
    all: client.prepare<[number], Boundary>(
      'select created_at, id from memory_entries order by created_at desc, id desc limit 1 offset ?',
    ),
    session: client.prepare<[string, number], Boundary>(
      'select created_at, id from memory_entries where session_id = ? ' +
        'order by created_at desc, id desc limit 1 offset ?',
    ),
  };

  /**
   * What one search call learns about its scope (how many rows it holds, where its newest
   * PROBE_ROWS end), asked at most once per call: several queries of one call (a turn's
   * keywords) share the answers, which hold as the call runs in one read transaction.
   */
  function scopeOf(session: string | undefined, lastSeenSmall = false) {
    /** Per cap: the row count (no further than `cap` + 1) and, in a session, the highest id. */
    const sizes = new Map<number, { rows: number; newestId: number }>();
    const boundaries = new Map<number, Boundary | undefined>();
    let exact: { rows: number; newestId: number } | undefined;
    const counted = (cap: number): { rows: number; newestId: number } => {
      if (exact !== undefined) return exact;
      let found = sizes.get(cap);
      if (found === undefined) {
        if (session !== undefined && lastSeenSmall) {
          // An exact count answers every cap.
          const [rows, newestId] = rowsUpTo.sessionExact.get(session) as [number, number | null];
          exact = { rows, newestId: newestId ?? 0 };
          return exact;
        }
        if (session === undefined)
          found = { rows: rowsUpTo.all.get(cap + 1) as number, newestId: 0 };
        else {
          const [rows, newestId] = rowsUpTo.session.get(session, cap + 1) as [
            number,
            number | null,
          ];
          found = { rows, newestId: newestId ?? 0 };
        }
        sizes.set(cap, found);
      }
      return found;
    };
    /** The scope's row count, counting no further than `cap` + 1. */
    const size = (cap: number): number => counted(cap).rows;
    return {
      /**
       * A session scope's signature (row count, highest id) when it holds fewer rows than the
       * probe, undefined otherwise.
       */
      smallSignature(): ScopeSignature | undefined {
        if (session === undefined) return undefined;
        const found = counted(searchProbeRows);
        return found.rows < searchProbeRows ? found : undefined;
      },
      /**
       * Whether the scope holds at most `rows` entries. Up to the probe's size, one count
       * (capped past the probe) answers every such question of the call.
       */
      atMost: (rows: number): boolean =>
        (rows <= searchProbeRows ? size(searchProbeRows) : size(rows)) <= rows,
      boundary(offset: number): Boundary | undefined {
        if (!boundaries.has(offset))
          boundaries.set(
            offset,
            session === undefined
              ? nthNewest.all.get(offset)
              : nthNewest.session.get(session, offset),
          );
        return boundaries.get(offset);
      },
    };
  }
  type Scope = ReturnType<typeof scopeOf>;

  /**
   * An upper bound of the rows the index returns for a lookup: its rarest trigram's count, 0
   * when one of them is in no row at all.
   */
  const termDocs = client.prepare<[string], { found: number; fewest: number | null }>(
    'select count(*) as found, min(doc) as fewest from memory_entries_fts_vocab ' +
      'where term in (select value from json_each(?))',
  );
  const candidatesAtMost = (terms: readonly string[]): number => {
    const row = termDocs.get(JSON.stringify(terms));
    return row === undefined || row.found < terms.length ? 0 : (row.fewest ?? 0);
  };

  function searchIn(scope: Scope, query: string, options: SearchOptions): MemoryEntry[] {
    const how: Fold = likeable(query) ? 'ascii' : 'unicode';
    const session = options.session_id;
    const bySession = session !== undefined;
    const limit = rowLimit(options.limit);
    const params = {
      pattern: `%${escapeLike(query)}%`,
      needle: query,
      session: session ?? '',
      limit,
    };
    const run = (plan: Plan, extra: Record<string, unknown> = {}): MemoryEntry[] =>
      statement(plan, how, bySession).all({ ...params, ...extra });

    // An empty scope matches nothing: no search statement is run (the check reads one row).
    if (limit === 0 || scope.atMost(0)) return [];
    const lookup = trigramLookup(query, how);
    if (lookup === undefined) return run('scan');

    if (searchProbeRows > 0) {
      // A scope smaller than the probe: one scan answers.
      if (scope.atMost(searchProbeRows - 1)) return run('scan');
      const boundary = scope.boundary(searchProbeRows - 1);
      if (boundary === undefined) return run('scan');
      const recent = run('recent', { since_created: boundary.created_at, since_id: boundary.id });
      if (recent.length >= limit || scope.atMost(searchProbeRows)) return recent;
    }
    if (bySession) {
      if (scope.atMost(candidatesAtMost(lookup.terms))) return run('scan');
    }
    return run('indexed', { match: lookup.match });
  }

  const jointScan = sqliteJointScan(db, client);

  const folded = foldedScopeCache();
  /** Changes when another connection commits: what this one keeps folded may be stale then. */
  const dataVersion = client.prepare('pragma data_version').pluck();
  let seenVersion: unknown;
  const sessionEntries = db
    .select(entryColumns)
    .from(memoryEntries)
    .where(eq(memoryEntries.sessionId, sql.placeholder('session')))
    .orderBy(...newestFirst)
    .prepare();
  const sessionEntriesAfter = db
    .select(entryColumns)
    .from(memoryEntries)
    .where(
      and(
        eq(memoryEntries.sessionId, sql.placeholder('session')),
        gt(memoryEntries.id, sql.placeholder('after')),
      ),
    )
    .orderBy(...newestFirst)
    .prepare();

  /**
   * The joint scan of a small session for ASCII queries, over the session's rows as folded
   * and kept by an earlier search while its signature holds: same rows, same order.
   */
  function foldedScan(
    session: string,
    signature: ScopeSignature,
    queries: readonly string[],
    options: SearchOptions,
  ): MemoryEntry[][] {
    const version = dataVersion.get();
    if (version !== seenVersion) {
      folded.clear();
      seenVersion = version;
    }
    const scope =
      folded.get(session, signature) ??
      folded.set(session, signature, entriesOf(session, signature));
    return matchFolded(scope, queries.map(foldAscii), rowLimit(options.limit));
  }

  /**
   * The session's entries, newest first. When only rows were added since some were kept (the
   * count grew by exactly the rows past the kept highest id: ids are never reused, and edits
   * and other connections' commits drop what is kept), only the added ones are read.
   */
  function entriesOf(session: string, signature: ScopeSignature): MemoryEntry[] {
    const kept = folded.kept(session);
    if (kept !== undefined && signature.newestId > kept.newestId && signature.rows > kept.rows) {
      const added = sessionEntriesAfter.all({ session, after: kept.newestId });
      if (kept.rows + added.length === signature.rows) return mergeNewestFirst(added, kept.entries);
    }
    return sessionEntries.all({ session });
  }

  /**
   * Every query's matches, in one read transaction (one snapshot, one lock for them all). When
   * each query would scan the whole scope (smaller than the probe: the common case of a
   * session), a few queries share one scan instead.
   */
  const searchAll = client.transaction(
    (queries: readonly string[], options: SearchOptions): MemoryEntry[][] => {
      const session = options.session_id;
      const lastSeenSmall = session !== undefined && folded.kept(session) !== undefined;
      const scope = scopeOf(session, lastSeenSmall);
      // Grown past the probe since: counted with the cap again from now on.
      if (lastSeenSmall && scope.smallSignature() === undefined) folded.delete(session);
      if (
        queries.length >= 2 &&
        queries.length <= MAX_JOINT_QUERIES &&
        searchProbeRows > 0 &&
        rowLimit(options.limit) > 0 &&
        !scope.atMost(0) &&
        scope.atMost(searchProbeRows - 1)
      ) {
        const folds = queries.map((query): Fold => (likeable(query) ? 'ascii' : 'unicode'));
        const signature = scope.smallSignature();
        if (
          session !== undefined &&
          signature !== undefined &&
          folds.every((how) => how === 'ascii')
        )
          return foldedScan(session, signature, queries, options);
        return jointScan(folds, queries, options);
      }
      return queries.map((query) => searchIn(scope, query, options));
    },
  );
  return {
    searchAll,
    /** After this connection edited stored entries: nothing kept before is used again. */
    contentsChanged: () => folded.clear(),
  };
}

/** Queries one joint scan answers at most (one compiled statement per mix of folds). */
const MAX_JOINT_QUERIES = 4;

/**
 * Several queries' scans of a whole scope as one walk over it, newest first: each row is read
 * once and tested against every query (a turn searches up to three keywords, and a row read
 * cost more than its test), each query keeping its first `limit` matches, and the walk stops
 * once every query has them. Same rows, same order as one scan per query. Only the ids are
 * walked; the entries are read by id afterwards, mapped as every other read maps them.
 */
function sqliteJointScan(
  db: SqliteDrizzle & { $client: BetterSqlite3.Database },
  client: BetterSqlite3.Database,
) {
  const test = (how: Fold, index: number): string =>
    how === 'ascii'
      ? `content like @q${index} escape '\\'`
      : `instr(${FOLD_FUNCTION}(content), ${FOLD_FUNCTION}(@q${index})) > 0`;
  const walks = new Map<string, BetterSqlite3.Statement>();
  function walk(folds: readonly Fold[], bySession: boolean): BetterSqlite3.Statement {
    const key = `${folds.join(',')}:${bySession ? 'session' : 'all'}`;
    let found = walks.get(key);
    if (!found) {
      const tests = folds.map(test);
      found = client
        .prepare(
          `select id, ${tests.join(', ')} from memory_entries ` +
            `where ${bySession ? 'session_id = @session and ' : ''}(${tests.join(' or ')}) ` +
            'order by created_at desc, id desc',
        )
        .raw(true);
      walks.set(key, found);
    }
    return found;
  }
  const byIds = db
    .select(entryColumns)
    .from(memoryEntries)
    .where(sql`${memoryEntries.id} in (select value from json_each(${sql.placeholder('ids')}))`)
    .prepare();

  return (
    folds: readonly Fold[],
    queries: readonly string[],
    options: SearchOptions,
  ): MemoryEntry[][] => {
    const limit = rowLimit(options.limit);
    const params: Record<string, string> = {};
    queries.forEach((query, index) => {
      params[`q${index}`] = folds[index] === 'ascii' ? `%${escapeLike(query)}%` : query;
    });
    if (options.session_id !== undefined) params.session = options.session_id;
    const ids: number[][] = queries.map(() => []);
    let open = queries.length;
    for (const row of walk(folds, options.session_id !== undefined).iterate(params) as Iterable<
      unknown[]
    >) {
      for (let index = 0; index < queries.length; index += 1) {
        const list = ids[index] as number[];
        if (row[index + 1] === 1 && list.length < limit) {
          list.push(row[0] as number);
          if (list.length === limit) open -= 1;
        }
      }
      if (open === 0) break;
    }
    const wanted = [...new Set(ids.flat())];
    if (wanted.length === 0) return ids.map(() => []);
    const entries = new Map<number, MemoryEntry>();
    for (const entry of byIds.all({ ids: JSON.stringify(wanted) })) entries.set(entry.id, entry);
    return ids.map((list) => list.flatMap((id) => entries.get(id) ?? []));
  };
}

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, '\\$&');
