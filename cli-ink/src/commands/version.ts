import type { Command } from 'commander';
import { VERSION } from '@hearth/gateway/version';
import type { CommandContext } from '../deps.ts';
import { printResult } from '../print-result.ts';

/** `hearth version`: the software version. */
export function registerVersion(program: Command, ctx: CommandContext): void {
  program
    .command('version')
    .description('print the version')
    .option('--json', 'print {version} as JSON')
    .action((options: { json?: boolean }) =>
      printResult(ctx.deps.output, options, { version: VERSION }, () => VERSION),
    );
}
