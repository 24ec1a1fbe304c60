import { z } from 'zod';

export const healthResponse = z.object({
  status: z.literal('ok'),
  version: z.string(),
  agent: z.string(),
});

export const readinessResponse = z.object({
  ready: z.boolean(),
  checks: z.object({
    phase: z.boolean(),
    runtime: z.boolean(),
    channel_connected: z.boolean().optional(),
  }),
});

const nullableNumber = z.number().nullable();

export const gatewayStatusResponse = z.object({
  /** Additive (README, deviations): can a model answer, and if not, what to do next. */
  model_ready: z.object({ ok: z.boolean(), detail: z.string(), fix: z.string() }),
  status: z.enum(['ok', 'starting', 'failed']),
  version: z.string(),
  uptime_seconds: z.number(),
  active_sessions: z.number().int(),
  runtime_available: z.boolean(),
  init_phase: z.string(),
  init_error: z.string().nullable(),
  voice: z.object({
    stt_available: z.boolean(),
    tts_available: z.boolean(),
    wake_word_active: z.boolean(),
  }),
  host: z.object({
    cpu_percent: nullableNumber,
    memory_rss_bytes: nullableNumber,
    disk_usage_percent: nullableNumber,
    disk_free_bytes: nullableNumber,
  }),
  memory: z.object({ semantic_available: z.boolean().nullable() }),
  backends: z.record(z.string(), z.string()),
  /** Each optional feature (local embeddings, voice): "on", or "off (how to turn it on)". */
  features: z.record(z.string(), z.string()),
});

export const metricsSnapshotResponse = z.record(
  z.string(),
  z.object({
    type: z.enum(['counter', 'gauge']),
    description: z.string().optional(),
    values: z.record(z.string(), z.number()),
  }),
);
