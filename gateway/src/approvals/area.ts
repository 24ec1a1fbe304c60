import type { HearthConfig } from '../config/schema.ts';
import { updateConfigFile } from '../config/write.ts';
import type { AllowlistRepository } from '../db/ports.ts';
import type { Area } from '../lifecycle/area.ts';
import type { ApprovalService } from './approval-service.ts';
import type { DecisionTokens } from './decision-tokens.ts';
import type { ApprovalPolicy } from './ports.ts';
import { approvalRoutes } from './routes.ts';

export interface ApprovalsAreaDeps {
  security: HearthConfig['security'];
  configPath: string;
  allowlist: () => AllowlistRepository;
  /** The gate, built by the tools area at start-up; 503 until then. */
  approvals: () => ApprovalService;
  /** False until the tools have started: the policy then reports require_shell_approval null. */
  toolsReady: () => boolean;
  /** The tokens a push carries for its Approve and Deny actions. */
  decisionTokens: DecisionTokens;
}

export interface ApprovalsArea extends Area {
  /** The live policy: the routes change it, the gate reads it on every request. */
  readonly policy: ApprovalPolicy;
}

/** `/approvals…`: pending approvals, the allowlist and the policy (persisted to [security]). */
export function approvalsArea(deps: ApprovalsAreaDeps): ApprovalsArea {
  const policy: ApprovalPolicy = {
    security: deps.security.security,
    ask: deps.security.ask,
    requireShellApproval: deps.security.require_shell_approval,
  };
  return {
    name: 'approvals',
    policy,
    routes: approvalRoutes({
      approvals: deps.approvals,
      allowlist: deps.allowlist,
      policy,
      toolsReady: deps.toolsReady,
      decisionTokens: deps.decisionTokens,
      persistPolicy: (next) =>
        updateConfigFile(deps.configPath, 'security', {
          security: next.security,
          ask: next.ask,
          require_shell_approval: next.requireShellApproval,
        }),
    }),
  };
}
