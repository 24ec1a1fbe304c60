import type { AllowlistEntry } from '../db/ports.ts';
import type { Area } from '../lifecycle/area.ts';
import type { DecisionTokens } from './decision-tokens.ts';
import type { UntrustedKind, UntrustedSource } from './untrusted-sources.ts';

/** The spec's approval policy (`[security]`, GET/POST /approvals/policy). */
export interface ApprovalPolicy {
  security: 'deny' | 'allowlist' | 'full';
  ask: 'off' | 'on-miss' | 'always';
  /** When false every command simply runs. */
  requireShellApproval: boolean;
  /**
   * `[security] untrusted_content`: `prompt` (the default) turns an allowlist auto-approve into a
   * prompt while the turn's context holds untrusted content; `trust` keeps the table as is.
   * Absent: `prompt`.
   */
  untrustedContent?: 'prompt' | 'trust';
}

/** What the policy table says for one command. */
export type PolicyOutcome =
  'auto_approved' | 'prompted' | 'denied_outright' | 'denied_silently' | 'not_gated';

/** One simple command of a command line, after parsing. */
export interface SimpleCommand {
  /** The program as written (`/bin/ls`, `ls`). */
  program: string;
  /** Its basename, the name allowlist globs match (`ls`). */
  programName: string;
  argv: string[];
  /** The simple command's own text, what `arg_pattern` matches. */
  text: string;
}

/**
 * A command line taken apart with a real shell parser. `commands` are every simple command of
 * every pipeline and list, with interpreter wrappers (`sh -c`, `bash -lc`, `env`, `xargs`,
 * `sudo`, `nice`, `timeout`, …) unwrapped to the command they run. `opaque` is set when the
 * line cannot be analysed safely (command or process substitution, `eval`, a non-literal
 * program name, a parse error, …): such a line never matches the allowlist.
 */
export interface CommandAnalysis {
  commands: SimpleCommand[];
  opaque: string | null;
}

/** The spec's pending approval record (GET /approvals/pending). */
export interface PendingApproval {
  id: string;
  tool_name: string;
  command: string;
  arguments: { command: string; timeout: number; workdir: string };
  session_id: string;
  /** Epoch seconds. */
  created_at: number;
  /**
   * Additive: what had put untrusted content into the turn that asked (why an allowlisted
   * command is prompted). Present only when there was any.
   */
  untrusted_sources?: UntrustedSource[];
}

export type { AllowlistEntry };

/**
 * An approval's answer (the spec's `{approved, id, always_allowed}`). With `always`, additively:
 * the allowlist entry stored (its `note` says why it allows only the exact command, when it
 * does), and `always_note` when the entry is narrower than the program name or none was stored.
 */
export interface Approved {
  approved: true;
  id: string;
  always_allowed: boolean;
  allowlist_entry?: AllowlistEntry & { note: string | null };
  always_note?: string;
}

/** The exact text the agent receives for a denied or expired gated command. */
export const DENIED_TEXT = 'Command denied by user approval gate.';
/** How long an approval stays pending before it is denied (the spec's 120 s). */
export const APPROVAL_EXPIRY_MS = 120_000;

/** A gated call as the gate sees it. */
export interface GateRequest {
  toolName: string;
  command: string;
  arguments: PendingApproval['arguments'];
  sessionId: string;
  /**
   * Who asks on the model's behalf (`skill weather`), when not the model: named in the notice
   * and in the pending record's `tool_name` (`shell (skill weather)`); `command` stays exact.
   */
  requester?: string;
  /**
   * The untrusted sources of the asking turn's context, so far. Non-empty (and
   * `untrustedContent` not `trust`): a command the allowlist would auto-approve is prompted.
   */
  untrustedSources?: readonly UntrustedSource[];
}

export type GateDecision =
  { allowed: true; outcome: string } | { allowed: false; outcome: string; message: string };

/** The gate in front of every gated tool, and the decisions on what it holds. */
export interface ApprovalService {
  /** Decides whether a gated command may run; waits while it is pending. */
  gate(request: GateRequest): Promise<GateDecision>;
  /** Every pending approval, of every gateway sharing the board, oldest first. */
  pending(): Promise<PendingApproval[]>;
  approve(id: string, always?: boolean): Promise<Approved>;
  deny(id: string): Promise<{ denied: true; id: string }>;
  /**
   * A chat reply `approve <id-prefix> [always]` or `deny <id-prefix>` in the session that asked.
   * Returns the reply, or undefined when the text is not such a decision.
   */
  decideFromChat(sessionId: string, text: string): Promise<string | undefined>;
  /** Denies every call still waiting here (shutdown) and takes them off the board. */
  close(): Promise<void>;
}

/** An approval notice: the pending record, when it expires, and the text every surface shows. */
export interface ApprovalNotice {
  readonly approval: PendingApproval;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
  readonly text: string;
}

/**
 * Where a notice is shown. `screen`: the session's sockets (the owner is looking now); `chat`:
 * the messaging chat the session came from; `fallback`: told only when no screen saw it (web
 * push).
 */
export type NoticeSurface = 'screen' | 'chat' | 'fallback';

/** Returns true when the notice reached someone. */
export type NoticeListener = (notice: ApprovalNotice) => Promise<boolean>;

/** A prompted approval's end: approved, denied, or expired (`outcome`, as the gate's decision). */
export interface ApprovalDecided {
  readonly approval: PendingApproval;
  readonly allowed: boolean;
  /** `approved`, `denied`, `expired`, … */
  readonly outcome: string;
}

export interface ApprovalNotices {
  /** Shows every future notice on `surface`; returns the unsubscribe function. */
  subscribe(surface: NoticeSurface, listener: NoticeListener): () => void;
  /**
   * Told when a prompted approval waiting in this process is decided or expires (on whichever
   * gateway or surface it was decided); returns the unsubscribe function.
   */
  subscribeDecided(listener: (decided: ApprovalDecided) => void): () => void;
}

/** The approvals area's options (tests shorten the expiry). */
export interface ApprovalsOptions {
  /** How long an approval stays pending (the spec's 120 s unless a test says otherwise). */
  expiryMs?: number;
}

/** The approvals area as other areas see it: the one gate and its notices. */
export interface ApprovalsArea extends Area {
  /** The live policy: the routes change it, the gate reads it on every request. */
  readonly policy: ApprovalPolicy;
  /** The gate and decisions; 503 "The approval gate is starting" before the phase has run. */
  readonly service: () => ApprovalService;
  /** The same, or undefined before the phase has run. */
  readonly peek: () => ApprovalService | undefined;
  /** Asks the gate (the tools, skills' requests and MCP calls all come here). */
  readonly gate: (request: GateRequest) => Promise<GateDecision>;
  readonly notices: ApprovalNotices;
  /** The tokens a push carries for its Approve and Deny actions. */
  readonly decisionTokens: DecisionTokens;
  /** How long an approval stays pending, in milliseconds. */
  readonly expiryMs: number;
  /** The text a denied or expired call gets (`DENIED_TEXT`). */
  readonly deniedText: string;
}

export type { DecisionTokens };
export { shellQuote } from './command-analysis/words.ts';
export { shortId } from './short-id.ts';
export { cleanText, EXCERPT_CHARS, shownSources } from './untrusted-sources.ts';
export type { UntrustedKind, UntrustedSource };
