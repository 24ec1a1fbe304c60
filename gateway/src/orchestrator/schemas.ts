import { z } from 'zod';
import { noControlChars } from '../http/validation.ts';
import { resolveModel } from '../providers/ports.ts';

/** Node names: what the paths `/orchestrator/nodes/{name}` and the namespaces carry. */
export const NODE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export const NODE_NAME_RULE =
  'must be 1 to 64 characters: a lower-case letter or digit, then lower-case letters, digits, "_" or "-"';
export const nodeName = z.string().regex(NODE_NAME, NODE_NAME_RULE);
export const nameParams = z.strictObject({ name: nodeName });

/** Task types and channels: short lower-cased words. */
const token = z
  .string()
  .check(noControlChars)
  .trim()
  .toLowerCase()
  .regex(
    /^[\p{L}\p{N}][\p{L}\p{N}._-]{0,31}$/u,
    'must be 1 to 32 letters, digits, ".", "_" or "-", starting with a letter or digit',
  );
const keyword = z
  .string()
  .check(noControlChars)
  .transform((value) => value.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase())
  .pipe(z.string().min(1, 'must not be blank').max(64, 'must be at most 64 characters'));
const unique = <T>(values: T[]): T[] => [...new Set(values)];

/** A model id the catalog knows, checked like POST /settings/model's `model`. */
export const modelOverride = z
  .string()
  .check(noControlChars)
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  .superRefine((id, ctx) => {
    if (resolveModel(id) === undefined)
      ctx.addIssue({
        code: 'custom',
        message: `no provider for model id '${id}' (its prefix names none of the 19 providers; see GET /models)`,
      });
  });

const fields = {
  model_override: modelOverride,
  enabled: z.boolean(),
  priority: z.number().int('must be an integer').min(-1000).max(1000),
  keywords: z.array(keyword).max(50, 'at most 50 keywords').transform(unique),
  channels: z.array(token).max(20, 'at most 20 channels').transform(unique),
  task_types: z.array(token).max(20, 'at most 20 task types').transform(unique),
  system_prompt: z.string().max(8000, 'must be at most 8000 characters').nullable(),
};

/** POST /orchestrator/nodes. */
export const createBody = z.strictObject({
  name: nodeName,
  model_override: fields.model_override,
  enabled: fields.enabled.default(true),
  priority: fields.priority.default(0),
  keywords: fields.keywords.default([]),
  channels: fields.channels.default([]),
  task_types: fields.task_types.default([]),
  system_prompt: fields.system_prompt.default(null),
});

/** PATCH /orchestrator/nodes/{name}: any field but the name, at least one. */
export const patchBody = z
  .strictObject({
    model_override: fields.model_override.optional(),
    enabled: fields.enabled.optional(),
    priority: fields.priority.optional(),
    keywords: fields.keywords.optional(),
    channels: fields.channels.optional(),
    task_types: fields.task_types.optional(),
    system_prompt: fields.system_prompt.optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    message: 'at least one field to change is required',
  });

export const nodeRecord = z.object({
  name: z.string(),
  model_override: z.string(),
  /** The provider the model id selects. */
  provider: z.string(),
  enabled: z.boolean(),
  priority: z.number().int(),
  keywords: z.array(z.string()),
  channels: z.array(z.string()),
  task_types: z.array(z.string()),
  system_prompt: z.string().nullable(),
  /** The node's memory namespace. */
  namespace: z.string(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});

export const nodesResponse = z.object({ nodes: z.array(nodeRecord), count: z.number().int() });
export const removedResponse = z.object({
  name: z.string(),
  removed: z.literal(true),
  /** Rows of its memory namespace removed with it. */
  memory_cleared: z.number().int(),
});

/** POST /orchestrator/route. */
export const routeBody = z.strictObject({
  task_type: token.optional(),
  channel: token.optional(),
  content: z
    .string()
    .max(32_000, 'must be at most 32000 characters')
    .check(noControlCharsExceptWhitespace())
    .optional(),
});

/** Content may hold tabs and line breaks, never other control characters. */
function noControlCharsExceptWhitespace() {
  return z.refine<string>(
    // eslint-disable-next-line no-control-regex
    (value) => !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(value),
    'must not contain control characters other than tab and line breaks',
  );
}

const usage = z.object({
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  total_tokens: z.number().int(),
});

export const routeResponse = z.object({
  node: z.string(),
  model: z.string(),
  provider: z.string(),
  /** The generated reply; a placeholder saying so when nothing was generated. */
  text: z.string(),
  /** False: no router (the CLI's local fallback), `text` is a placeholder. */
  generated: z.boolean(),
  usage: usage.nullable(),
  /** Estimated cost of this generation; null when unpriced or not generated. */
  cost_usd: z.number().nullable(),
  latency_ms: z.number().nullable(),
  score: z.number().int(),
  matched_keywords: z.array(z.string()),
  /** Every candidate, best first. */
  candidates: z.array(z.string()),
  task_type: z.string().nullable(),
  channel: z.string().nullable(),
});

const counters = z.object({
  requests: z.number().int(),
  errors: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  last_routed_at: z.number().nullable(),
});

export const statusResponse = z.object({
  healthy: z.boolean(),
  /** A router exists: routed tasks generate real responses. */
  router_available: z.boolean(),
  nodes_total: z.number().int(),
  nodes_enabled: z.number().int(),
  requests_total: z.number().int(),
  errors_total: z.number().int(),
  no_match_total: z.number().int(),
  nodes: z.array(
    counters.extend({
      name: z.string(),
      enabled: z.boolean(),
      model_override: z.string(),
    }),
  ),
});

const namespaceStats = z.object({
  node: z.string(),
  namespace: z.string(),
  entries: z.number().int(),
  /** Epoch seconds of the newest row; null when empty. */
  last_active: z.number().nullable(),
});
export const namespaceResponse = namespaceStats;
export const namespaceClearedResponse = z.object({
  node: z.string(),
  namespace: z.string(),
  cleared: z.number().int(),
});
export const namespacesResponse = z.object({
  namespaces: z.array(namespaceStats),
  count: z.number().int(),
  total_entries: z.number().int(),
  /** Namespaces holding at least one row. */
  non_empty: z.number().int(),
});
