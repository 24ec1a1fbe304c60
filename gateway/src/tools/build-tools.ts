import { randomUUID } from 'node:crypto';
import { mkdir, realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { ToolRegistry } from '../tools/contract.ts';
import {
  createApprovalService,
  type ApprovalService,
  type PendingApproval,
} from '../approvals/approval-service.ts';
import type { PendingApprovalBoard } from '../approvals/board/ports.ts';
import { createCommandAnalyser } from '../approvals/command-analysis/command-analyser.ts';
import { alwaysEntry, matchesAllowlist } from '../approvals/command-analysis/match-allowlist.ts';
import { decide } from '../approvals/policy.ts';
import type { ApprovalPolicy } from '../approvals/ports.ts';
import type { HearthConfig } from '../config/schema.ts';
import { secretEntries } from '../config/secret-walk.ts';
import type { AllowlistRepository } from '../db/ports.ts';
import type { Metrics } from '../observability/metrics.ts';
import { browserTool } from './browser/browser-tool.ts';
import { createBrowserController, type BrowserController } from './browser/browser-session.ts';
import { createLocalExecutor } from './executors/local/local-executor.ts';
import type { Executor } from './executors/ports.ts';
import { sanitiseEnv } from './executors/sanitise-env.ts';
import { createSidecarExecutor } from './executors/sidecar/sidecar-executor.ts';
import { gatedTool, shellTool } from './shell-tool.ts';

/** Every configured secret value (resolved), so children never see one, whatever its name. */
export function configuredSecrets(config: HearthConfig): string[] {
  return secretEntries(config).map(([, value]) => value);
}

export interface ToolRuntime {
  approvals: ApprovalService;
  executor: Executor;
  browser: BrowserController;
  /** The environment every child process gets. */
  childEnv: () => Record<string, string>;
  close(): Promise<void>;
}

export interface BuildToolsDeps {
  config: HearthConfig;
  home: string;
  policy: ApprovalPolicy;
  allowlist: () => AllowlistRepository;
  tools: ToolRegistry;
  /** The gateway process's environment (children get a sanitised copy). */
  processEnv: Readonly<Record<string, string | undefined>>;
  /** Sends an approval notice to a session's live connections; false when none got it. */
  notify: (sessionId: string, text: string, approval: PendingApproval) => Promise<boolean>;
  approvalExpiryMs?: number;
  /** Where pending approvals are shared with peer gateways (in process by default). */
  approvalBoard?: PendingApprovalBoard;
  fetch: typeof globalThis.fetch;
  metrics: Metrics;
  logger: Logger;
  now: () => number;
}

/**
 * The tools behind the approval gate: the executor (`[security] executor`: the sandbox
 * sidecar, falling back to the local executor with a warning when it cannot be reached), the
 * `shell` and `browser` tools, and the gate itself.
 */
export async function buildTools(deps: BuildToolsDeps): Promise<ToolRuntime> {
  const logger = deps.logger.child({ area: 'tools' });
  await mkdir(join(deps.home, 'workspace'), { recursive: true, mode: 0o700 });
  // The real path: allowlist entries without a directory allow only this tree, so it is compared
  // with real paths (a symlink inside it cannot lead out unseen).
  const workdir = await realpath(join(deps.home, 'workspace'));
  const childEnv = () => sanitiseEnv(deps.processEnv, configuredSecrets(deps.config));

  let executor: Executor = createLocalExecutor({ defaultWorkdir: workdir, logger });
  const security = deps.config.security;
  if (security.executor === 'sandbox') {
    try {
      executor = await createSidecarExecutor({
        url: security.sandbox_url,
        token: () => security.sandbox_token,
        // The shell tool names the gateway's own directories; the sandbox sees the workspace.
        hostWorkspace: workdir,
        fetch: deps.fetch,
        logger,
      });
    } catch (error) {
      logger.warn(
        { err: error instanceof Error ? error.message : String(error), url: security.sandbox_url },
        'sandbox executor unreachable: approved commands run with the local executor',
      );
    }
  }

  // Parsed on a worker thread: a long command line never stalls the event loop.
  const analyser = createCommandAnalyser();
  const approvals = createApprovalService({
    policy: deps.policy,
    allowlist: deps.allowlist,
    analyse: (command) => analyser.analyse(command),
    matches: (analysis, entries, requestWorkdir) =>
      matchesAllowlist(analysis, entries, {
        workdir: requestWorkdir,
        workspace: workdir,
        onInvalidPattern: (rule, reason) => {
          logger.warn(
            { pattern: rule.pattern, arg_pattern: rule.arg_pattern, reason },
            'allowlist entry skipped: its arg_pattern is not a valid RE2 expression',
          );
        },
      }),
    decide,
    alwaysEntry,
    notify: deps.notify,
    metrics: deps.metrics,
    logger,
    now: deps.now,
    randomId: randomUUID,
    expiryMs: deps.approvalExpiryMs,
    board: deps.approvalBoard,
    schedule: (fn, ms) => {
      const timer = setTimeout(fn, ms);
      timer.unref();
      return () => clearTimeout(timer);
    },
  });

  const browser = createBrowserController({
    env: childEnv(),
    screenshotDir: join(deps.home, 'screenshots'),
    logger,
  });
  const browsing = browserTool(browser);
  for (const tool of [
    shellTool({
      executor: () => executor,
      approvals: () => approvals,
      env: childEnv,
      defaultWorkdir: workdir,
      // A directory the gateway's machine has is judged by its real path; one only the sandbox
      // has stays as resolved.
      realDirectory: (path) => realpath(path).catch(() => resolve(path)),
    }),
    gatedTool(
      browsing,
      () => approvals,
      (args) => browsing.describeForApproval(args),
      (args) => browsing.normaliseArgs(args),
    ),
  ]) {
    if (!deps.tools.get(tool.name)) deps.tools.register(tool);
  }

  return {
    approvals,
    get executor() {
      return executor;
    },
    browser,
    childEnv,
    async close() {
      await approvals.close();
      await analyser.close();
      await browser.close();
      await executor.close();
    },
  };
}

/** Whether /ws/terminal is served: `on`, `off`, or `auto` = only on a loopback bind. */
export function terminalEnabled(mode: 'auto' | 'on' | 'off', loopback: boolean): boolean {
  return mode === 'on' || (mode === 'auto' && loopback);
}
