/**
 * `LongTermMemory` on the PostgreSQL `memory_entries` table (node-postgres through drizzle).
 * Behaviour shared with the SQLite adapter (../sqlite/memory-repository.ts), checked by
 * `runLongTermMemoryConformance` (../../memory/long-term-conformance.ts):
 * - "newest first" is `created_at desc, id desc` (created_at has whole-second resolution);
 * - timestamps are integer epoch seconds: a fractional `created_at` is rounded down;
 * - `importance_score` outside 0..1 (or not a number) is rejected with HearthError('validation')
 *   before anything is written; the table's CHECK constraint backs it up;
 * - `content_hash` is `contentHash(content)`, recomputed whenever the content changes;
 * - ids that cannot name a row (not a positive `integer`) find nothing instead of throwing.
 * `search` folds case with lower(), which follows the database's LC_CTYPE (all of Unicode
 * under C.UTF-8 or a language locale; ASCII only under plain "C"), and is served by a pg_trgm
 * index when the extension is available (keyword-index.ts).
 */
import type { SQL } from 'drizzle-orm';
import { HearthError } from '../../errors.ts';
import {
  contentHash,
  type LongTermMemory,
  type MemoryEntry,
  type MemoryFilter,
  type MemoryOrigin,
  type NewMemoryEntry,
} from '../../memory/ports.ts';
import { orm } from '../drizzle.ts';
import { nowEpochSeconds } from '../json-text.ts';
import type { PostgresDrizzle } from './repositories.ts';
import { memoryEntries } from './schema.ts';
import {
  afterRowId,
  chunk,
  decodeEmbedding,
  encodeEmbedding,
  epochSeconds,
  importance,
  inRequestOrder,
  LEGACY_NOTE_ORIGIN,
  LEGACY_OTHER_ORIGIN,
  readOrigin,
  rowLimit,
  storedOrigin,
} from '../memory-rows.ts';

const { and, asc, count, desc, eq, gt, inArray, isNotNull, lt, sql } = orm;

type MemoryRow = typeof memoryEntries.$inferInsert;

/** memory_entries.id is a PostgreSQL `integer`; anything outside it cannot name an entry. */
const MAX_INTEGER_ID = 2_147_483_647;
/** Ids per `in (...)` list; far below PostgreSQL's 65535 bind parameters. */
const ID_CHUNK = 1000;
const SECONDS_PER_DAY = 86_400;

const entryColumns = {
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
    sql<MemoryOrigin>`coalesce(${memoryEntries.origin}, case when ${memoryEntries.type} = 'note' then ${LEGACY_NOTE_ORIGIN}::jsonb else ${LEGACY_OTHER_ORIGIN}::jsonb end)`.mapWith(
      readOrigin,
    ),
};

const newestFirst = [desc(memoryEntries.createdAt), desc(memoryEntries.id)];

/** A session's last activity: when its newest entry was remembered (edits do not count). */
const lastActive = sql<number>`max(${memoryEntries.createdAt})`.mapWith(Number);

export function postgresMemoryRepository(db: PostgresDrizzle): LongTermMemory {
  const byIds = (ids: readonly number[]): number[][] => chunk(uniqueIds(ids), ID_CHUNK);

  return {
    async insert(entry: NewMemoryEntry) {
      const createdAt =
        entry.created_at === undefined ? nowEpochSeconds() : epochSeconds(entry.created_at);
      const type = entry.type ?? 'turn';
      const origin = storedOrigin(entry.origin, type);
      const rows: MemoryEntry[] = await db
        .insert(memoryEntries)
        .values({
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
        })
        .returning(entryColumns);
      const row = rows[0];
      if (row === undefined)
        throw new Error('PostgreSQL returned no row for the new memory entry.');
      return row;
    },

    async get(id) {
      if (!isRowId(id)) return undefined;
      const rows = await db
        .select(entryColumns)
        .from(memoryEntries)
        .where(eq(memoryEntries.id, id));
      return rows[0];
    },

    async getMany(ids) {
      const found = new Map<number, MemoryEntry>();
      for (const part of byIds(ids)) {
        const rows = await db
          .select(entryColumns)
          .from(memoryEntries)
          .where(inArray(memoryEntries.id, part));
        for (const row of rows) found.set(row.id, row);
      }
      return inRequestOrder(ids, found);
    },

    async list(filter: MemoryFilter) {
      return db
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
              : sql`${memoryEntries.tags} @> jsonb_build_array(${filter.tag}::text)`,
          ),
        )
        .orderBy(...newestFirst)
        .limit(rowLimit(filter.limit));
    },

    async search(query, options) {
      return db
        .select(entryColumns)
        .from(memoryEntries)
        .where(
          and(
            contains(query),
            options.session_id === undefined
              ? undefined
              : eq(memoryEntries.sessionId, options.session_id),
          ),
        )
        .orderBy(...newestFirst)
        .limit(rowLimit(options.limit));
    },

    async update(id, patch) {
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
      const rows = await db
        .update(memoryEntries)
        .set(changes)
        .where(eq(memoryEntries.id, id))
        .returning(entryColumns);
      return rows[0];
    },

    async remove(id) {
      if (!isRowId(id)) return false;
      const result = await db.delete(memoryEntries).where(eq(memoryEntries.id, id));
      return (result.rowCount ?? 0) > 0;
    },

    async removeMany(ids) {
      const parts = byIds(ids);
      if (parts.length === 0) return 0;
      return db.transaction(async (tx) => {
        let removed = 0;
        for (const part of parts) {
          const result = await tx.delete(memoryEntries).where(inArray(memoryEntries.id, part));
          removed += result.rowCount ?? 0;
        }
        return removed;
      });
    },

    async removeSession(sessionId) {
      const result = await db.delete(memoryEntries).where(eq(memoryEntries.sessionId, sessionId));
      return result.rowCount ?? 0;
    },

    async removeAll() {
      const result = await db.delete(memoryEntries);
      return result.rowCount ?? 0;
    },

    async prune(options) {
      const condition = pruneCondition(options);
      if (condition === undefined) return 0;
      const result = await db.delete(memoryEntries).where(condition);
      return result.rowCount ?? 0;
    },

    async pruneIds(options, limit) {
      const condition = pruneCondition(options);
      const rows = rowLimit(limit);
      if (condition === undefined) return [];
      const found = await db
        .select({ id: memoryEntries.id })
        .from(memoryEntries)
        .where(condition)
        .orderBy(asc(memoryEntries.createdAt), asc(memoryEntries.id))
        .limit(rows);
      return found.map((row) => row.id);
    },

    async count() {
      const rows = await db.select({ rows: count() }).from(memoryEntries);
      return rows[0]?.rows ?? 0;
    },

    async embeddings(afterId, pageSize) {
      const after = afterRowId(afterId);
      const limit = rowLimit(pageSize);
      if (after >= MAX_INTEGER_ID) return [];
      const rows = await db
        .select({
          id: memoryEntries.id,
          session_id: memoryEntries.sessionId,
          embedding: memoryEntries.embedding,
        })
        .from(memoryEntries)
        .where(and(isNotNull(memoryEntries.embedding), gt(memoryEntries.id, after)))
        .orderBy(asc(memoryEntries.id))
        .limit(limit);
      return rows.flatMap((row) =>
        row.embedding === null
          ? []
          : [{ id: row.id, session_id: row.session_id, embedding: decodeEmbedding(row.embedding) }],
      );
    },

    async sessions() {
      return db
        .select({ session_id: memoryEntries.sessionId, last_active: lastActive, count: count() })
        .from(memoryEntries)
        .groupBy(memoryEntries.sessionId)
        .orderBy(desc(lastActive), asc(memoryEntries.sessionId));
    },
  };
}

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
  // created_at is a whole number, so `created_at < cutoff` equals `created_at < ceil(cutoff)`
  // (and a bigint parameter must be whole).
  const cutoff =
    days === undefined ? undefined : Math.ceil((now ?? nowEpochSeconds()) - days * SECONDS_PER_DAY);
  return and(
    cutoff === undefined ? undefined : lt(memoryEntries.createdAt, cutoff),
    threshold === undefined ? undefined : lt(memoryEntries.importanceScore, threshold),
  );
}

/** pg_trgm takes its trigrams from the pattern; a shorter query gives it none to look up. */
const MIN_INDEXED_QUERY = 3;

/**
 * `content` holds `query` ignoring case (both sides through lower()). From three characters
 * on, as `lower(content) LIKE '%query%'`, which the pg_trgm GIN index on lower(content)
 * serves (keyword-index.ts) and PostgreSQL re-checks exactly; shorter queries as strpos().
 * The wildcards are escaped before lower(), which leaves \, % and _ alone.
 */
function contains(query: string): SQL {
  return [...query].length >= MIN_INDEXED_QUERY
    ? sql`lower(${memoryEntries.content}) like lower(${`%${escapeLike(query)}%`}::text)`
    : sql`strpos(lower(${memoryEntries.content}), lower(${query}::text)) > 0`;
}

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, '\\$&');

const isRowId = (id: number): boolean => Number.isInteger(id) && id > 0 && id <= MAX_INTEGER_ID;

function uniqueIds(ids: readonly number[]): number[] {
  return [...new Set(ids)].filter(isRowId);
}
