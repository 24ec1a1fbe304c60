import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../http/route.ts';
import {
  MAX_HISTORY_DAYS,
  MAX_HOURLY_DAYS,
  USAGE_HISTORY_RETENTION_DAYS,
  type UsageHistoryRecorder,
} from './usage-history.ts';

const counters = {
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cost_usd: z.number().describe('Priced cost in USD; unpriced generations add nothing'),
  requests: z.number().int().describe('Generations counted'),
  unpriced_requests: z.number().int().describe('Generations whose model has no price'),
};

export const usageHistoryQuery = z
  .object({
    days: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_HISTORY_DAYS)
      .default(7)
      .describe(
        `Days back from now, 1 to ${MAX_HISTORY_DAYS} (hourly buckets: ${MAX_HOURLY_DAYS})`,
      ),
    bucket: z.enum(['hour', 'day']).default('day'),
  })
  .refine((query) => query.bucket === 'day' || query.days <= MAX_HOURLY_DAYS, {
    path: ['days'],
    message: `at most ${MAX_HOURLY_DAYS} with bucket=hour`,
  });

export const usageHistoryResponse = z.object({
  bucket: z.enum(['hour', 'day']),
  days: z.number().int(),
  from: z.number().int().describe('Start of the window, epoch seconds (inclusive)'),
  to: z.number().int().describe('End of the window, epoch seconds (exclusive)'),
  retention_days: z.number().int(),
  points: z.array(
    z.object({
      start: z.number().int().describe('Start of the bucket, epoch seconds (UTC)'),
      provider: z.string(),
      model: z.string(),
      ...counters,
    }),
  ),
  totals: z.object(counters),
});

/** `GET /usage/history`, relative to `/api/v1` (an extension beyond the spec). */
export function usageHistoryRoutes(history: () => UsageHistoryRecorder): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/usage/history',
      summary: `Extension: tokens, cost and generations per provider and model over time, in hour or day buckets (UTC), persisted across restarts for ${USAGE_HISTORY_RETENTION_DAYS} days`,
      tags: ['models'],
      query: usageHistoryQuery,
      response: usageHistoryResponse,
      handler: ({ query }) => history().read(query.days, query.bucket),
    }),
  ];
}
