import { updateConfigFile } from '../config/write.ts';
import { openWorkspace } from '../config/state-dir.ts';
import type { Database } from '../db/ports.ts';
import { defineArea } from '../lifecycle/install.ts';
import { late } from '../lifecycle/late.ts';
import type { ScaleOut } from '../scale-out/ports.ts';
import { buildGate, type Gate } from './build-gate.ts';
import { createDecisionTokens, decisionTokenSecret } from './decision-tokens.ts';
import { createNoticeFanOut } from './notices.ts';
import {
  APPROVAL_EXPIRY_MS,
  DENIED_TEXT,
  type ApprovalPolicy,
  type ApprovalsArea,
  type ApprovalsOptions,
} from './ports.ts';
import { approvalRoutes } from './routes.ts';
import { untrustedContentStatus } from './untrusted-status.ts';

export interface ApprovalsNeeds {
  database: { database: () => Database };
  scaleOut: { scaleOut: () => ScaleOut };
}

/**
 * The one approval gate (policy, command analysis, the shared board, expiry, decisions, push
 * decision tokens) and `/approvals…`. Tools, skills' requests and MCP calls ask `gate`; the
 * sockets, the channels and push subscribe to `notices`.
 */
export const approvals = defineArea(
  'approvals',
  (kernel, needs: ApprovalsNeeds, options: ApprovalsOptions | undefined): ApprovalsArea => {
    const { config, paths } = kernel;
    const expiryMs = options?.expiryMs ?? APPROVAL_EXPIRY_MS;
    const policy: ApprovalPolicy = {
      security: config.security.security,
      ask: config.security.ask,
      requireShellApproval: config.security.require_shell_approval,
      untrustedContent: config.security.untrusted_content,
    };
    const gate = late<Gate>('The approval gate');
    const notices = createNoticeFanOut(kernel.logger);
    // Carried by approval pushes, so the service worker's actions need no API key.
    const decisionTokens = createDecisionTokens({
      secret: decisionTokenSecret(config.gateway.api_key),
      now: kernel.now,
    });
    const allowlist = () => needs.database.database().allowlist;
    const service = () => gate.get().service;
    return {
      name: 'approvals',
      policy,
      service,
      peek: () => gate.peek()?.service,
      gate: (request) => service().gate(request),
      notices,
      decisionTokens,
      expiryMs,
      deniedText: DENIED_TEXT,
      routes: approvalRoutes({
        approvals: service,
        allowlist,
        policy,
        gateReady: () => gate.peek() !== undefined,
        expiryMs,
        decisionTokens,
        persistPolicy: (next) =>
          updateConfigFile(paths.configPath, 'security', {
            security: next.security,
            ask: next.ask,
            require_shell_approval: next.requireShellApproval,
          }),
      }),
      async start() {
        gate.set(
          await buildGate({
            policy,
            allowlist,
            workspace: await openWorkspace(paths.home),
            scaleOut: needs.scaleOut.scaleOut(),
            notify: (_sessionId, text, approval) =>
              notices.deliver({ approval, text, expiresAt: approval.created_at * 1000 + expiryMs }),
            decided: (approval, decision) =>
              notices.decided({ approval, allowed: decision.allowed, outcome: decision.outcome }),
            expiryMs,
            metrics: kernel.metrics,
            logger: kernel.logger,
            now: kernel.now,
            secretValues: kernel.secretValues,
          }),
        );
      },
      status: (): Record<string, string> => {
        const built = gate.peek();
        return {
          ...(built ? { approvals: built.boardKind() } : {}),
          ...untrustedContentStatus(policy),
        };
      },
      // Pending approvals are denied first, so turns waiting on them finish and can drain.
      drain: () => gate.peek()?.service.close(),
      close: () => gate.peek()?.close(),
    };
  },
);
