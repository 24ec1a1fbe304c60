import type { Logger } from 'pino';
import type { AllowlistEntry, AllowlistRepository } from '../db/ports.ts';
import { isHearthError, notFound } from '../errors.ts';
import type { Metrics } from '../observability/metrics.ts';
import { entryNote, type AlwaysRule } from './command-analysis/always-rule.ts';
import { noticeText, workdirOf } from './notice-text.ts';
import { SHORT_ID_LENGTH, shortId } from './short-id.ts';
import { secretsIn } from './secret-egress.ts';
import { shownSources } from './untrusted-sources.ts';
import { createInProcessApprovalBoard } from './board/in-process.ts';
import type { BoardDecision, PendingApprovalBoard, Verdict } from './board/ports.ts';
import {
  APPROVAL_EXPIRY_MS,
  DENIED_TEXT,
  type ApprovalPolicy,
  type ApprovalService,
  type Approved,
  type CommandAnalysis,
  type GateDecision,
  type GateRequest,
  type PendingApproval,
} from './ports.ts';

export type { ApprovalService, GateDecision, GateRequest, PendingApproval };
export { shortId };
export { APPROVAL_EXPIRY_MS, DENIED_TEXT };

/** How long a published approval outlives its expiry on the shared board (clock skew). */
export const BOARD_TTL_MARGIN_MS = 10_000;

export interface ApprovalServiceDeps {
  /** The live policy; POST /approvals/policy changes it in place. */
  policy: ApprovalPolicy;
  allowlist: () => AllowlistRepository;
  analyse: (command: string) => Promise<CommandAnalysis>;
  /** `workdir`: the request's resolved working directory, null for a tool without one. */
  matches: (
    analysis: CommandAnalysis,
    entries: Awaited<ReturnType<AllowlistRepository['list']>>,
    workdir: string | null,
  ) => boolean;
  /** `tainted`: the asking turn read untrusted content. */
  decide: (
    policy: ApprovalPolicy,
    allowlisted: boolean,
    tainted: boolean,
    carriesSecret: boolean,
  ) => string;
  /** Every configured secret value (secret-egress.ts looks for them in each gated call). */
  secretValues?: () => readonly string[];
  /**
   * What `always: true` does for an analysed command in `workdir`: the entry to store (the
   * program name; the exact command for a program that can run other code; none for a line
   * that names no single program), the note saying why, and the words notices use.
   */
  alwaysRule: (analysis: CommandAnalysis, workdir: string | null) => AlwaysRule;
  /** Sends a plain-text notice to the originating session; false when nobody got it. */
  notify: (sessionId: string, text: string, approval: PendingApproval) => Promise<boolean>;
  /** Told when a prompted approval waiting here is decided or expires. */
  decided?: (approval: PendingApproval, decision: GateDecision) => void;
  metrics: Metrics;
  logger: Logger;
  /** Epoch milliseconds. */
  now: () => number;
  randomId: () => string;
  /** Runs `fn` after `ms`; returns a cancel function (tests inject a manual clock). */
  schedule: (fn: () => void, ms: number) => () => void;
  expiryMs?: number;
  /** Gated calls waiting in this process at most; default `MAX_WAITING_APPROVALS`. */
  maxWaiting?: number;
  /**
   * Where pending approvals are listed and claimed: shared by every gateway when `[memory]
   * cache_url` is set, an in-process board (the default) otherwise.
   */
  board?: PendingApprovalBoard;
}

/**
 * Gated calls that may wait for a decision in one process at once. Each expires within the
 * approval expiry anyway; past this, a further prompt is denied at once (outcome
 * `too_many_pending`, counted as `denied_pending_cap`) instead of piling up notices nobody can
 * answer.
 */
export const MAX_WAITING_APPROVALS = 1_000;

/** A gated tool call waiting in this process. */
interface Waiting {
  analysis: CommandAnalysis;
  settle: (decision: GateDecision) => void;
  cancelExpiry: () => void;
}

/**
 * The approval gate in front of shell and browser tools, with the spec's state machine:
 * a prompted command is pending until approved (it then runs at once and the waiting tool call
 * continues), denied, or 120 s pass (denied, expired). A decided or expired id is gone.
 * Decisions come from REST, the CLI, or a chat reply `approve <id-prefix>` / `deny <id-prefix>`
 * in the originating session.
 *
 * The call waits in the process that gated it; the approval itself is on the board, which every
 * gateway sharing `[memory] cache_url` lists and claims from. Whoever claims (approve, deny, or
 * this process's expiry) is the one outcome; a claim made on a peer reaches the waiting call as
 * a verdict through the board.
 */
export function createApprovalService(deps: ApprovalServiceDeps): ApprovalService {
  const waiting = new Map<string, Waiting>();
  const expiryMs = deps.expiryMs ?? APPROVAL_EXPIRY_MS;
  const maxWaiting = deps.maxWaiting ?? MAX_WAITING_APPROVALS;
  const board = deps.board ?? createInProcessApprovalBoard({ now: deps.now });
  let closing: Promise<unknown> = Promise.resolve();

  const gone = (id: string) =>
    notFound(`Approval ${id} not found (unknown, expired or already decided)`);

  const denied = (outcome: string): GateDecision => ({
    allowed: false,
    outcome,
    message: DENIED_TEXT,
  });

  const approved: GateDecision = { allowed: true, outcome: 'approved' };

  /** Takes a call waiting here out of the map (its expiry cancelled); undefined when none. */
  function take(id: string): Waiting | undefined {
    const entry = waiting.get(id);
    if (!entry) return undefined;
    waiting.delete(id);
    entry.cancelExpiry();
    return entry;
  }

  /** A decision made by a peer gateway (or read back after a lost message) for a call here. */
  board.onVerdict((verdict: Verdict) => {
    const entry = take(verdict.id);
    if (!entry) return;
    entry.settle(verdict.decision === 'approved' ? approved : denied('denied'));
    deps.logger.info({ id: verdict.id, decision: verdict.decision }, 'decided on another gateway');
  });

  /**
   * The expiry of a call waiting here. It claims like any decision, so exactly one of expiry,
   * approve and deny wins; when another claim won first, its recorded decision is applied.
   */
  async function expire(id: string): Promise<void> {
    const claimed = await board.claim(id, 'denied');
    const decision: BoardDecision | undefined = claimed ? 'denied' : await board.decisionOf(id);
    const entry = take(id);
    if (!entry) return;
    if (claimed || decision === undefined) {
      entry.settle(denied('expired'));
      deps.logger.info({ id }, 'approval expired');
    } else {
      entry.settle(decision === 'approved' ? approved : denied('denied'));
    }
  }

  /** Settles the call where it waits: here, or on the owning gateway through the board. */
  async function conclude(
    owner: string,
    verdict: Verdict,
    entry: Waiting | undefined,
  ): Promise<void> {
    if (entry) {
      entry.settle(verdict.decision === 'approved' ? approved : denied('denied'));
      return;
    }
    await board.deliver(owner, verdict).catch((error: unknown) => {
      deps.logger.warn(
        { id: verdict.id, err: error instanceof Error ? error.message : String(error) },
        'the decision could not be sent to the gateway that waits for it; it reads it back at expiry',
      );
    });
  }

  /** Approves; with `always`, stores the entry of the always rule. `allowed` words the reply. */
  async function approveWithRule(
    id: string,
    always: boolean,
  ): Promise<{ result: Approved; allowed: string | null }> {
    // Claimed before the allowlist write: while it is in flight a concurrent deny, a second
    // approve or the expiry finds nothing, so each approval is decided exactly once.
    const claimed = await board.claim(id, 'approved');
    if (!claimed) throw gone(id);
    const entry = take(id);
    let stored: AllowlistEntry | undefined;
    let rule: AlwaysRule | undefined;
    if (always) {
      // The same analysis as at the gate; an approval waiting on a peer is analysed again.
      const analysis = entry?.analysis ?? (await deps.analyse(claimed.approval.command));
      rule = deps.alwaysRule(analysis, workdirOf(claimed.approval));
      if (rule.entry) {
        try {
          stored = await deps.allowlist().add(rule.entry);
        } catch (error) {
          // The approval itself stands (the command runs); always_allowed reports the miss.
          deps.logger.warn(
            { id, entry: rule.entry, err: error instanceof Error ? error.message : String(error) },
            'approved, but the program could not be added to the allowlist',
          );
        }
      }
    }
    const alwaysAllowed = stored !== undefined;
    await conclude(
      claimed.owner,
      { id, decision: 'approved', always_allowed: alwaysAllowed },
      entry,
    );
    deps.logger.info({ id, always: alwaysAllowed }, 'command approved');
    return {
      result: {
        approved: true,
        id,
        always_allowed: alwaysAllowed,
        ...(stored ? { allowlist_entry: { ...stored, note: entryNote(stored) } } : {}),
        ...(rule?.note ? { always_note: rule.note } : {}),
      },
      allowed: stored ? (rule?.allowed ?? null) : null,
    };
  }

  async function approve(id: string, always = false): Promise<Approved> {
    return (await approveWithRule(id, always)).result;
  }

  async function deny(id: string): Promise<{ denied: true; id: string }> {
    const claimed = await board.claim(id, 'denied');
    if (!claimed) throw gone(id);
    await conclude(claimed.owner, { id, decision: 'denied', always_allowed: false }, take(id));
    deps.logger.info({ id }, 'command denied');
    return { denied: true, id };
  }

  return {
    /** Decides whether a gated command may run; waits while it is pending. */
    async gate(request: GateRequest): Promise<GateDecision> {
      const policy = deps.policy;
      if (!policy.requireShellApproval) return { allowed: true, outcome: 'not_gated' };
      const analysis = await deps.analyse(request.command);
      const allowlisted = deps.matches(analysis, await deps.allowlist().list(), workdirOf(request));
      // A secret the call would carry out is named first: it is always shown.
      const secrets = secretsIn(
        `${request.command}\n${JSON.stringify(request.arguments)}`,
        deps.secretValues?.() ?? [],
      );
      const sources = shownSources([...secrets, ...(request.untrustedSources ?? [])]);
      const tainted = (request.untrustedSources?.length ?? 0) > 0;
      const outcome = deps.decide(policy, allowlisted, tainted, secrets.length > 0);
      if (outcome === 'auto_approved') {
        deps.metrics.approvalDecisionsTotal.inc({ decision: 'auto_approved' });
        return { allowed: true, outcome };
      }
      if (outcome !== 'prompted') {
        deps.metrics.approvalDecisionsTotal.inc({ decision: 'denied_outright' });
        return denied(outcome);
      }
      if (waiting.size >= maxWaiting) {
        deps.metrics.approvalDecisionsTotal.inc({ decision: 'denied_pending_cap' });
        deps.logger.warn(
          { maxWaiting, sessionId: request.sessionId },
          'too many approvals are waiting; the command is denied without asking',
        );
        return denied('too_many_pending');
      }
      deps.metrics.approvalDecisionsTotal.inc({ decision: 'prompted' });
      const approval: PendingApproval = {
        id: deps.randomId(),
        tool_name: request.requester
          ? `${request.toolName} (${request.requester})`
          : request.toolName,
        command: request.command,
        arguments: request.arguments,
        session_id: request.sessionId,
        created_at: Math.floor(deps.now() / 1000),
        ...(sources.length > 0 ? { untrusted_sources: sources } : {}),
      };
      const decision = new Promise<GateDecision>((settle) => {
        const cancelExpiry = deps.schedule(() => {
          expire(approval.id).catch((error: unknown) => {
            // The board never fails as a whole; should it, the call still ends denied.
            take(approval.id)?.settle(denied('expired'));
            deps.logger.warn({ id: approval.id, err: String(error) }, 'approval expiry failed');
          });
        }, expiryMs);
        waiting.set(approval.id, { analysis, settle, cancelExpiry });
      });
      try {
        await board.publish(approval, expiryMs + BOARD_TTL_MARGIN_MS);
      } catch (error) {
        // Nobody could decide it: deny now rather than wait for the expiry.
        take(approval.id)?.settle(denied('unavailable'));
        deps.logger.warn(
          { id: approval.id, err: error instanceof Error ? error.message : String(error) },
          'the approval could not be published; the command is denied',
        );
        return decision;
      }
      const { scope } = deps.alwaysRule(analysis, workdirOf(request));
      const text = noticeText(approval, request, Math.round(expiryMs / 1000), scope);
      const sent = await deps.notify(request.sessionId, text, approval).catch(() => false);
      deps.metrics.approvalNotificationsTotal.inc({ outcome: sent ? 'sent' : 'failed' });
      if (deps.decided) {
        const tell = deps.decided;
        void decision.then((settled) => tell(approval, settled));
      }
      return decision;
    },

    /** Every pending approval, of every gateway sharing the board, oldest first. */
    pending(): Promise<PendingApproval[]> {
      return board.list();
    },

    approve,
    deny,

    /**
     * A chat reply `approve <id-prefix> [always]` or `deny <id-prefix>` in the session that asked
     * (on whichever gateway the approval waits). Returns the reply, or undefined when the text is
     * not such a decision.
     */
    async decideFromChat(sessionId: string, text: string): Promise<string | undefined> {
      const match = /^\s*(approve|deny)\s+([0-9a-f-]{1,36})(\s+always)?\s*$/i.exec(text);
      if (!match) return undefined;
      const verb = (match[1] ?? '').toLowerCase();
      const prefix = (match[2] ?? '').toLowerCase();
      const waitingHere = (await board.list()).filter(
        (approval) => approval.session_id === sessionId,
      );
      // A decision needs the whole short id the notice showed, never a guessable prefix.
      // Shorter: an ordinary message ("approve cafe", "deny 42") for the model — or, while
      // something waits here, a hint instead of a decision.
      if (prefix.length < SHORT_ID_LENGTH)
        return waitingHere.length === 0
          ? undefined
          : `Send the full ${SHORT_ID_LENGTH}-character id shown in the approval request, e.g. "${verb} ${shortId(waitingHere[0]!.id)}".`;
      const mine = waitingHere.filter((approval) => approval.id.startsWith(prefix));
      const none = `No pending approval ${prefix} in this conversation.`;
      if (mine.length === 0) return none;
      if (mine.length > 1)
        return `"${prefix}" matches ${mine.length} pending approvals; send more characters of the id.`;
      const id = mine[0]!.id;
      try {
        if (verb === 'deny') {
          await deny(id);
          return `Denied ${shortId(id)}.`;
        }
        const always = match[3] !== undefined;
        const { result, allowed } = await approveWithRule(id, always);
        if (allowed !== null) return `Approved ${shortId(id)}; ${allowed}.`;
        return always && result.always_note !== undefined
          ? `Approved ${shortId(id)} this time only; ${result.always_note}.`
          : `Approved ${shortId(id)}.`;
      } catch (error) {
        // Decided or expired between the listing and the claim.
        if (isHearthError(error) && error.status === 404) return none;
        throw error;
      }
    },

    /**
     * Denies every call still waiting here (shutdown) at once, and takes them off the board;
     * resolves when the board has them removed.
     */
    close(): Promise<void> {
      const ids = [...waiting.keys()];
      for (const id of ids) take(id)?.settle(denied('shutdown'));
      const removing = Promise.all(
        ids.map((id) => board.claim(id, 'denied').catch(() => undefined)),
      );
      closing = Promise.all([closing, removing]);
      return closing.then(() => undefined);
    },
  };
}
