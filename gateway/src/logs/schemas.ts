import { z } from 'zod';

export const logLineSchema = z.object({
  time: z.string(),
  level: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal']),
  msg: z.string(),
  area: z.string().optional(),
});

export const logsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1_000).default(100),
});

export const logsResponse = z.object({
  /** False when this gateway's logger keeps no tail (embedded use): `lines` is then empty. */
  available: z.boolean(),
  lines: z.array(logLineSchema),
});
