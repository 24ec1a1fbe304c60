import type { StoredSessionSummary, StoredSessionsQuery } from '../../memory/ports.ts';
import { orm } from '../drizzle.ts';
import { rowLimit } from '../memory-rows.ts';
import { containsPattern, FIRST_TEXT_CHARS } from '../session-list.ts';
import type { SqliteDrizzle } from './repositories.ts';
import { conversationMessages as m, sessionTitles as t } from './schema.ts';

const { and, desc, eq, inArray, max, ne, or, sql, countDistinct } = orm;

/**
 * The sessions with stored rows, grouped on `conversation_messages_session_idx` (session_id,
 * id): newest first by their newest row's id. Ids arrive as one JSON array (json_each), so
 * ten thousand live sessions stay one parameter.
 */
export function storedSessions(
  db: SqliteDrizzle,
  query: StoredSessionsQuery,
): { sessions: StoredSessionSummary[]; total: number; liveMatching: string[] } {
  const limit = rowLimit(query.limit);
  const live = JSON.stringify(query.live);
  const inLive = sql`${m.sessionId} in (select value from json_each(${live}))`;
  const pattern = query.q === null ? null : containsPattern(query.q);
  const matching =
    pattern === null
      ? undefined
      : or(
          inArray(
            m.sessionId,
            db
              .select({ id: m.sessionId })
              .from(m)
              .where(and(ne(m.role, 'summary'), sql`${m.content} like ${pattern} escape '\\'`)),
          ),
          inArray(
            m.sessionId,
            db
              .select({ id: t.sessionId })
              .from(t)
              .where(sql`${t.title} like ${pattern} escape '\\'`),
          ),
        );
  const where = and(sql`not (${inLive})`, matching);
  const newest = max(m.id);
  const rows = db
    .select({
      id: m.sessionId,
      lastActive: max(m.createdAt),
      messageCount: sql<number>`sum(case when ${m.role} = 'user' then 1 else 0 end)`,
      title: max(t.title),
    })
    .from(m)
    .leftJoin(t, eq(t.sessionId, m.sessionId))
    .where(where)
    .groupBy(m.sessionId)
    .orderBy(desc(newest))
    .limit(limit)
    .all();
  const total =
    db
      .select({ n: countDistinct(m.sessionId) })
      .from(m)
      .where(where)
      .get()?.n ?? 0;
  const ids = rows.map((row) => row.id);
  const first = new Map<string, string>();
  if (ids.length > 0) {
    const firstIds = db
      .select({ id: sql<number>`min(${m.id})` })
      .from(m)
      .where(
        and(
          sql`${m.sessionId} in (select value from json_each(${JSON.stringify(ids)}))`,
          eq(m.role, 'user'),
        ),
      )
      .groupBy(m.sessionId);
    for (const row of db
      .select({ id: m.sessionId, text: sql<string>`substr(${m.content}, 1, ${FIRST_TEXT_CHARS})` })
      .from(m)
      .where(inArray(m.id, firstIds))
      .all())
      first.set(row.id, row.text);
  }
  const liveMatching =
    matching === undefined || query.live.length === 0
      ? []
      : db
          .selectDistinct({ id: m.sessionId })
          .from(m)
          .where(and(inLive, matching))
          .all()
          .map((row) => row.id);
  return {
    sessions: rows.map((row) => ({
      id: row.id,
      title: row.title,
      firstUserText: first.get(row.id) ?? null,
      lastActive: Number(row.lastActive ?? 0),
      messageCount: Number(row.messageCount),
    })),
    total,
    liveMatching,
  };
}
