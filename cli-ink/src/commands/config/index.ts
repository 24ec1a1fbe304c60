import type { Command } from 'commander';
import type { CommandContext } from '../../deps.ts';
import { registerConfigEdit } from './edit.ts';
import { registerConfigInit } from './init.ts';
import { registerConfigSetKey } from './set-key.ts';
import { registerConfigShow } from './show.ts';

/** `hearth config show|init|edit|set-key`. */
export function registerConfig(program: Command, ctx: CommandContext): void {
  const config = program.command('config').description('show, create or edit config.toml');
  registerConfigShow(config, ctx);
  registerConfigInit(config, ctx);
  registerConfigEdit(config, ctx);
  registerConfigSetKey(config, ctx);
}
