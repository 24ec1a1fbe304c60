import { join } from 'node:path';
import type { ApprovalsArea } from '../approvals/ports.ts';
import { openWorkspace } from '../config/state-dir.ts';
import { isLoopbackHost } from '../http/binding.ts';
import type { AreaSocket } from '../lifecycle/area.ts';
import { defineArea } from '../lifecycle/install.ts';
import { late } from '../lifecycle/late.ts';
import { BUILTIN_TOOLS, buildTools, terminalEnabled, type ToolRuntime } from './build-tools.ts';
import type { ToolsArea } from './ports.ts';
import { createToolRegistry } from './registry.ts';
import { terminalSocket } from './terminal/terminal-socket.ts';
import { loadOrCreateTerminalToken } from './terminal/terminal-token.ts';

/**
 * The tool registry, the shell and browser tools behind the approval gate, and the embedded
 * terminal (`/ws/terminal`, which never runs without a secret: the API key when set, else the
 * local token in the state directory).
 */
export const tools = defineArea(
  'tools',
  (kernel, needs: { approvals: Pick<ApprovalsArea, 'gate'> }): ToolsArea => {
    const { config, paths } = kernel;
    const registry = createToolRegistry();
    // Registered by the start-up phase; reserved now, before any area loads a tool.
    for (const name of BUILTIN_TOOLS) registry.reserve(name, 'builtin');
    const runtime = late<ToolRuntime>({ name: 'Tools', plural: true });
    const terminalServed = terminalEnabled(
      config.security.terminal,
      isLoopbackHost(config.gateway.host),
    );
    let terminalToken = '';
    const sockets: AreaSocket[] = terminalServed
      ? [
          {
            path: '/ws/terminal',
            handler: terminalSocket({
              historyFile: join(paths.home, 'terminal_history.log'),
              workdir: join(paths.home, 'workspace'),
              env: () => runtime.get().childEnv(),
              logger: kernel.logger.child({ area: 'terminal' }),
              now: kernel.now,
            }),
            options: { secret: () => terminalToken },
          },
        ]
      : [];
    return {
      name: 'tools',
      registry,
      sockets,
      async prepare() {
        if (terminalServed && config.gateway.api_key === '')
          terminalToken = await loadOrCreateTerminalToken(paths.terminalTokenFile);
      },
      async start() {
        runtime.set(
          await buildTools({
            config,
            home: paths.home,
            workspace: await openWorkspace(paths.home),
            tools: registry,
            approvals: () => needs.approvals,
            childEnv: () => kernel.childEnv(),
            fetch: kernel.fetch,
            logger: kernel.logger,
          }),
        );
      },
      status(): Record<string, string> {
        const built = runtime.peek();
        return built ? { executor: built.executor.kind, isolation: built.executor.isolation } : {};
      },
      runtime: runtime.get,
      peek: runtime.peek,
      close: () => runtime.peek()?.close(),
    };
  },
);
