import type { StoredSessionSummary, StoredSessionsQuery } from '../../memory/ports.ts';
import { orm } from '../drizzle.ts';
import { rowLimit } from '../memory-rows.ts';
import { containsPattern, FIRST_TEXT_CHARS } from '../session-list.ts';
import type { PostgresDrizzle } from './repositories.ts';
import { conversationMessages as m, sessionTitles as t } from './schema.ts';

const { and, desc, eq, inArray, max, ne, or, sql, countDistinct } = orm;

/** Ids as one JSON parameter, so ten thousand live sessions stay one parameter. */
const among = (ids: readonly string[]) =>
  sql`${m.sessionId} in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`;

/**
 * The sessions with stored rows, grouped on `conversation_messages_session_idx` (session_id,
 * id): newest first by their newest row's id.
 */
export async function storedSessions(
  db: PostgresDrizzle,
  query: StoredSessionsQuery,
): Promise<{ sessions: StoredSessionSummary[]; total: number; liveMatching: string[] }> {
  const limit = rowLimit(query.limit);
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
              .where(and(ne(m.role, 'summary'), sql`${m.content} ilike ${pattern}`)),
          ),
          inArray(
            m.sessionId,
            db
              .select({ id: t.sessionId })
              .from(t)
              .where(sql`${t.title} ilike ${pattern}`),
          ),
        );
  const where = and(sql`not (${among(query.live)})`, matching);
  const [rows, counted, liveMatching] = await Promise.all([
    db
      .select({
        id: m.sessionId,
        lastActive: max(m.createdAt),
        messageCount: sql<number>`count(*) filter (where ${m.role} = 'user')`.mapWith(Number),
        title: max(t.title),
      })
      .from(m)
      .leftJoin(t, eq(t.sessionId, m.sessionId))
      .where(where)
      .groupBy(m.sessionId)
      .orderBy(desc(max(m.id)))
      .limit(limit),
    db
      .select({ n: countDistinct(m.sessionId) })
      .from(m)
      .where(where),
    matching === undefined || query.live.length === 0
      ? Promise.resolve([])
      : db
          .selectDistinct({ id: m.sessionId })
          .from(m)
          .where(and(among(query.live), matching)),
  ]);
  const ids = rows.map((row) => row.id);
  const first = new Map<string, string>();
  if (ids.length > 0) {
    const firstIds = db
      .select({ id: sql<number>`min(${m.id})` })
      .from(m)
      .where(and(among(ids), eq(m.role, 'user')))
      .groupBy(m.sessionId);
    for (const row of await db
      .select({ id: m.sessionId, text: sql<string>`left(${m.content}, ${FIRST_TEXT_CHARS})` })
      .from(m)
      .where(inArray(m.id, firstIds)))
      first.set(row.id, row.text);
  }
  return {
    sessions: rows.map((row) => ({
      id: row.id,
      title: row.title,
      firstUserText: first.get(row.id) ?? null,
      lastActive: Number(row.lastActive ?? 0),
      messageCount: Number(row.messageCount),
    })),
    total: Number(counted[0]?.n ?? 0),
    liveMatching: liveMatching.map((row) => row.id),
  };
}
