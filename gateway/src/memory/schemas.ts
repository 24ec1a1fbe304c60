import { z } from 'zod';
import { memoryOriginSchema } from './origin.ts';

export const memoryEntrySchema = z.object({
  id: z.number().int(),
  session_id: z.string(),
  content: z.string(),
  content_hash: z.string(),
  importance_score: z.number().min(0).max(1),
  tags: z.array(z.string()),
  type: z.string(),
  created_at: z.number(),
  updated_at: z.number(),
  /** Additive: where what the row was made from came from (`untrusted` rows name their sources). */
  origin: memoryOriginSchema,
});

export const entryId = z.object({
  id: z.coerce
    .number({ error: 'must be an integer id' })
    .int('must be an integer id')
    .positive('must be a positive id'),
});
export const limitQuery = (fallback: number) =>
  z.coerce.number().int().min(1).max(1000).default(fallback);
export const importance = z
  .number()
  .min(0, 'must be between 0 and 1')
  .max(1, 'must be between 0 and 1');

export const searchResponse = z.object({
  query: z.string(),
  results: z.array(memoryEntrySchema),
  count: z.number().int(),
});
export const entriesResponse = z.object({
  entries: z.array(memoryEntrySchema),
  count: z.number().int(),
});
export const deletedResponse = z.object({ deleted: z.boolean(), id: z.number().int() });

/** A row found by meaning (GET /memory/semantic). */
export const semanticMatchSchema = memoryEntrySchema.extend({
  similarity: z.number(),
  score: z.number(),
});
export const semanticSearchResponse = z.object({
  query: z.string(),
  results: z.array(semanticMatchSchema),
  count: z.number().int(),
});
