import type { Command } from 'commander';
import { CliError } from '../cli-error.ts';
import type { CommandContext } from '../deps.ts';

export interface DashboardOptions {
  url?: string;
  apiKey?: string;
}

/**
 * `hearth dashboard [--url URL] [--api-key KEY]` (and `hearth` alone in a terminal): the live
 * Ink dashboard over the gateway's REST and WebSocket API. Ink and React load only here.
 */
export function registerDashboard(program: Command, ctx: CommandContext): void {
  program
    .command('dashboard')
    .description('live dashboard: status, approvals, usage, memory, channels, log and chat')
    .option('--url <url>', 'a gateway elsewhere (default: the one this machine runs)')
    .option('--api-key <key>', 'its API key (default: HEARTH_API_KEY, else the config’s)')
    .action(async (options: DashboardOptions) => {
      const input = ctx.deps.input as NodeJS.ReadableStream & { isTTY?: boolean };
      if (!ctx.deps.isTTY || input.isTTY !== true) {
        throw new CliError(
          'the dashboard needs a terminal; for scripts use hearth status --json or hearth approvals pending --json',
          2,
        );
      }
      const { runDashboard } = await import('../dashboard/run-dashboard.ts');
      await runDashboard(ctx, options);
    });
}
