import { realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { ApprovalService } from '../approvals/ports.ts';
import type { HearthConfig } from '../config/schema.ts';
import { browserTool } from './browser/browser-tool.ts';
import { createBrowserController, type BrowserController } from './browser/browser-session.ts';
import type { ToolRegistry } from './contract.ts';
import { createLocalExecutor } from './executors/local/local-executor.ts';
import type { Executor } from './executors/ports.ts';
import { gatedTool, shellTool } from './shell-tool.ts';

export { BUILTIN_TOOLS } from './builtin-names.ts';

export interface ToolRuntime {
  executor: Executor;
  browser: BrowserController;
  /** The environment every child process gets. */
  childEnv: () => Record<string, string>;
  close(): Promise<void>;
}

export interface BuildToolsDeps {
  config: HearthConfig;
  home: string;
  /** The workspace's real path, where commands run unless they name another directory. */
  workspace: string;
  tools: ToolRegistry;
  /** The one approval gate (the approvals area's). */
  approvals: () => Pick<ApprovalService, 'gate'>;
  /** A sanitised environment for child processes (no provider key or configured secret). */
  childEnv: () => Record<string, string>;
  fetch: typeof globalThis.fetch;
  logger: Logger;
}

/**
 * The tools behind the approval gate: the executor (`[security] executor`: the sandbox
 * sidecar, falling back to the local executor with a warning when it cannot be reached), and
 * the `shell` and `browser` tools.
 */
export async function buildTools(deps: BuildToolsDeps): Promise<ToolRuntime> {
  const logger = deps.logger.child({ area: 'tools' });
  const workdir = deps.workspace;
  const { childEnv, approvals } = deps;

  let executor: Executor = createLocalExecutor({ defaultWorkdir: workdir, logger });
  const security = deps.config.security;
  if (security.executor === 'sandbox') {
    try {
      // Loaded only when configured: most gateways run the local executor.
      const { createSidecarExecutor } = await import('./executors/sidecar/sidecar-executor.ts');
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

  const browser = createBrowserController({
    env: childEnv(),
    screenshotDir: join(deps.home, 'screenshots'),
    logger,
  });
  const browsing = browserTool(browser);
  for (const tool of [
    shellTool({
      executor: () => executor,
      approvals,
      env: childEnv,
      defaultWorkdir: workdir,
      // A directory the gateway's machine has is judged by its real path; one only the sandbox
      // has stays as resolved.
      realDirectory: (path) => realpath(path).catch(() => resolve(path)),
    }),
    gatedTool(
      browsing,
      approvals,
      (args) => browsing.describeForApproval(args),
      (args) => browsing.normaliseArgs(args),
    ),
  ]) {
    deps.tools.register(tool);
  }

  return {
    get executor() {
      return executor;
    },
    browser,
    childEnv,
    async close() {
      await browser.close();
      await executor.close();
    },
  };
}

/** Whether /ws/terminal is served: `on`, `off`, or `auto` = only on a loopback bind. */
export function terminalEnabled(mode: 'auto' | 'on' | 'off', loopback: boolean): boolean {
  return mode === 'on' || (mode === 'auto' && loopback);
}
