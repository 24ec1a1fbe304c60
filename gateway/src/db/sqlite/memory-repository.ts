/**
 * `LongTermMemory` on the SQLite `memory_entries` table (better-sqlite3 through drizzle).
 * Behaviour shared with the PostgreSQL adapter (../postgres/memory-repository.ts), checked by
 * `runLongTermMemoryConformance` (../../memory/long-term-conformance.ts):
 * - "newest first" is `created_at desc, id desc` (created_at has whole-second resolution);
 * - timestamps are integer epoch seconds: a fractional `created_at` is rounded down;
 * - `importance_score` outside 0..1 (or not a number) is rejected with HearthError('validation')
 *   before anything is written; the table's CHECK constraint backs it up;
 * - `content_hash` is `contentHash(content)`, recomputed whenever the content changes;
 * - ids that cannot name a row (not a positive integer) find nothing instead of throwing.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { SQL } from 'drizzle-orm';
import { HearthError } from '../../errors.ts';
import {
  contentHash,
  type LongTermMemory,
  type MemoryEntry,
  type MemoryFilter,
  type NewMemoryEntry,
} from '../../memory/ports.ts';
import { orm } from '../drizzle.ts';
import { nowEpochSeconds } from '../json-text.ts';
import type { SqliteDrizzle } from './repositories.ts';
import { entryColumns, sqliteMemorySearch, type SqliteMemoryOptions } from './memory-search.ts';
import { memoryEntries } from './schema.ts';
import {
  afterRowId,
  chunk,
  decodeEmbedding,
  encodeEmbedding,
  epochSeconds,
  importance,
  inRequestOrder,
  rowLimit,
  storedOrigin,
} from '../memory-rows.ts';

const { and, asc, count, desc, eq, gt, inArray, isNotNull, lt, sql } = orm;

type MemoryRow = typeof memoryEntries.$inferInsert;

/** Ids per `in (...)` list; far below SQLite's 32766 bound variables. */
const ID_CHUNK = 500;
const SECONDS_PER_DAY = 86_400;

/** better-sqlite3 is synchronous; this keeps the port's promise contract (throws become rejections). */
const settle = <T>(work: () => T): Promise<T> => new Promise((resolve) => resolve(work()));

const newestFirst = [desc(memoryEntries.createdAt), desc(memoryEntries.id)];

export function sqliteMemoryRepository(
  db: SqliteDrizzle & { $client: BetterSqlite3.Database },
  options: SqliteMemoryOptions = {},
): LongTermMemory {
  const { searchAll: search, contentsChanged } = sqliteMemorySearch(db, options);

  /** Compiled once: building the statement per call costs more than running it. */
  const insertEntry = db
    .insert(memoryEntries)
    .values({
      sessionId: sql.placeholder('sessionId'),
      content: sql.placeholder('content'),
      contentHash: sql.placeholder('contentHash'),
      importanceScore: sql.placeholder('importanceScore'),
      tags: sql.placeholder('tags'),
      type: sql.placeholder('type'),
      embedding: sql.placeholder('embedding'),
      createdAt: sql.placeholder('createdAt'),
      updatedAt: sql.placeholder('updatedAt'),
      origin: sql.placeholder('origin'),
    })
    .returning(entryColumns)
    .prepare();

  /** Compiled once: every long-term write refreshes the entry gauge with it. */
  const countEntries = db.select({ rows: count() }).from(memoryEntries).prepare();

  const byIds = (ids: readonly number[]): number[][] => chunk(uniqueIds(ids), ID_CHUNK);

  return {
    insert: (entry: NewMemoryEntry) =>
      settle(() => {
        const createdAt =
          entry.created_at === undefined ? nowEpochSeconds() : epochSeconds(entry.created_at);
        const type = entry.type ?? 'turn';
        const origin = JSON.stringify(storedOrigin(entry.origin, type));
        const row: MemoryEntry | undefined = insertEntry.get({
          sessionId: entry.session_id,
          content: entry.content,
          contentHash: contentHash(entry.content),
          importanceScore: importance(entry.importance_score),
          tags: [...(entry.tags ?? [])],
          type,
          embedding: encodeEmbedding(entry.embedding),
          createdAt,
          updatedAt: createdAt,
          origin,
        });
        if (row === undefined) throw new Error('SQLite returned no row for the new memory entry.');
        return row;
      }),

    get: (id) =>
      settle(() =>
        isRowId(id)
          ? db.select(entryColumns).from(memoryEntries).where(eq(memoryEntries.id, id)).get()
          : undefined,
      ),

    getMany: (ids) =>
      settle(() => {
        const found = new Map<number, MemoryEntry>();
        for (const part of byIds(ids)) {
          const rows = db
            .select(entryColumns)
            .from(memoryEntries)
            .where(inArray(memoryEntries.id, part))
            .all();
          for (const row of rows) found.set(row.id, row);
        }
        return inRequestOrder(ids, found);
      }),

    list: (filter: MemoryFilter) =>
      settle(() =>
        db
          .select(entryColumns)
          .from(memoryEntries)
          .where(
            and(
              filter.session_id === undefined
                ? undefined
                : eq(memoryEntries.sessionId, filter.session_id),
              filter.type === undefined ? undefined : eq(memoryEntries.type, filter.type),
              filter.tag === undefined
                ? undefined
                : sql`exists (select 1 from json_each(${memoryEntries.tags}) where json_each.value = ${filter.tag})`,
            ),
          )
          .orderBy(...newestFirst)
          .limit(rowLimit(filter.limit))
          .all(),
      ),

    search: (query, options) => settle(() => search([query], options)[0] ?? []),

    searchMany: (queries, options) => settle(() => search(queries, options)),

    update: (id, patch) =>
      settle(() => {
        const changes: Partial<MemoryRow> = { updatedAt: nowEpochSeconds() };
        if (patch.content !== undefined) {
          changes.content = patch.content;
          changes.contentHash = contentHash(patch.content);
        }
        if (patch.importance_score !== undefined)
          changes.importanceScore = importance(patch.importance_score);
        if (patch.tags !== undefined) changes.tags = [...patch.tags];
        if (patch.embedding !== undefined) changes.embedding = encodeEmbedding(patch.embedding);
        if (!isRowId(id)) return undefined;
        // An edit is not in the search's signature of a scope (row count, highest id).
        contentsChanged();
        return db
          .update(memoryEntries)
          .set(changes)
          .where(eq(memoryEntries.id, id))
          .returning(entryColumns)
          .get();
      }),

    remove: (id) =>
      settle(
        () =>
          isRowId(id) && db.delete(memoryEntries).where(eq(memoryEntries.id, id)).run().changes > 0,
      ),

    removeMany: (ids) =>
      settle(() => {
        const parts = byIds(ids);
        if (parts.length === 0) return 0;
        return db.transaction((tx) =>
          parts.reduce(
            (removed, part) =>
              removed +
              tx.delete(memoryEntries).where(inArray(memoryEntries.id, part)).run().changes,
            0,
          ),
        );
      }),

    removeSession: (sessionId) =>
      settle(
        () => db.delete(memoryEntries).where(eq(memoryEntries.sessionId, sessionId)).run().changes,
      ),

    removeAll: () => settle(() => db.delete(memoryEntries).run().changes),

    prune: (options) =>
      settle(() => {
        const condition = pruneCondition(options);
        return condition === undefined
          ? 0
          : db.delete(memoryEntries).where(condition).run().changes;
      }),

    pruneIds: (options, limit) =>
      settle(() => {
        const condition = pruneCondition(options);
        const rows = rowLimit(limit);
        if (condition === undefined) return [];
        return db
          .select({ id: memoryEntries.id })
          .from(memoryEntries)
          .where(condition)
          .orderBy(asc(memoryEntries.createdAt), asc(memoryEntries.id))
          .limit(rows)
          .all()
          .map((row) => row.id);
      }),

    count: () => settle(() => countEntries.get()?.rows ?? 0),

    embeddings: (afterId, pageSize) =>
      settle(() =>
        db
          .select({
            id: memoryEntries.id,
            session_id: memoryEntries.sessionId,
            embedding: memoryEntries.embedding,
          })
          .from(memoryEntries)
          .where(and(isNotNull(memoryEntries.embedding), gt(memoryEntries.id, afterRowId(afterId))))
          .orderBy(asc(memoryEntries.id))
          .limit(rowLimit(pageSize))
          .all()
          .flatMap((row) =>
            row.embedding === null
              ? []
              : [
                  {
                    id: row.id,
                    session_id: row.session_id,
                    embedding: decodeEmbedding(row.embedding),
                  },
                ],
          ),
      ),

    sessions: () =>
      settle(() =>
        db
          .select({
            session_id: memoryEntries.sessionId,
            last_active: lastActive,
            count: count(),
          })
          .from(memoryEntries)
          .groupBy(memoryEntries.sessionId)
          .orderBy(desc(lastActive), asc(memoryEntries.sessionId))
          .all(),
      ),
  };
}

/** A session's last activity: when its newest entry was remembered (edits do not count). */
const lastActive = sql<number>`max(${memoryEntries.createdAt})`.mapWith(Number);

/**
 * The rows `prune` deletes: with `days`, those created before `now - days` (now in epoch
 * seconds, the current time when omitted); with `threshold`, those whose importance is below
 * it; with both, only rows matching BOTH (old AND unimportant). With neither, nothing.
 */
function pruneCondition(options: {
  days?: number;
  threshold?: number;
  now?: number;
}): SQL | undefined {
  const { days, threshold, now } = options;
  if (days !== undefined && !(Number.isFinite(days) && days >= 0))
    throw new HearthError('validation', `prune days must be a number ≥ 0 (got ${days}).`);
  if (threshold !== undefined && !Number.isFinite(threshold))
    throw new HearthError('validation', `prune threshold must be a number (got ${threshold}).`);
  if (now !== undefined && !Number.isFinite(now))
    throw new HearthError('validation', `prune now must be epoch seconds (got ${now}).`);
  if (days === undefined && threshold === undefined) return undefined;
  // created_at is a whole number, so `created_at < cutoff` equals `created_at < ceil(cutoff)`.
  const cutoff =
    days === undefined ? undefined : Math.ceil((now ?? nowEpochSeconds()) - days * SECONDS_PER_DAY);
  return and(
    cutoff === undefined ? undefined : lt(memoryEntries.createdAt, cutoff),
    threshold === undefined ? undefined : lt(memoryEntries.importanceScore, threshold),
  );
}

const isRowId = (id: number): boolean => Number.isSafeInteger(id) && id > 0;

function uniqueIds(ids: readonly number[]): number[] {
  return [...new Set(ids)].filter(isRowId);
}
