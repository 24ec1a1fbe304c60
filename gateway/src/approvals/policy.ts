/**
 * The spec's policy table (States: "Approval request"): what happens to a gated shell command
 * given the approval policy and whether the command line matched the allowlist.
 */
import type { ApprovalPolicy, PolicyOutcome } from './ports.ts';

export function decide(policy: ApprovalPolicy, allowlisted: boolean): PolicyOutcome {
  // Applied only when require_shell_approval is true; otherwise every command simply runs.
  if (!policy.requireShellApproval) return 'not_gated';
  switch (policy.security) {
    case 'deny':
      return 'denied_outright';
    case 'full':
      return 'auto_approved';
    case 'allowlist':
      switch (policy.ask) {
        case 'always':
          return 'prompted';
        case 'on-miss':
          return allowlisted ? 'auto_approved' : 'prompted';
        case 'off':
          return allowlisted ? 'auto_approved' : 'denied_silently';
      }
  }
}
