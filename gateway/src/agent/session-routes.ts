import { z } from 'zod';
import { notFound } from '../errors.ts';
import { defineRoute, type AnyRoute } from '../http/route.ts';
import { noControlChars } from '../http/validation.ts';
import { sessionIdSchema, type ConversationHistory } from '../memory/ports.ts';
import type { ConversationStore } from '../sessions/ports.ts';
import { MAX_TITLE_CHARS, matches, titlesOf } from './session-titles.ts';
import { liveAndStoredSessions } from './stored-session-list.ts';

export interface SessionRouteDeps {
  conversations: ConversationStore;
  /** Sessions' stored history and titles (the memory area's, once it has started). */
  history: () => ConversationHistory;
}

/** Longest `q` of GET /sessions, in characters. */
export const MAX_SESSION_QUERY_CHARS = 200;
/** Messages one page of GET /sessions/{id}/messages holds at most. */
export const MAX_MESSAGES_PAGE = 200;
/** Deepest `offset` of GET /sessions/{id}/messages (counted from the newest message). */
export const MAX_MESSAGES_OFFSET = 10_000;

const booleanQuery = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((value) => value === 'true' || value === '1');

const iso = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString();

/**
 * The sessions routes: the spec's list (with two additions: each session's `title`, and the
 * `q` filter), and beyond the spec a session's stored messages and its rename.
 */
export function sessionRoutes(deps: SessionRouteDeps): AnyRoute[] {
  /** Whether the session is live here or has a stored history. */
  async function known(sessionId: string): Promise<boolean> {
    if (deps.conversations.peek(sessionId)) return true;
    const stored = await deps.history().read(sessionId, 1);
    return stored.messages.length > 0 || stored.summary !== null;
  }

  return [
    defineRoute({
      method: 'get',
      path: '/sessions',
      summary:
        'Live sessions, most recently active first, a page at a time (limit, offset); total counts them all. ' +
        'Beyond the spec: each has a title (its stored one, PATCH /sessions/{session_id}, else the first line of ' +
        'its first message, else null), and q (at most 200 characters) keeps only those whose title or live ' +
        'messages contain it, case-insensitively (total counts those). stored=true also lists the conversations ' +
        'only stored (idle past the live timeout, or from before a restart): one per stored session, with its ' +
        'title, last activity and stored message count, in the same order, page and total; q then also ' +
        'matches their stored messages (a plain substring; on SQLite, case-insensitive for ASCII letters only)',
      tags: ['chat'],
      query: z.object({
        limit: z.coerce
          .number()
          .int()
          .min(1, 'must be 1 to 1000')
          .max(1000, 'must be 1 to 1000')
          .default(100),
        offset: z.coerce.number().int().min(0, 'must be 0 or more').default(0),
        q: z
          .string()
          .max(MAX_SESSION_QUERY_CHARS, `must be at most ${MAX_SESSION_QUERY_CHARS} characters`)
          .check(noControlChars)
          .optional(),
        stored: booleanQuery,
      }),
      response: z.object({
        sessions: z.array(
          z.object({
            id: z.string(),
            message_count: z.number().int(),
            last_active: z.string(),
            title: z.string().nullable(),
          }),
        ),
        total: z.number().int(),
      }),
      handler: async ({ query }) => {
        let live = deps.conversations.list().sort((a, b) => b.lastActive - a.lastActive);
        const q = query.q?.trim();
        if (query.stored)
          return liveAndStoredSessions(deps.history(), live, {
            q: q || null,
            limit: query.limit,
            offset: query.offset,
          });
        let titles: Map<string, string | null>;
        if (q) {
          titles = await titlesOf(deps.history(), live);
          live = live.filter((s) => matches(s, titles.get(s.id) ?? null, q));
        }
        const page = live.slice(query.offset, query.offset + query.limit);
        titles ??= await titlesOf(deps.history(), page);
        return {
          sessions: page.map((s) => ({
            id: s.id,
            message_count: s.messageCount,
            last_active: new Date(s.lastActive).toISOString(),
            title: titles.get(s.id) ?? null,
          })),
          total: live.length,
        };
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/sessions/{session_id}',
      summary:
        'Beyond the spec: rename a session (title, 1 to 200 characters, no control characters); kept across ' +
        'restarts until the session is deleted; 404 for a session neither live nor stored',
      tags: ['chat'],
      params: z.object({ session_id: sessionIdSchema }),
      body: z.strictObject({
        title: z
          .string({ error: 'is required' })
          .check(noControlChars)
          .trim()
          .min(1, 'must not be empty')
          .max(MAX_TITLE_CHARS, `must be at most ${MAX_TITLE_CHARS} characters`),
      }),
      response: z.object({ id: z.string(), title: z.string() }),
      handler: async ({ params, body }) => {
        if (!(await known(params.session_id))) throw notFound(`No session ${params.session_id}`);
        await deps.history().setTitle(params.session_id, body.title);
        return { id: params.session_id, title: body.title };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/sessions/{session_id}/messages',
      summary:
        'Beyond the spec: a session\'s stored conversation, oldest first: role ("user" or "assistant"), text, ' +
        'created_at (ISO 8601); summary is what compaction replaced the older messages with (or null). A page ' +
        'holds the newest limit (1 to 200, default 50) messages before the newest offset (0 to 10000) ones; ' +
        'has_more when older ones exist. 404 for a session neither live nor stored',
      tags: ['chat'],
      params: z.object({ session_id: sessionIdSchema }),
      query: z.object({
        limit: z.coerce
          .number()
          .int()
          .min(1, `must be 1 to ${MAX_MESSAGES_PAGE}`)
          .max(MAX_MESSAGES_PAGE, `must be 1 to ${MAX_MESSAGES_PAGE}`)
          .default(50),
        offset: z.coerce
          .number()
          .int()
          .min(0, `must be 0 to ${MAX_MESSAGES_OFFSET}`)
          .max(MAX_MESSAGES_OFFSET, `must be 0 to ${MAX_MESSAGES_OFFSET}`)
          .default(0),
      }),
      response: z.object({
        session_id: z.string(),
        summary: z.string().nullable(),
        messages: z.array(
          z.object({
            role: z.enum(['user', 'assistant']),
            text: z.string(),
            created_at: z.string(),
          }),
        ),
        has_more: z.boolean(),
      }),
      handler: async ({ params, query }) => {
        const stored = await deps.history().read(params.session_id, query.offset + query.limit);
        if (
          stored.messages.length === 0 &&
          stored.summary === null &&
          !deps.conversations.peek(params.session_id)
        )
          throw notFound(`No session ${params.session_id}`);
        const window = stored.messages.slice(0, Math.max(0, stored.messages.length - query.offset));
        return {
          session_id: params.session_id,
          summary: stored.summary?.content ?? null,
          messages: window.flatMap((message) =>
            message.role === 'summary'
              ? []
              : [
                  {
                    role: message.role,
                    text: message.content,
                    created_at: iso(message.created_at),
                  },
                ],
          ),
          has_more: stored.truncated,
        };
      },
    }),
  ];
}
