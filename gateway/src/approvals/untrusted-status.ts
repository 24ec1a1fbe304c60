import type { ApprovalPolicy } from './ports.ts';

/** The warning /status shows while the gate is off. */
export const GATE_OFF_WARNING =
  'every command runs without asking, so content the agent reads from ' +
  'untrusted sources (web pages, MCP servers, skills, fetched shell output, messages from ' +
  'anyone but the paired owner) can make it run commands unseen; untrusted_content has no effect';

/**
 * `/status` `backends`: the `[security] untrusted_content` setting in effect, and a warning while
 * the gate is off (`security = "full"`, or `require_shell_approval = false`). The browser and shell tools are always registered, so
 * an untrusted source is always within the agent's reach.
 */
export function untrustedContentStatus(policy: ApprovalPolicy): Record<string, string> {
  return {
    untrusted_content: policy.untrustedContent ?? 'prompt',
    ...(!policy.requireShellApproval
      ? { untrusted_content_warning: `require_shell_approval = false: ${GATE_OFF_WARNING}` }
      : policy.security === 'full'
        ? { untrusted_content_warning: `security = "full": ${GATE_OFF_WARNING}` }
        : {}),
  };
}
