import { join } from 'node:path';
import { z } from 'zod';

/**
 * Where the predecessor keeps things under its state directory (`~/.neuralcleave`), as its
 * public source lays them out: `config.toml`, the long-term store `memory.db` (SQLite, table
 * `memory_entries`), `skills/<name>/skill.py`, `push_subscriptions.json`.
 */
export function sourceLayout(source: string) {
  return {
    config: join(source, 'config.toml'),
    memoryDb: join(source, 'memory.db'),
    skillsDir: join(source, 'skills'),
    pushSubscriptions: join(source, 'push_subscriptions.json'),
  };
}

/** A row of the predecessor's `memory_entries` (timestamps are ISO-8601 UTC text). */
export const memoryRowSchema = z.object({
  id: z.number().int(),
  session_id: z.string(),
  content: z.string(),
  importance_score: z.number(),
  memory_type: z.string(),
  /** Comma-separated. */
  tags: z.string(),
  created_at: z.string(),
});
export type PredecessorMemoryRow = z.infer<typeof memoryRowSchema>;

/** One entry of `push_subscriptions.json` (the file maps subscription id → subscription). */
export const predecessorPushSubscriptionSchema = z.object({
  /** Push services are reached over https only. */
  endpoint: z.url({ protocol: /^https$/ }),
  p256dh: z.string(),
  auth: z.string(),
  user_agent: z.string().optional(),
  created_at: z.string().optional(),
});
