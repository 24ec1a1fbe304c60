import {
  isUntrusted,
  type ConversationHistoryStore,
  type MemoryOrigin,
  type StoredHistoryMessage,
} from '../../memory/ports.ts';
import { orm } from '../drizzle.ts';
import { nowEpochSeconds } from '../json-text.ts';
import {
  EARLIER_ORIGINS,
  readHistoryOrigin,
  rowLimit,
  storedHistoryOrigin,
} from '../memory-rows.ts';
import type { DeferredWrites } from './deferred-writes.ts';
import type { SqliteDrizzle } from './repositories.ts';
import { storedSessions } from './stored-sessions.ts';
import { conversationMessages, sessionTitles } from './schema.ts';

const { and, desc, eq, gte, inArray, isNotNull, lt, lte, ne, or, sql } = orm;

/** better-sqlite3 is synchronous; this keeps the port's promise contract. */
const settle = <T>(work: () => T): Promise<T> => new Promise((resolve) => resolve(work()));

const columns = {
  id: conversationMessages.id,
  role: conversationMessages.role,
  content: conversationMessages.content,
  origin: conversationMessages.origin,
  created_at: conversationMessages.createdAt,
};

interface Row {
  id: number;
  role: StoredHistoryMessage['role'];
  content: string;
  origin: string | null;
  created_at: number;
}

const read = (row: Row): StoredHistoryMessage => ({
  ...row,
  origin: readHistoryOrigin(row.origin),
});

const originText = (origin: MemoryOrigin | null): string | null => {
  const stored = storedHistoryOrigin(origin);
  return stored === null ? null : JSON.stringify(stored);
};

/**
 * The stored history on SQLite. Its statements are compiled once (the chat appends after every
 * turn and loads on a session's first). Appends are deferred writes (deferred-writes.ts):
 * written after the current tick, all those queued by then in one transaction, so the reply
 * does not wait for them and concurrent turns share one commit. Every other call (and closing
 * the database) writes what is waiting first, so a load in this process always sees the
 * appends before it.
 */
export function sqliteConversationRepository(
  db: SqliteDrizzle,
  writes: DeferredWrites,
): ConversationHistoryStore {
  const ofSession = (sessionId: string) => eq(conversationMessages.sessionId, sessionId);
  const messagesOf = (sessionId: string) =>
    and(ofSession(sessionId), ne(conversationMessages.role, 'summary'));
  const session = sql.placeholder('session');
  const summaryOf = db
    .select(columns)
    .from(conversationMessages)
    .where(
      and(eq(conversationMessages.sessionId, session), eq(conversationMessages.role, 'summary')),
    )
    .orderBy(desc(conversationMessages.id))
    .limit(1)
    .prepare();
  const newestOf = db
    .select(columns)
    .from(conversationMessages)
    .where(
      and(eq(conversationMessages.sessionId, session), ne(conversationMessages.role, 'summary')),
    )
    .orderBy(desc(conversationMessages.id))
    .limit(sql.placeholder('limit'))
    .prepare();
  const insertMessage = db
    .insert(conversationMessages)
    .values({
      sessionId: sql.placeholder('sessionId'),
      role: sql.placeholder('role'),
      content: sql.placeholder('content'),
      origin: sql.placeholder('origin'),
      createdAt: sql.placeholder('createdAt'),
    })
    .returning({ id: conversationMessages.id })
    .prepare();

  /** The rows' ids, in order (one transaction assigns them ascending). */
  const insertRows = (rows: readonly Record<string, unknown>[]): number[] =>
    rows.map((row) => insertMessage.get(row)?.id ?? 0);

  /** Runs `work` after what is waiting has been written. */
  const afterPending = <T>(work: () => T): Promise<T> =>
    settle(() => {
      writes.flush();
      return work();
    });

  return {
    load: (sessionId, limit) =>
      afterPending(() => {
        const wanted = rowLimit(limit);
        const summary = summaryOf.get({ session: sessionId });
        const newest = newestOf.all({ session: sessionId, limit: wanted + 1 });
        const kept = newest.slice(0, wanted);
        let earlier: (MemoryOrigin | null)[] = [];
        if (newest.length > wanted) {
          const oldestKept = kept.at(-1)?.id;
          earlier = db
            .selectDistinct({ origin: conversationMessages.origin })
            .from(conversationMessages)
            .where(
              and(
                messagesOf(sessionId),
                isNotNull(conversationMessages.origin),
                oldestKept === undefined ? undefined : lt(conversationMessages.id, oldestKept),
              ),
            )
            .limit(EARLIER_ORIGINS)
            .all()
            .map((row) => readHistoryOrigin(row.origin));
        }
        return {
          summary: summary === undefined ? null : read(summary),
          messages: kept.reverse().map(read),
          truncated: newest.length > wanted,
          earlier: earlier.filter((origin): origin is MemoryOrigin => isUntrusted(origin)),
        };
      }),
    append: (sessionId, messages) => {
      if (messages.length === 0) return Promise.resolve([]);
      // A malformed origin throws here, before anything is queued.
      let rows: Record<string, unknown>[];
      try {
        const createdAt = nowEpochSeconds();
        rows = messages.map((message) => ({
          sessionId,
          role: message.role,
          content: message.content,
          origin: originText(message.origin),
          createdAt,
        }));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      return writes.defer(() => insertRows(rows));
    },
    summarise: (sessionId, upTo, summary) =>
      afterPending(() => {
        const origin = originText(summary.origin);
        db.transaction((tx) => {
          tx.delete(conversationMessages)
            .where(
              and(
                ofSession(sessionId),
                or(
                  eq(conversationMessages.role, 'summary'),
                  lte(conversationMessages.id, Math.floor(upTo)),
                ),
              ),
            )
            .run();
          tx.insert(conversationMessages)
            .values({
              sessionId,
              role: 'summary',
              content: summary.content,
              origin,
              createdAt: nowEpochSeconds(),
            })
            .run();
        });
      }),
    clear: (sessionId) =>
      afterPending(() =>
        db.transaction((tx) => {
          tx.delete(sessionTitles).where(eq(sessionTitles.sessionId, sessionId)).run();
          return tx.delete(conversationMessages).where(ofSession(sessionId)).run().changes;
        }),
      ),
    dropLastExchange: (sessionId) =>
      afterPending(() => {
        const last = db
          .select({ id: conversationMessages.id })
          .from(conversationMessages)
          .where(and(ofSession(sessionId), eq(conversationMessages.role, 'user')))
          .orderBy(desc(conversationMessages.id))
          .limit(1)
          .get();
        if (last === undefined) return 0;
        return db
          .delete(conversationMessages)
          .where(and(messagesOf(sessionId), gte(conversationMessages.id, last.id)))
          .run().changes;
      }),
    titles: (sessionIds) =>
      settle(() => {
        const titles = new Map<string, string>();
        if (sessionIds.length === 0) return titles;
        const rows = db
          .select({ id: sessionTitles.sessionId, title: sessionTitles.title })
          .from(sessionTitles)
          .where(inArray(sessionTitles.sessionId, [...sessionIds]))
          .all();
        for (const row of rows) titles.set(row.id, row.title);
        return titles;
      }),
    setTitle: (sessionId, title) =>
      settle(() => {
        db.insert(sessionTitles)
          .values({ sessionId, title, updatedAt: nowEpochSeconds() })
          .onConflictDoUpdate({
            target: sessionTitles.sessionId,
            set: { title, updatedAt: nowEpochSeconds() },
          })
          .run();
      }),
    sessions: (query) => afterPending(() => storedSessions(db, query)),
  };
}
