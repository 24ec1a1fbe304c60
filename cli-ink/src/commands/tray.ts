import type { Command } from 'commander';
import { CliError } from '../cli-error.ts';
import type { CommandContext } from '../deps.ts';

/**
 * `hearth tray`: a system-tray icon needs a native desktop toolkit that this Node CLI does not
 * ship, so on every system it says clearly that the tray is not available (exit 1) and points
 * to what works instead.
 */
export function registerTray(program: Command, ctx: CommandContext): void {
  program
    .command('tray')
    .description('system tray icon (not available on this system)')
    .option('--json', 'print {available, reason} as JSON')
    .action((options: { json?: boolean }) => {
      const reason = `a tray icon is not available on this system (${ctx.deps.platform}): this CLI has no desktop tray; use hearth dashboard in a terminal or hearth open for the web client`;
      if (options.json) {
        ctx.deps.output.out(JSON.stringify({ available: false, reason }));
        throw new CliError('tray not available', 1);
      }
      throw new CliError(reason, 1);
    });
}
