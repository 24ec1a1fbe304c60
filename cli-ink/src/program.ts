import { resolve } from 'node:path';
import { VERSION } from '@hearth/gateway/version';
import { Command } from 'commander';
import type { CliDeps, CommandContext } from './deps.ts';
import { wantsJson } from './json-mode.ts';
import { usageExit } from './usage-exit.ts';

type Register = (program: Command, ctx: CommandContext) => void;

/**
 * Every top-level command and how to load the module that defines it. Only the command that
 * runs is loaded (`hearth status` does not load the gateway, the chat client or the memory
 * tools); help and unknown commands load them all. The order is the order of `--help`.
 */
const COMMANDS: ReadonlyArray<readonly [name: string, load: () => Promise<Register>]> = [
  ['start', async () => (await import('./commands/start.ts')).registerStart],
  ['stop', async () => (await import('./commands/stop.ts')).registerStop],
  ['status', async () => (await import('./commands/status.ts')).registerStatus],
  ['dashboard', async () => (await import('./commands/dashboard.ts')).registerDashboard],
  ['setup', async () => (await import('./commands/setup.ts')).registerSetup],
  ['config', async () => (await import('./commands/config/index.ts')).registerConfig],
  ['backup', async () => (await import('./commands/backup/index.ts')).registerBackup],
  ['approvals', async () => (await import('./commands/approvals.ts')).registerApprovals],
  ['channels', async () => (await import('./commands/channels.ts')).registerChannels],
  ['chat', async () => (await import('./commands/chat.ts')).registerChat],
  ['hub', async () => (await import('./commands/hub/index.ts')).registerHub],
  ['mcp', async () => (await import('./commands/mcp/index.ts')).registerMcp],
  ['memory', async () => (await import('./commands/memory/index.ts')).registerMemory],
  ['migrate', async () => (await import('./commands/migrate/index.ts')).registerMigrate],
  ['models', async () => (await import('./commands/models.ts')).registerModels],
  ['orchestrate', async () => (await import('./commands/orchestrate.ts')).registerOrchestrate],
  ['plugins', async () => (await import('./commands/plugins/index.ts')).registerPlugins],
  ['skills', async () => (await import('./commands/skills/index.ts')).registerSkills],
  ['tools', async () => (await import('./commands/tools.ts')).registerTools],
  ['usage', async () => (await import('./commands/usage.ts')).registerUsage],
  ['version', async () => (await import('./commands/version.ts')).registerVersion],
  ['voice', async () => (await import('./commands/voice/index.ts')).registerVoice],
  ['update', async () => (await import('./commands/update.ts')).registerUpdate],
  ['open', async () => (await import('./commands/open.ts')).registerOpen],
  ['tray', async () => (await import('./commands/tray.ts')).registerTray],
  ['cloud', async () => (await import('./commands/cloud/index.ts')).registerCloud],
  ['autostart', async () => (await import('./commands/autostart/index.ts')).registerAutostart],
];

/** The global options that take a value: the word after them is not the command. */
const VALUE_OPTIONS = new Set(['-c', '--config']);

/**
 * The `hearth` command tree for `argv` (without node and the script): the command `argv`
 * names, or all of them. Parse errors and --help/--version throw a CommanderError
 * (exitOverride) instead of exiting: exit code 2 for every usage error anywhere in the tree,
 * 0 for help and version (usage-exit.ts).
 */
export async function buildProgram(deps: CliDeps, argv: readonly string[]): Promise<Command> {
  const program = new Command('hearth')
    .description('Hearth: a self-hosted gateway for a personal AI agent')
    .version(VERSION, '-V, --version', 'print the version')
    .option('-c, --config <path>', 'config.toml to use', deps.env.configPath)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride(usageExit)
    .configureOutput({
      writeOut: (text) => deps.output.out(text),
      // With --json, run-cli.ts reports a usage error as {"detail": …} instead.
      writeErr: wantsJson(argv) ? () => {} : (text) => deps.output.err(text),
    });

  const ctx: CommandContext = {
    deps,
    configPath: () => resolve(program.opts<{ config: string }>().config),
  };
  const named = commandName(argv);
  const wanted = COMMANDS.filter(([name]) => name === named);
  const registers = await Promise.all(
    (wanted.length > 0 ? wanted : COMMANDS).map(([, load]) => load()),
  );
  for (const register of registers) register(program, ctx);
  return program;
}

/**
 * `hearth` with no command in a terminal opens the dashboard (global options such as `-c` are
 * kept); anything else, including `--help` and `--version`, is left as it is.
 */
export function withDefaultCommand(argv: readonly string[], isTTY: boolean): readonly string[] {
  if (!isTTY || commandName(argv) !== undefined) return argv;
  if (
    argv.some((word) => !VALUE_OPTIONS.has(word) && word.startsWith('-') && !isValueOf(argv, word))
  )
    return argv;
  return [...argv, 'dashboard'];
}

function isValueOf(argv: readonly string[], word: string): boolean {
  const index = argv.indexOf(word);
  return index > 0 && VALUE_OPTIONS.has(argv[index - 1] ?? '');
}

/** The first word of `argv` that is neither a global option nor its value. */
export function commandName(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i] ?? '';
    if (word === '--') return argv[i + 1];
    if (VALUE_OPTIONS.has(word)) i += 1;
    else if (!word.startsWith('-')) return word;
  }
  return undefined;
}
