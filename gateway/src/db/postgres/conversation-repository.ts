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
import type { PostgresDrizzle } from './repositories.ts';
import { storedSessions } from './stored-sessions.ts';
import { conversationMessages, sessionTitles } from './schema.ts';

const { and, desc, eq, gte, inArray, isNotNull, lt, lte, ne, or } = orm;

const columns = {
  id: conversationMessages.id,
  role: conversationMessages.role,
  content: conversationMessages.content,
  origin: conversationMessages.origin,
  created_at: conversationMessages.createdAt,
};

const read = (row: {
  id: number;
  role: StoredHistoryMessage['role'];
  content: string;
  origin: unknown;
  created_at: number;
}): StoredHistoryMessage => ({ ...row, origin: readHistoryOrigin(row.origin) });

export function postgresConversationRepository(db: PostgresDrizzle): ConversationHistoryStore {
  const ofSession = (sessionId: string) => eq(conversationMessages.sessionId, sessionId);
  const messagesOf = (sessionId: string) =>
    and(ofSession(sessionId), ne(conversationMessages.role, 'summary'));

  return {
    async load(sessionId, limit) {
      const wanted = rowLimit(limit);
      const [summaries, newest] = await Promise.all([
        db
          .select(columns)
          .from(conversationMessages)
          .where(and(ofSession(sessionId), eq(conversationMessages.role, 'summary')))
          .orderBy(desc(conversationMessages.id))
          .limit(1),
        db
          .select(columns)
          .from(conversationMessages)
          .where(messagesOf(sessionId))
          .orderBy(desc(conversationMessages.id))
          .limit(wanted + 1),
      ]);
      const kept = newest.slice(0, wanted);
      let earlier: (MemoryOrigin | null)[] = [];
      if (newest.length > wanted) {
        const oldestKept = kept.at(-1)?.id;
        const rows = await db
          .selectDistinct({ origin: conversationMessages.origin })
          .from(conversationMessages)
          .where(
            and(
              messagesOf(sessionId),
              isNotNull(conversationMessages.origin),
              oldestKept === undefined ? undefined : lt(conversationMessages.id, oldestKept),
            ),
          )
          .limit(EARLIER_ORIGINS);
        earlier = rows.map((row) => readHistoryOrigin(row.origin));
      }
      const summary = summaries[0];
      return {
        summary: summary === undefined ? null : read(summary),
        messages: kept.reverse().map(read),
        truncated: newest.length > wanted,
        earlier: earlier.filter((origin): origin is MemoryOrigin => isUntrusted(origin)),
      };
    },
    async append(sessionId, messages) {
      if (messages.length === 0) return [];
      const createdAt = nowEpochSeconds();
      const values = messages.map((message) => ({
        sessionId,
        role: message.role,
        content: message.content,
        origin: storedHistoryOrigin(message.origin),
        createdAt,
      }));
      const rows = await db
        .insert(conversationMessages)
        .values(values)
        .returning({ id: conversationMessages.id });
      return rows.map((row) => Number(row.id)).sort((a, b) => a - b);
    },
    async summarise(sessionId, upTo, summary) {
      const origin = storedHistoryOrigin(summary.origin);
      await db.transaction(async (tx) => {
        await tx
          .delete(conversationMessages)
          .where(
            and(
              ofSession(sessionId),
              or(
                eq(conversationMessages.role, 'summary'),
                lte(conversationMessages.id, Math.floor(upTo)),
              ),
            ),
          );
        await tx.insert(conversationMessages).values({
          sessionId,
          role: 'summary',
          content: summary.content,
          origin,
          createdAt: nowEpochSeconds(),
        });
      });
    },
    async clear(sessionId) {
      return db.transaction(async (tx) => {
        await tx.delete(sessionTitles).where(eq(sessionTitles.sessionId, sessionId));
        const rows = await tx
          .delete(conversationMessages)
          .where(ofSession(sessionId))
          .returning({ id: conversationMessages.id });
        return rows.length;
      });
    },
    async dropLastExchange(sessionId) {
      return db.transaction(async (tx) => {
        const [last] = await tx
          .select({ id: conversationMessages.id })
          .from(conversationMessages)
          .where(and(ofSession(sessionId), eq(conversationMessages.role, 'user')))
          .orderBy(desc(conversationMessages.id))
          .limit(1);
        if (last === undefined) return 0;
        const rows = await tx
          .delete(conversationMessages)
          .where(and(messagesOf(sessionId), gte(conversationMessages.id, last.id)))
          .returning({ id: conversationMessages.id });
        return rows.length;
      });
    },
    async titles(sessionIds) {
      const titles = new Map<string, string>();
      if (sessionIds.length === 0) return titles;
      const rows = await db
        .select({ id: sessionTitles.sessionId, title: sessionTitles.title })
        .from(sessionTitles)
        .where(inArray(sessionTitles.sessionId, [...sessionIds]));
      for (const row of rows) titles.set(row.id, row.title);
      return titles;
    },
    async setTitle(sessionId, title) {
      const updatedAt = nowEpochSeconds();
      await db
        .insert(sessionTitles)
        .values({ sessionId, title, updatedAt })
        .onConflictDoUpdate({ target: sessionTitles.sessionId, set: { title, updatedAt } });
    },
    sessions: (query) => storedSessions(db, query),
  };
}
