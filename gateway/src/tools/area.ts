import { join } from 'node:path';
import type { Logger } from 'pino';
import { shortId, type PendingApproval } from '../approvals/approval-service.ts';
import type { PendingApprovalBoard } from '../approvals/board/ports.ts';
import type { ApprovalPolicy } from '../approvals/ports.ts';
import type { HearthConfig } from '../config/schema.ts';
import type { AllowlistRepository } from '../db/ports.ts';
import type { SessionEvents } from '../events/ports.ts';
import type { Area, AreaSocket } from '../lifecycle/area.ts';
import { late } from '../lifecycle/late.ts';
import type { Metrics } from '../observability/metrics.ts';
import { buildTools, terminalEnabled, type ToolRuntime } from './build-tools.ts';
import type { ToolRegistry } from './contract.ts';
import { terminalSocket } from './terminal/terminal-socket.ts';
import { loadOrCreateTerminalToken } from './terminal/terminal-token.ts';

export interface ToolsAreaDeps {
  config: HearthConfig;
  /** The state directory (`{data_dir}`): workspace, screenshots, terminal history and token. */
  home: string;
  terminalTokenFile: string;
  /** The bind address is loopback (`[security] terminal = "auto"` serves the terminal then). */
  loopbackBind: boolean;
  tools: ToolRegistry;
  /** The live approval policy (the approvals area's routes change it). */
  policy: ApprovalPolicy;
  allowlist: () => AllowlistRepository;
  /** Where pending approvals are shared, and notices reach a session's sockets on any gateway. */
  board: () => PendingApprovalBoard;
  events: () => SessionEvents;
  /** Told of an approval notice no socket of its session received (web push). */
  unseenApproval?: (approval: PendingApproval, text: string) => Promise<void>;
  /** An approval notice as plain text to the channel chat the session came from, if any. */
  channelNotice?: (sessionId: string, text: string) => Promise<boolean>;
  processEnv: Readonly<Record<string, string | undefined>>;
  approvalExpiryMs?: number;
  fetch: typeof globalThis.fetch;
  metrics: Metrics;
  logger: Logger;
  now: () => number;
}

export interface ToolsArea extends Area {
  /** The approval gate, executor and browser; 503 before the phase has run. */
  readonly runtime: () => ToolRuntime;
  readonly peek: () => ToolRuntime | undefined;
}

/**
 * Shell and browser tools behind the approval gate (the approvals area serves its routes), and the
 * embedded terminal (`/ws/terminal`, which never runs without a secret: the API key when set,
 * else the local token in the state directory).
 */
export function toolsArea(deps: ToolsAreaDeps): ToolsArea {
  const runtime = late<ToolRuntime>('The tools');
  const { config } = deps;
  const terminalServed = terminalEnabled(config.security.terminal, deps.loopbackBind);
  let terminalToken = '';

  /**
   * An approval notice to the WebSocket clients of the session that asked, on any gateway, and
   * as plain text to the messaging-channel chat it came from; sent when either got it. When no
   * socket of the session got it, it is also pushed (web push).
   */
  const notify = async (sessionId: string, text: string, approval: PendingApproval) => {
    const [socket, channel] = await Promise.all([
      sendNotice(sessionId, text, approval).catch(() => false),
      deps.channelNotice?.(sessionId, text).catch(() => false) ?? false,
    ]);
    if (!socket && deps.unseenApproval) {
      await deps.unseenApproval(approval, text).catch((error: unknown) => {
        deps.logger.warn({ err: error }, 'approval push failed');
      });
    }
    return socket || channel;
  };
  const sendNotice = (sessionId: string, text: string, approval: PendingApproval) =>
    deps.events().send(
      sessionId,
      JSON.stringify({
        type: 'approval_request',
        id: approval.id,
        short_id: shortId(approval.id),
        tool_name: approval.tool_name,
        command: approval.command,
        text,
      }),
    );

  const sockets: AreaSocket[] = terminalServed
    ? [
        {
          path: '/ws/terminal',
          handler: terminalSocket({
            historyFile: join(deps.home, 'terminal_history.log'),
            workdir: join(deps.home, 'workspace'),
            env: () => runtime.get().childEnv(),
            logger: deps.logger.child({ area: 'terminal' }),
            now: deps.now,
          }),
          options: { secret: () => terminalToken },
        },
      ]
    : [];

  return {
    name: 'tools',
    sockets,
    async prepare() {
      if (terminalServed && config.gateway.api_key === '')
        terminalToken = await loadOrCreateTerminalToken(deps.terminalTokenFile);
    },
    async start() {
      runtime.set(
        await buildTools({
          config,
          home: deps.home,
          policy: deps.policy,
          allowlist: deps.allowlist,
          tools: deps.tools,
          processEnv: deps.processEnv,
          notify,
          approvalExpiryMs: deps.approvalExpiryMs,
          approvalBoard: deps.board(),
          fetch: deps.fetch,
          metrics: deps.metrics,
          logger: deps.logger,
          now: deps.now,
        }),
      );
    },
    status(): Record<string, string> {
      const tools = runtime.peek();
      return tools ? { executor: tools.executor.kind, isolation: tools.executor.isolation } : {};
    },
    runtime: runtime.get,
    peek: runtime.peek,
    // Pending approvals are denied first, so turns waiting on them finish and can drain.
    drain: () => runtime.peek()?.approvals.close(),
    close: () => runtime.peek()?.close(),
  };
}
