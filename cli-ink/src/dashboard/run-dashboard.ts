import { render } from 'ink';
import { createElement as h } from 'react';
import { CliError } from '../cli-error.ts';
import { clientId } from '../client-id.ts';
import type { DashboardOptions } from '../commands/dashboard.ts';
import type { CommandContext } from '../deps.ts';
import { locateGateway } from '../locate-gateway.ts';
import { createDashboardCore } from './dashboard-core.ts';
import { socketOpener } from './open-socket.ts';
import { DashboardApp, type DashboardExit } from './ui/dashboard-app.ts';

/**
 * Runs the dashboard in this terminal until the user quits. When they ask for setup (offered
 * while no provider works), the dashboard steps aside for `hearth setup` and comes back after.
 */
export async function runDashboard(ctx: CommandContext, options: DashboardOptions): Promise<void> {
  const { env } = ctx.deps;
  const apiKey = options.apiKey ?? env.variables.HEARTH_API_KEY;
  for (;;) {
    const client = await locateGateway(ctx, { url: options.url, apiKey, timeoutMs: 5_000 });
    const core = createDashboardCore({
      client,
      openSocket: socketOpener(client),
      clientId: await clientId(env.home),
    });
    let reason = 'quit' as DashboardExit;
    const app = render(
      h(DashboardApp, {
        core,
        color: !('NO_COLOR' in env.variables) || env.variables.NO_COLOR === '',
        onExit: (why) => (reason = why),
      }),
      {
        stdin: ctx.deps.input,
        stdout: ctx.deps.promptOutput,
        exitOnCtrlC: false,
        patchConsole: false,
        // A live view whenever its output is a terminal: Ink would otherwise draw only the last
        // frame when a CI variable is set (e.g. a dashboard in tmux inside a CI job).
        interactive: (ctx.deps.promptOutput as { isTTY?: boolean }).isTTY === true,
      },
    );
    await core.start();
    try {
      await app.waitUntilExit();
    } finally {
      core.stop();
    }
    if (reason !== 'setup') return;
    // Ink lets go of a terminal input when it unmounts (raw mode off, and unref(): the input
    // no longer keeps the process alive). Setup reads that same input next, so it takes it
    // back first; without this the process ends while setup waits for an answer.
    (ctx.deps.input as { ref?: () => void }).ref?.();
    const { runSetupInteractive } = await import('../setup/run-setup.ts');
    try {
      await runSetupInteractive(ctx);
    } catch (error) {
      // A setup that wrote nothing (the user said no, or its input ended) returns to the
      // dashboard, saying why, instead of ending it.
      if (!(error instanceof CliError)) throw error;
      ctx.deps.promptOutput.write(`hearth: ${error.message}\n`);
    }
  }
}
