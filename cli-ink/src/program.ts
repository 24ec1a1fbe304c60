import { resolve } from 'node:path';
import { VERSION } from '@hearth/gateway';
import { Command } from 'commander';
import { registerApprovals } from './commands/approvals.ts';
import { registerChat } from './commands/chat.ts';
import { registerConfig } from './commands/config/index.ts';
import { registerMemory } from './commands/memory/index.ts';
import { registerModels } from './commands/models.ts';
import { registerStart } from './commands/start.ts';
import { registerStatus } from './commands/status.ts';
import { registerStop } from './commands/stop.ts';
import { registerTools } from './commands/tools.ts';
import { registerUsage } from './commands/usage.ts';
import { registerVersion } from './commands/version.ts';
import type { CliDeps, CommandContext } from './deps.ts';

/**
 * The `hearth` command tree. Parse errors and --help/--version throw a CommanderError
 * (exitOverride) instead of exiting, so the caller decides the exit code.
 */
export function buildProgram(deps: CliDeps): Command {
  const program = new Command('hearth')
    .description('Hearth: a self-hosted gateway for a personal AI agent')
    .version(VERSION, '-V, --version', 'print the version')
    .option('-c, --config <path>', 'config.toml to use', deps.env.configPath)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => deps.output.out(text),
      writeErr: (text) => deps.output.err(text),
    });

  const ctx: CommandContext = {
    deps,
    configPath: () => resolve(program.opts<{ config: string }>().config),
  };
  registerStart(program, ctx);
  registerStop(program, ctx);
  registerStatus(program, ctx);
  registerConfig(program, ctx);
  registerApprovals(program, ctx);
  registerChat(program, ctx);
  registerMemory(program, ctx);
  registerModels(program, ctx);
  registerTools(program, ctx);
  registerUsage(program, ctx);
  registerVersion(program, ctx);
  return program;
}
