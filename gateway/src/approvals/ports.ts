import type { AllowlistEntry } from '../db/ports.ts';

/** The spec's approval policy (`[security]`, GET/POST /approvals/policy). */
export interface ApprovalPolicy {
  security: 'deny' | 'allowlist' | 'full';
  ask: 'off' | 'on-miss' | 'always';
  /** When false every command simply runs. */
  requireShellApproval: boolean;
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
}

export type { AllowlistEntry };
