import type { Logger } from 'pino';
import type { AllowlistRepository } from '../db/ports.ts';
import { notFound } from '../errors.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { ApprovalPolicy, CommandAnalysis } from './ports.ts';

/** The exact text the agent receives for a denied or expired gated command. */
export const DENIED_TEXT = 'Command denied by user approval gate.';
export const APPROVAL_EXPIRY_MS = 120_000;

export interface PendingApproval {
  id: string;
  tool_name: string;
  command: string;
  arguments: { command: string; timeout: number; workdir: string };
  session_id: string;
  /** Epoch seconds. */
  created_at: number;
}

export interface GateRequest {
  toolName: string;
  command: string;
  arguments: PendingApproval['arguments'];
  sessionId: string;
}

export type GateDecision =
  { allowed: true; outcome: string } | { allowed: false; outcome: string; message: string };

export interface ApprovalServiceDeps {
  /** The live policy; POST /approvals/policy changes it in place. */
  policy: ApprovalPolicy;
  allowlist: () => AllowlistRepository;
  analyse: (command: string) => Promise<CommandAnalysis>;
  matches: (
    analysis: CommandAnalysis,
    entries: Awaited<ReturnType<AllowlistRepository['list']>>,
  ) => boolean;
  decide: (policy: ApprovalPolicy, allowlisted: boolean) => string;
  /** The real program to store for `always: true`, or null when there is none to store. */
  alwaysProgram: (analysis: CommandAnalysis) => string | null;
  /** Sends a plain-text notice to the originating session; false when nobody got it. */
  notify: (sessionId: string, text: string, approval: PendingApproval) => Promise<boolean>;
  metrics: Metrics;
  logger: Logger;
  /** Epoch milliseconds. */
  now: () => number;
  randomId: () => string;
  /** Runs `fn` after `ms`; returns a cancel function (tests inject a manual clock). */
  schedule: (fn: () => void, ms: number) => () => void;
  expiryMs?: number;
}

interface Waiting {
  approval: PendingApproval;
  analysis: CommandAnalysis;
  settle: (decision: GateDecision) => void;
  cancelExpiry: () => void;
}

export const shortId = (id: string): string => id.slice(0, 8);

/**
 * The approval gate in front of shell and browser tools, with the spec's state machine:
 * a prompted command is pending until approved (it then runs at once and the waiting tool call
 * continues), denied, or 120 s pass (denied, expired). A decided or expired id is gone.
 * Decisions come from REST, the CLI, or a chat reply `approve <id-prefix>` / `deny <id-prefix>`
 * in the originating session.
 */
export function createApprovalService(deps: ApprovalServiceDeps) {
  const waiting = new Map<string, Waiting>();
  const expiryMs = deps.expiryMs ?? APPROVAL_EXPIRY_MS;

  /** Takes a pending approval out of the queue (its expiry cancelled); undefined when gone. */
  function claim(id: string): Waiting | undefined {
    const entry = waiting.get(id);
    if (!entry) return undefined;
    waiting.delete(id);
    entry.cancelExpiry();
    return entry;
  }

  function finish(id: string, decision: GateDecision): Waiting | undefined {
    const entry = claim(id);
    entry?.settle(decision);
    return entry;
  }

  const denied = (outcome: string): GateDecision => ({
    allowed: false,
    outcome,
    message: DENIED_TEXT,
  });

  async function approve(
    id: string,
    always = false,
  ): Promise<{ approved: true; id: string; always_allowed: boolean }> {
    // Claimed before the allowlist write: while it is in flight a concurrent deny, a second
    // approve or the expiry finds nothing, so each approval is decided exactly once.
    const entry = claim(id);
    if (!entry) throw notFound(`Approval ${id} not found (unknown, expired or already decided)`);
    let alwaysAllowed = false;
    if (always) {
      const program = deps.alwaysProgram(entry.analysis);
      if (program) {
        try {
          await deps.allowlist().add({ pattern: program });
          alwaysAllowed = true;
        } catch (error) {
          // The approval itself stands (the command runs); always_allowed reports the miss.
          deps.logger.warn(
            { id, program, err: error instanceof Error ? error.message : String(error) },
            'approved, but the program could not be added to the allowlist',
          );
        }
      }
    }
    entry.settle({ allowed: true, outcome: 'approved' });
    deps.logger.info({ id, always: alwaysAllowed }, 'command approved');
    return { approved: true, id, always_allowed: alwaysAllowed };
  }

  function deny(id: string): { denied: true; id: string } {
    if (!finish(id, denied('denied')))
      throw notFound(`Approval ${id} not found (unknown, expired or already decided)`);
    deps.logger.info({ id }, 'command denied');
    return { denied: true, id };
  }

  return {
    /** Decides whether a gated command may run; waits while it is pending. */
    async gate(request: GateRequest): Promise<GateDecision> {
      const policy = deps.policy;
      if (!policy.requireShellApproval) return { allowed: true, outcome: 'not_gated' };
      const analysis = await deps.analyse(request.command);
      const allowlisted = deps.matches(analysis, await deps.allowlist().list());
      const outcome = deps.decide(policy, allowlisted);
      if (outcome === 'auto_approved') {
        deps.metrics.approvalDecisionsTotal.inc({ decision: 'auto_approved' });
        return { allowed: true, outcome };
      }
      if (outcome !== 'prompted') {
        deps.metrics.approvalDecisionsTotal.inc({ decision: 'denied_outright' });
        return denied(outcome);
      }
      deps.metrics.approvalDecisionsTotal.inc({ decision: 'prompted' });
      const approval: PendingApproval = {
        id: deps.randomId(),
        tool_name: request.toolName,
        command: request.command,
        arguments: request.arguments,
        session_id: request.sessionId,
        created_at: Math.floor(deps.now() / 1000),
      };
      const decision = new Promise<GateDecision>((settle) => {
        const cancelExpiry = deps.schedule(() => {
          if (finish(approval.id, denied('expired')))
            deps.logger.info({ id: approval.id }, 'approval expired');
        }, expiryMs);
        waiting.set(approval.id, { approval, analysis, settle, cancelExpiry });
      });
      const text =
        `Approval needed [${shortId(approval.id)}] ${request.toolName}: ${request.command}\n` +
        `Reply "approve ${shortId(approval.id)}" or "deny ${shortId(approval.id)}" within ${Math.round(expiryMs / 1000)} s.`;
      const sent = await deps.notify(request.sessionId, text, approval).catch(() => false);
      deps.metrics.approvalNotificationsTotal.inc({ outcome: sent ? 'sent' : 'failed' });
      return decision;
    },

    pending(): PendingApproval[] {
      return [...waiting.values()]
        .map((w) => w.approval)
        .sort((a, b) => a.created_at - b.created_at);
    },

    approve,
    deny,

    /**
     * A chat reply `approve <id-prefix> [always]` or `deny <id-prefix>` in the session that asked.
     * Returns the reply, or undefined when the text is not such a decision.
     */
    async decideFromChat(sessionId: string, text: string): Promise<string | undefined> {
      const match = /^\s*(approve|deny)\s+([0-9a-f-]{1,36})(\s+always)?\s*$/i.exec(text);
      if (!match) return undefined;
      const verb = (match[1] ?? '').toLowerCase();
      const prefix = (match[2] ?? '').toLowerCase();
      const mine = [...waiting.values()].filter(
        (w) => w.approval.session_id === sessionId && w.approval.id.startsWith(prefix),
      );
      if (mine.length === 0) return `No pending approval ${prefix} in this conversation.`;
      if (mine.length > 1)
        return `"${prefix}" matches ${mine.length} pending approvals; send more characters of the id.`;
      const id = mine[0]!.approval.id;
      if (verb === 'deny') {
        deny(id);
        return `Denied ${shortId(id)}.`;
      }
      const result = await approve(id, match[3] !== undefined);
      return `Approved ${shortId(id)}${result.always_allowed ? ' and added its program to the allowlist' : ''}.`;
    },

    /** Denies everything still pending (shutdown). */
    close(): void {
      for (const id of [...waiting.keys()]) finish(id, denied('shutdown'));
    },
  };
}

export type ApprovalService = ReturnType<typeof createApprovalService>;
