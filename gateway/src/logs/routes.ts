import { defineRoute, type AnyRoute } from '../http/route.ts';
import type { LogTail } from '../observability/log-tail.ts';
import { logsQuery, logsResponse } from './schemas.ts';

/** `GET /logs`: the newest lines of the gateway's own log (relative to `/api/v1`). */
export function logsRoutes(tail: LogTail | undefined): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/logs',
      summary: 'The newest lines of the gateway log, oldest first (live: the /ws/logs socket)',
      tags: ['status'],
      query: logsQuery,
      response: logsResponse,
      handler: ({ query }) => ({
        available: tail !== undefined,
        lines: tail?.recent(query.limit) ?? [],
      }),
    }),
  ];
}
