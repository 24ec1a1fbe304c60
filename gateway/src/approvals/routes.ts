import { posix } from 'node:path';
import { z } from 'zod';
import type { AllowlistEntry, AllowlistRepository } from '../db/ports.ts';
import { HearthError, notFound, validationError } from '../errors.ts';
import { defineRoute, type AnyRoute } from '../http/route.ts';
import { noControlChars, parseRequestPart } from '../http/validation.ts';
import { entryNote } from './command-analysis/always-rule.ts';
import { argPatternProblem } from './command-analysis/match-allowlist.ts';
import type { DecisionTokens } from './decision-tokens.ts';
import { untrustedSourceSchema } from './untrusted-sources.ts';
import { DENIED_TEXT, type ApprovalPolicy, type ApprovalService } from './ports.ts';

const pendingSchema = z.object({
  id: z.string(),
  tool_name: z.string(),
  command: z.string(),
  arguments: z.object({ command: z.string(), timeout: z.number().int(), workdir: z.string() }),
  session_id: z.string(),
  created_at: z.number(),
  /** Epoch seconds: when it is denied unless decided first (beyond the spec, additive). */
  expires_at: z.number(),
  untrusted_sources: z.array(untrustedSourceSchema).optional(),
});
const entrySchema = z.object({
  id: z.number().int(),
  pattern: z.string(),
  arg_pattern: z.string().nullable(),
  directory: z.string().nullable(),
  created_at: z.number(),
  /**
   * Why the entry allows only one exact command: its program can run other code (the note
   * `approve … always` gives such an entry); null otherwise. Beyond the spec, additive.
   */
  note: z.string().nullable(),
});

/** An entry as the routes show it, with its note. */
const shown = (entry: AllowlistEntry) => ({ ...entry, note: entryNote(entry) });
const policySchema = z.object({
  security: z.enum(['deny', 'allowlist', 'full']),
  ask: z.enum(['off', 'on-miss', 'always']),
  require_shell_approval: z.boolean().nullable(),
});

export interface ApprovalRouteDeps {
  approvals: () => ApprovalService;
  allowlist: () => AllowlistRepository;
  policy: ApprovalPolicy;
  /** False until the gate is built: the policy then reports require_shell_approval null. */
  gateReady: () => boolean;
  /** How long an approval stays pending, in milliseconds. */
  expiryMs: number;
  /** Persists a policy change into [security] of config.toml. */
  persistPolicy: (policy: ApprovalPolicy) => Promise<void>;
  /** The tokens a push carries for its Approve and Deny actions. */
  decisionTokens: DecisionTokens;
}

const tokenDecisionBody = z.strictObject({
  decision: z.enum(['approve', 'deny']),
  token: z.string().min(1).max(100),
});

function parseJsonBody(raw: Buffer | undefined): unknown {
  try {
    return JSON.parse((raw ?? Buffer.alloc(0)).toString('utf8')) as unknown;
  } catch {
    throw validationError('Malformed JSON in request body');
  }
}

/**
 * arg_patterns run in linear time (RE2, via re2js): one it cannot compile, such as a
 * backreference or a lookaround, is refused with the engine's reason.
 */
const re2Pattern = z.string().superRefine((value, ctx) => {
  const problem = argPatternProblem(value);
  if (problem === null) return;
  ctx.addIssue({
    code: 'custom',
    message: `must be an RE2 regular expression (no backreferences or lookaround): ${problem}`,
  });
});

/** An allowlist entry's directory: absolute and already normalised, so it compares exactly. */
const isDirectoryPath = (dir: string): boolean =>
  dir.startsWith('/') && posix.normalize(dir) === dir && (dir === '/' || !dir.endsWith('/'));

export function approvalRoutes(deps: ApprovalRouteDeps): AnyRoute[] {
  const policyView = () => ({
    security: deps.policy.security,
    ask: deps.policy.ask,
    require_shell_approval: deps.gateReady() ? deps.policy.requireShellApproval : null,
  });
  return [
    defineRoute({
      method: 'get',
      path: '/approvals/pending',
      summary:
        'Gated commands waiting for a decision, on every gateway (each expires at its expires_at, 120 s after created_at)',
      tags: ['approvals'],
      response: z.object({ pending: z.array(pendingSchema) }),
      handler: async () => ({
        pending: (await deps.approvals().pending()).map((approval) => ({
          ...approval,
          expires_at: approval.created_at + deps.expiryMs / 1000,
        })),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/approvals/{approval_id}/approve',
      summary:
        'Approve: the command runs now; always=true also stores an allowlist entry for the program name (only the exact command, with a note saying why, for a program that can run other code)',
      tags: ['approvals'],
      params: z.object({ approval_id: z.string().min(1) }),
      body: z.strictObject({ always: z.boolean().default(false) }).optional(),
      response: z.object({
        approved: z.literal(true),
        id: z.string(),
        always_allowed: z.boolean(),
        /** The entry `always` stored (beyond the spec, additive). */
        allowlist_entry: entrySchema.optional(),
        /** Why the entry is narrower than the program name, or why none was stored. */
        always_note: z.string().optional(),
      }),
      handler: ({ params, body }) =>
        deps.approvals().approve(params.approval_id, body?.always ?? false),
    }),
    defineRoute({
      method: 'post',
      path: '/approvals/{approval_id}/deny',
      summary: `Deny: the agent gets "${DENIED_TEXT}"`,
      tags: ['approvals'],
      params: z.object({ approval_id: z.string().min(1) }),
      response: z.object({ denied: z.literal(true), id: z.string() }),
      handler: ({ params }) => deps.approvals().deny(params.approval_id),
    }),
    defineRoute({
      method: 'post',
      path: '/approvals/{approval_id}/decide',
      summary:
        'Approve or deny with the decision token a push notification carried (no X-API-Key: the token, HMAC-bound to this approval and decision, single use, expiring with the approval, is the credential)',
      tags: ['approvals'],
      params: z.object({ approval_id: z.string().min(1).max(100) }),
      body: tokenDecisionBody,
      webhook: { limitBytes: 1024 },
      response: z.union([
        z.object({ approved: z.literal(true), id: z.string(), always_allowed: z.boolean() }),
        z.object({ denied: z.literal(true), id: z.string() }),
      ]),
      handler: async ({ params, rawBody, headers }) => {
        // JSON only: a cross-site form or "simple" request cannot send it without a preflight.
        if (!/^application\/json\s*(;|$)/i.test(headers['content-type'] ?? ''))
          throw validationError('Content-Type must be application/json');
        const body = parseRequestPart(tokenDecisionBody, parseJsonBody(rawBody), 'body');
        if (!deps.decisionTokens.redeem(params.approval_id, body.decision, body.token))
          throw new HearthError(
            'forbidden',
            'The decision token is not valid for this approval and decision (forged, expired or already used)',
          );
        return body.decision === 'approve'
          ? deps.approvals().approve(params.approval_id, false)
          : deps.approvals().deny(params.approval_id);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/approvals/allowlist',
      summary: 'Allowlist entries (glob on the program name, optional regex on the command line)',
      tags: ['approvals'],
      response: z.object({ entries: z.array(entrySchema), count: z.number().int() }),
      handler: async () => {
        const entries = (await deps.allowlist().list()).map(shown);
        return { entries, count: entries.length };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/approvals/allowlist',
      summary: 'Add an allowlist entry',
      tags: ['approvals'],
      body: z.strictObject({
        pattern: z
          .string()
          .check(noControlChars)
          .trim()
          .min(1, 'must not be empty')
          .max(200)
          .regex(
            /^(?:[^\s/]+|mcp:[A-Za-z][A-Za-z0-9-]{0,31}\/[^\s/]+)$/,
            'a program name or glob without spaces or slashes, or mcp:<server>/<tool glob>',
          ),
        arg_pattern: z
          .string()
          .check(noControlChars)
          .min(1)
          .max(1000)
          .pipe(re2Pattern)
          .nullable()
          .optional(),
        directory: z
          .string()
          .check(noControlChars)
          .max(4096)
          .refine(
            isDirectoryPath,
            'an absolute, normalised directory path (no trailing slash, no . or ..)',
          )
          .nullable()
          .optional(),
      }),
      response: entrySchema,
      handler: async ({ body }) =>
        shown(
          await deps.allowlist().add({
            pattern: body.pattern,
            arg_pattern: body.arg_pattern ?? null,
            directory: body.directory ?? null,
          }),
        ),
    }),
    defineRoute({
      method: 'delete',
      path: '/approvals/allowlist/{entry_id}',
      summary: 'Remove an allowlist entry',
      tags: ['approvals'],
      params: z.object({ entry_id: z.coerce.number().int().positive() }),
      response: z.object({ deleted: z.literal(true), id: z.number().int() }),
      handler: async ({ params }) => {
        if (!(await deps.allowlist().remove(params.entry_id)))
          throw notFound(`Allowlist entry ${params.entry_id} not found`);
        return { deleted: true as const, id: params.entry_id };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/approvals/policy',
      summary: 'The approval policy (require_shell_approval is null until the tools are ready)',
      tags: ['approvals'],
      response: policySchema,
      handler: policyView,
    }),
    defineRoute({
      method: 'post',
      path: '/approvals/policy',
      summary: 'Change the policy; the gate toggles live on shell and browser tools',
      tags: ['approvals'],
      body: z
        .strictObject({
          security: z.enum(['deny', 'allowlist', 'full']).optional(),
          ask: z.enum(['off', 'on-miss', 'always']).optional(),
          require_shell_approval: z.boolean().optional(),
        })
        .refine(
          (b) => Object.keys(b).length > 0,
          'at least one of security, ask, require_shell_approval is required',
        ),
      response: policySchema.extend({ applied: z.literal(true) }),
      handler: async ({ body }) => {
        const next: ApprovalPolicy = {
          security: body.security ?? deps.policy.security,
          ask: body.ask ?? deps.policy.ask,
          requireShellApproval: body.require_shell_approval ?? deps.policy.requireShellApproval,
        };
        await deps.persistPolicy(next);
        Object.assign(deps.policy, next);
        return { applied: true as const, ...policyView() };
      },
    }),
  ];
}
