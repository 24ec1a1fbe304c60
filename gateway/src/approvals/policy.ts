/**
 * The spec's policy table (States: "Approval request"): what happens to a gated shell command
 * given the approval policy and whether the command line matched the allowlist.
 *
 * `tainted`: the asking turn's context holds untrusted content (a web page, an MCP or skill
 * result, a stranger's message, …). Then, unless `[security] untrusted_content = "trust"`, what
 * the allowlist would auto-approve is prompted instead: an injection can at most produce a
 * prompt to the owner. `security = "full"` keeps its meaning (no gate). Clean turns: the table.
 *
 * `carriesSecret`: the call's command or arguments hold something secret-looking
 * (secret-egress.ts). What the allowlist would auto-approve is prompted then, whatever
 * `untrusted_content` says: running it could send the secret where the owner did not choose.
 */
import type { ApprovalPolicy, PolicyOutcome } from './ports.ts';

export function decide(
  policy: ApprovalPolicy,
  allowlisted: boolean,
  tainted = false,
  carriesSecret = false,
): PolicyOutcome {
  // Applied only when require_shell_approval is true; otherwise every command simply runs.
  if (!policy.requireShellApproval) return 'not_gated';
  switch (policy.security) {
    case 'deny':
      return 'denied_outright';
    case 'full':
      return 'auto_approved';
    case 'allowlist': {
      const approvedOrAsked =
        carriesSecret || (tainted && policy.untrustedContent !== 'trust')
          ? 'prompted'
          : 'auto_approved';
      switch (policy.ask) {
        case 'always':
          return 'prompted';
        case 'on-miss':
          return allowlisted ? approvedOrAsked : 'prompted';
        case 'off':
          return allowlisted ? approvedOrAsked : 'denied_silently';
      }
    }
  }
}
