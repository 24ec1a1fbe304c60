import type { ConversationHistory, Conversation } from '../memory/ports.ts';
import type { SessionState } from '../sessions/ports.ts';

/** Longest session title (PATCH /sessions/{id}), in characters. */
export const MAX_TITLE_CHARS = 200;
/** Characters of the first user message a default title keeps. */
export const DERIVED_TITLE_CHARS = 60;
/** Session ids asked for their stored titles in one query. */
const TITLE_BATCH = 500;

/** A session's default title: the first line of its first user message, shortened; else null. */
export function derivedTitle(conversation: Conversation): string | null {
  const first = conversation.history.find((message) => message.role === 'user');
  const line = first?.content.trim().split('\n')[0]?.trim();
  if (!line) return null;
  return line.length > DERIVED_TITLE_CHARS ? `${line.slice(0, DERIVED_TITLE_CHARS - 1)}…` : line;
}

/** The title of each session: its stored one, else the one derived from its first message. */
export async function titlesOf(
  history: ConversationHistory,
  sessions: readonly SessionState[],
): Promise<Map<string, string | null>> {
  const stored = new Map<string, string>();
  for (let i = 0; i < sessions.length; i += TITLE_BATCH) {
    const batch = sessions.slice(i, i + TITLE_BATCH).map((session) => session.id);
    for (const [id, title] of await history.titles(batch)) stored.set(id, title);
  }
  return new Map(
    sessions.map((session) => [
      session.id,
      stored.get(session.id) ?? derivedTitle(session.conversation),
    ]),
  );
}

/** Whether the session's title or one of its live messages contains `q` (case-insensitive). */
export function matches(session: SessionState, title: string | null, q: string): boolean {
  const needle = q.toLowerCase();
  if (title?.toLowerCase().includes(needle)) return true;
  return session.conversation.history.some(
    (message) =>
      (message.role === 'user' || message.role === 'assistant') &&
      message.content.toLowerCase().includes(needle),
  );
}
