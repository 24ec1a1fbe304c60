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
import type { SqliteDrizzle } from './repositories.ts';
import { conversationMessages } from './schema.ts';

const { and, desc, eq, isNotNull, lt, lte, ne, or } = orm;

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

export function sqliteConversationRepository(db: SqliteDrizzle): ConversationHistoryStore {
  const ofSession = (sessionId: string) => eq(conversationMessages.sessionId, sessionId);
  const messagesOf = (sessionId: string) =>
    and(ofSession(sessionId), ne(conversationMessages.role, 'summary'));

  return {
    load: (sessionId, limit) =>
      settle(() => {
        const wanted = rowLimit(limit);
        const summary = db
          .select(columns)
          .from(conversationMessages)
          .where(and(ofSession(sessionId), eq(conversationMessages.role, 'summary')))
          .orderBy(desc(conversationMessages.id))
          .limit(1)
          .get();
        const newest = db
          .select(columns)
          .from(conversationMessages)
          .where(messagesOf(sessionId))
          .orderBy(desc(conversationMessages.id))
          .limit(wanted + 1)
          .all();
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
    append: (sessionId, messages) =>
      settle(() => {
        if (messages.length === 0) return [];
        const createdAt = nowEpochSeconds();
        const values = messages.map((message) => ({
          sessionId,
          role: message.role,
          content: message.content,
          origin: originText(message.origin),
          createdAt,
        }));
        return db
          .insert(conversationMessages)
          .values(values)
          .returning({ id: conversationMessages.id })
          .all()
          .map((row) => row.id)
          .sort((a, b) => a - b);
      }),
    summarise: (sessionId, upTo, summary) =>
      settle(() => {
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
      settle(() => db.delete(conversationMessages).where(ofSession(sessionId)).run().changes),
  };
}
