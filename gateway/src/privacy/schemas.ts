import { z } from 'zod';

export const sessionQuery = z.object({
  session_id: z
    .string()
    .min(1)
    .optional()
    .describe('Only this session; without it, every session (including unattributed requests)'),
});

export const egressEntrySchema = z.object({
  session_id: z.string().nullable(),
  method: z.string(),
  url: z.string().describe('Userinfo removed, secret-bearing query values redacted'),
  destination: z.string().describe('Host, with the port only when it is not the default'),
  timestamp: z.number().describe('Epoch seconds'),
  source: z
    .string()
    .nullable()
    .describe('null: the gateway itself; `skill:<name>`: made by the gateway for that skill'),
  refused: z
    .string()
    .nullable()
    .describe(
      'Why the gateway refused to make the request (nothing was sent); null if it was made',
    ),
});

export const auditReportResponse = z.object({
  session_id: z.string().nullable(),
  total: z.number().int(),
  unique_destinations: z.array(z.string()),
  entries: z.array(egressEntrySchema).describe('Newest first, at most 1000; total counts all'),
});

export const clearResultResponse = z.object({
  cleared: z.number().int(),
  session_id: z.string().nullable(),
});
