import type { Command } from 'commander';
import { CliError } from '../cli-error.ts';
import type { CommandContext } from '../deps.ts';

/** Why there is no tray icon, on every system (README, "Deviations from the interface"). */
export const TRAY_NOT_OFFERED =
  'hearth tray is not offered: no maintained Node library draws a tray icon ' +
  '(StatusNotifier on Linux desktops, the macOS menu bar) without fetching a native helper ' +
  'program at install time, which this project does not ship; use hearth dashboard in a ' +
  'terminal, or hearth open for the web client';

/**
 * `hearth tray`: left out of the help. The spec lists it, but a tray icon needs a native
 * desktop helper that no maintained Node library provides, so the command says that it is not
 * offered and why (exit 1), on every system, instead of pretending.
 */
export function registerTray(program: Command, ctx: CommandContext): void {
  program
    .command('tray', { hidden: true })
    .description('not offered: no maintained tray library (see README)')
    .option('--json', 'print {available, reason} as JSON')
    .action((options: { json?: boolean }) => {
      if (options.json)
        ctx.deps.output.out(JSON.stringify({ available: false, reason: TRAY_NOT_OFFERED }));
      throw new CliError(options.json ? 'tray not offered' : TRAY_NOT_OFFERED, 1);
    });
}
