import type { Command } from 'commander';
import { VERSION } from '@hearth/gateway/version';
import type { CommandContext } from '../deps.ts';

/** `hearth version`: the software version. */
export function registerVersion(program: Command, ctx: CommandContext): void {
  program
    .command('version')
    .description('print the version')
    .action(() => ctx.deps.output.out(VERSION));
}
