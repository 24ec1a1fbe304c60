import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../http/route.ts';
import { sessionIdSchema } from '../memory/ports.ts';
import type { ChatPipeline } from './pipeline.ts';

/** `POST /memory/compact` (form B): the agent compacts a live session's history now. */
export function compactRoute(pipeline: () => ChatPipeline): AnyRoute {
  return defineRoute({
    method: 'post',
    path: '/memory/compact',
    summary: 'Compact a session’s conversation now (summary stored long-term)',
    tags: ['memory'],
    body: z.strictObject({
      session_id: sessionIdSchema.default('default'),
    }),
    response: z.object({ compacted: z.boolean(), session_id: z.string() }),
    handler: async ({ body }) => ({
      compacted: await pipeline().compactSession(body.session_id),
      session_id: body.session_id,
    }),
  });
}
