import { z } from 'zod';
import type { PendingApproval } from '../ports.ts';
import { untrustedSourceSchema } from '../untrusted-sources.ts';
import type { BoardDecision, ClaimedApproval, Verdict } from './ports.ts';

/** What other gateways write to Redis is read through these schemas, never trusted as is. */
const approvalSchema = z.object({
  id: z.string().min(1),
  tool_name: z.string(),
  command: z.string(),
  arguments: z.object({ command: z.string(), timeout: z.number(), workdir: z.string() }),
  session_id: z.string(),
  created_at: z.number(),
  untrusted_sources: z.array(untrustedSourceSchema).optional(),
});
const entrySchema = z.object({ approval: approvalSchema, owner: z.string().min(1) });
const decisionSchema = z.enum(['approved', 'denied']);
const verdictSchema = z.object({
  id: z.string().min(1),
  decision: decisionSchema,
  always_allowed: z.boolean(),
});

function parseJson<T>(schema: z.ZodType<T>, text: unknown): T | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export const encodeEntry = (approval: PendingApproval, owner: string): string =>
  JSON.stringify({ approval, owner } satisfies ClaimedApproval);

export const parseEntry = (text: unknown): ClaimedApproval | undefined =>
  parseJson(entrySchema, text);

export const parseVerdict = (text: unknown): Verdict | undefined => parseJson(verdictSchema, text);

export const parseDecision = (text: unknown): BoardDecision | undefined => {
  const parsed = decisionSchema.safeParse(text);
  return parsed.success ? parsed.data : undefined;
};

/** Oldest first by created_at; a stable sort keeps the given order among equal seconds. */
export const oldestFirst = (approvals: PendingApproval[]): PendingApproval[] =>
  approvals.sort((a, b) => a.created_at - b.created_at);
