import { z } from 'zod';
import { notFound } from '../errors.ts';
import { defineRoute, type AnyRoute } from '../http/route.ts';
import { noControlChars } from '../http/validation.ts';
import type { MemoryService } from './memory-service.ts';
import { memoryOriginSchema, OWNER_ORIGIN } from './origin.ts';
import type { LongTermMemory } from './ports.ts';
import { sessionIdSchema } from './session-id.ts';
import {
  deletedResponse,
  entriesResponse,
  entryId,
  importance,
  limitQuery,
  memoryEntrySchema,
  searchResponse,
  semanticSearchResponse,
} from './schemas.ts';

/** The longest `q` of GET /memory/semantic: it is embedded on every call. */
const SEMANTIC_QUERY_MAX_CHARS = 2_000;

export interface MemoryRouteDeps {
  memory: () => MemoryService;
  longTerm: () => LongTermMemory;
}

/**
 * Memory REST, form A (`/memory/search`, `/memory/entries…`, `/memory/prune`) and form B
 * (`/memory`, `/memory/{id}`, `/memory/session/{id}`; the agent serves `/memory/compact`). Search is a
 * substring match on the long-term store, not semantic. Two routes the spec leaves to the CLI
 * are here too, because only the running gateway holds its tiers (the in-process cache and
 * vector index, the loaded embedding model): `GET /memory/semantic` and `DELETE /memory`
 * (everything, every tier; `confirm=all` required), which `hearth memory search --semantic`
 * and `hearth memory clear` call (README, Deviations from the interface).
 */
export function memoryRoutes(deps: MemoryRouteDeps): AnyRoute[] {
  const search = defineRoute({
    method: 'get',
    path: '/memory/search',
    summary: 'Substring search of the long-term store (form A with session_id; form B full-text)',
    tags: ['memory'],
    query: z.object({
      q: z.string({ error: 'is required' }).min(1, 'must not be empty'),
      limit: limitQuery(20),
      session_id: sessionIdSchema.optional(),
    }),
    response: searchResponse,
    handler: async ({ query }) => {
      const results = await deps
        .longTerm()
        .search(query.q, { limit: query.limit, session_id: query.session_id });
      return { query: query.q, results, count: results.length };
    },
  });

  const requireEntry = async <T>(id: number, found: T | undefined | false): Promise<T> => {
    if (found === undefined || found === false) throw notFound(`Memory entry ${id} not found`);
    return Promise.resolve(found);
  };

  return [
    search,
    defineRoute({
      method: 'get',
      path: '/memory/semantic',
      summary:
        'Semantic retrieval: the long-term rows nearest in meaning to q (503 without an embedding model)',
      tags: ['memory'],
      query: z.object({
        q: z
          .string({ error: 'is required' })
          .trim()
          .min(1, 'must not be empty')
          .max(SEMANTIC_QUERY_MAX_CHARS, 'must be at most 2,000 characters'),
        limit: limitQuery(20),
        session_id: sessionIdSchema.optional(),
      }),
      response: semanticSearchResponse,
      handler: async ({ query }) => {
        const results = await deps
          .memory()
          .searchSemantic(query.q, { limit: query.limit, session_id: query.session_id });
        return { query: query.q, results, count: results.length };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/memory',
      summary: 'Delete every memory from every tier (query confirm=all is required)',
      tags: ['memory'],
      query: z.object({
        confirm: z.literal('all', { error: 'must be "all" to delete every memory' }),
      }),
      response: z.object({
        deleted: z.number().int(),
        long_term: z.number().int(),
        short_term: z.number().int(),
      }),
      handler: async () => {
        const removed = await deps.memory().removeAll();
        return { deleted: removed.long_term + removed.short_term, ...removed };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/memory/entries',
      summary: 'Long-term entries, newest first',
      tags: ['memory'],
      query: z.object({ limit: limitQuery(50) }),
      response: entriesResponse,
      handler: async ({ query }) => {
        const entries = await deps.longTerm().list({ limit: query.limit });
        return { entries, count: entries.length };
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/memory/entries/{id}',
      summary: 'Edit an entry’s content and/or importance (0 to 1)',
      tags: ['memory'],
      params: entryId,
      body: z
        .strictObject({
          content: z.string().trim().min(1, 'must not be empty').optional(),
          importance: importance.optional(),
        })
        .refine(
          (b) => b.content !== undefined || b.importance !== undefined,
          'content or importance is required',
        ),
      response: memoryEntrySchema,
      handler: async ({ params, body }) =>
        requireEntry(
          params.id,
          await deps
            .memory()
            .update(params.id, { content: body.content, importance_score: body.importance }),
        ),
    }),
    defineRoute({
      method: 'delete',
      path: '/memory/entries/{id}',
      summary: 'Delete one entry',
      tags: ['memory'],
      params: entryId,
      response: deletedResponse,
      handler: async ({ params }) => {
        await requireEntry(params.id, (await deps.memory().removeEntries([params.id])) > 0);
        return { deleted: true, id: params.id };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/memory/prune',
      summary: 'Delete entries older than `days` and/or less important than `threshold`',
      tags: ['memory'],
      body: z
        .strictObject({
          days: z.number().int().min(0).optional(),
          threshold: importance.optional(),
        })
        .refine(
          (b) => b.days !== undefined || b.threshold !== undefined,
          'days or threshold is required',
        ),
      response: z.object({
        removed: z.number().int(),
        days: z.number().nullable(),
        threshold: z.number().nullable(),
      }),
      handler: async ({ body }) => ({
        removed: await deps.memory().prune(body),
        days: body.days ?? null,
        threshold: body.threshold ?? null,
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/memory',
      summary: 'Form B: long-term rows filtered by session, tag and type (default limit 50)',
      tags: ['memory'],
      query: z.object({
        session_id: sessionIdSchema.optional(),
        tag: z.string().min(1).optional(),
        type: z.string().min(1).optional(),
        limit: limitQuery(50),
      }),
      response: entriesResponse,
      handler: async ({ query }) => {
        const entries = await deps.longTerm().list(query);
        return { entries, count: entries.length };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/memory',
      summary: 'Form B: store a row',
      tags: ['memory'],
      body: z.strictObject({
        content: z.string().trim().min(1, 'must not be empty'),
        session_id: sessionIdSchema.default('default'),
        importance: importance.default(0.5),
        tags: z.array(z.string().min(1).check(noControlChars)).max(50).default([]),
        type: z.string().min(1).check(noControlChars).default('note'),
        /** Where the text came from; the owner (the caller) when omitted. */
        origin: memoryOriginSchema.optional(),
      }),
      response: memoryEntrySchema,
      handler: ({ body }) =>
        deps.memory().store({
          session_id: body.session_id,
          content: body.content,
          importance_score: body.importance,
          tags: body.tags,
          type: body.type,
          origin: body.origin ?? OWNER_ORIGIN,
        }),
    }),
    defineRoute({
      method: 'delete',
      path: '/memory/session/{id}',
      summary: 'Form B: delete every row of a session (all tiers)',
      tags: ['memory'],
      params: z.object({ id: sessionIdSchema }),
      response: z.object({ deleted: z.number().int(), session_id: z.string() }),
      handler: async ({ params }) => ({
        deleted: await deps.memory().removeSession(params.id),
        session_id: params.id,
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/memory/{id}',
      summary: 'Form B: delete one row',
      tags: ['memory'],
      params: entryId,
      response: deletedResponse,
      handler: async ({ params }) => {
        await requireEntry(params.id, (await deps.memory().removeEntries([params.id])) > 0);
        return { deleted: true, id: params.id };
      },
    }),
  ];
}
