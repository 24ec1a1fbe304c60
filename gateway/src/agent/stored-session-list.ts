import type { ConversationHistory } from '../memory/ports.ts';
import type { SessionState } from '../sessions/ports.ts';
import { derivedTitle, matches, titlesOf } from './session-titles.ts';

/** One item of GET /sessions. */
export interface SessionListItem {
  id: string;
  message_count: number;
  last_active: string;
  title: string | null;
}

/**
 * GET /sessions?stored=true: the live sessions and those only stored (`conversation_messages`),
 * most recently active first, one page; total counts them all. A live session is listed from
 * memory; with `q` it matches on its live messages or its stored ones.
 */
export async function liveAndStoredSessions(
  history: ConversationHistory,
  liveSessions: readonly SessionState[],
  page: { q: string | null; limit: number; offset: number },
): Promise<{ sessions: SessionListItem[]; total: number }> {
  const end = Math.min(page.offset + page.limit, Number.MAX_SAFE_INTEGER);
  const stored = await history.sessions({
    q: page.q,
    live: liveSessions.map((session) => session.id),
    limit: end,
  });
  let live = [...liveSessions];
  const titles = await titlesOf(history, live);
  const q = page.q;
  if (q !== null) {
    const storedMatch = new Set(stored.liveMatching);
    live = live.filter((s) => storedMatch.has(s.id) || matches(s, titles.get(s.id) ?? null, q));
  }
  const merged = [
    ...live.map((s) => ({
      at: s.lastActive,
      item: {
        id: s.id,
        message_count: s.messageCount,
        last_active: new Date(s.lastActive).toISOString(),
        title: titles.get(s.id) ?? null,
      },
    })),
    ...stored.sessions.map((s) => ({
      at: s.lastActive * 1000,
      item: {
        id: s.id,
        message_count: s.messageCount,
        last_active: new Date(s.lastActive * 1000).toISOString(),
        title:
          s.title ??
          derivedTitle({
            history: s.firstUserText === null ? [] : [{ role: 'user', content: s.firstUserText }],
            summary: null,
          }),
      },
    })),
  ].sort((a, b) => b.at - a.at);
  return {
    sessions: merged.slice(page.offset, end).map((entry) => entry.item),
    total: live.length + stored.total,
  };
}
