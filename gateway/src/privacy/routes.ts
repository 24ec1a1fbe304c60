import { defineRoute, type AnyRoute } from '../http/route.ts';
import type { AuditStore } from './audit-store.ts';
import { auditReportResponse, clearResultResponse, sessionQuery } from './schemas.ts';

/** `GET` and `DELETE /privacy/report`, relative to `/api/v1`. */
export function privacyRoutes(store: Pick<AuditStore, 'report' | 'clear'>): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/privacy/report',
      summary: 'Outbound-HTTP audit report of one session, or of all without session_id',
      tags: ['privacy'],
      query: sessionQuery,
      response: auditReportResponse,
      handler: ({ query }) => store.report(query.session_id ?? null),
    }),
    defineRoute({
      method: 'delete',
      path: '/privacy/report',
      summary: 'Clears the audit entries of one session, or of all without session_id',
      tags: ['privacy'],
      query: sessionQuery,
      response: clearResultResponse,
      handler: ({ query }) => store.clear(query.session_id ?? null),
    }),
  ];
}
