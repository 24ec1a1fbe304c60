import { resolve } from 'node:path';
import { VERSION } from '@hearth/gateway/version';
import { Command, Help } from 'commander';
import { COMMANDS, type CommandEntry } from './command-index.ts';
import type { CliDeps, CommandContext } from './deps.ts';
import { wantsJson } from './json-mode.ts';
import { usageExit } from './usage-exit.ts';

/** The global options that take a value: the word after them is not the command. */
const VALUE_OPTIONS = new Set(['-c', '--config']);

/**
 * The `hearth` command tree for `argv` (without node and the script): the command `argv`
 * names, loaded (command-index.ts). Without one (`--help`, no command, a typo), every command
 * is only listed, from the index, so the help and the "did you mean" suggestion cost no
 * command module; `help <command>` loads that one command for its own help. Parse errors and
 * --help/--version throw a CommanderError (exitOverride) instead of exiting: exit code 2 for
 * every usage error anywhere in the tree, 0 for help and version (usage-exit.ts).
 */
export async function buildProgram(deps: CliDeps, argv: readonly string[]): Promise<Command> {
  const listed = new Map<Command, CommandEntry>();
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
    })
    .configureHelp({
      subcommandTerm: (command) => {
        const entry = listed.get(command);
        if (entry === undefined) return new Help().subcommandTerm(command);
        return entry.usage === '' ? entry.name : `${entry.name} ${entry.usage}`;
      },
    });

  const ctx: CommandContext = {
    deps,
    configPath: () => resolve(program.opts<{ config: string }>().config),
  };
  const position = commandPosition(argv);
  const named = position === undefined ? undefined : argv[position];
  const runs = COMMANDS.find((entry) => entry.name === named);
  if (runs !== undefined) {
    (await runs.load())(program, ctx);
    return program;
  }
  const helpFor =
    named === 'help' && position !== undefined ? commandName(argv.slice(position + 1)) : undefined;
  for (const entry of COMMANDS) {
    if (entry.name === helpFor) (await entry.load())(program, ctx);
    else listed.set(listOnly(program, entry), entry);
  }
  return program;
}

/** A command that is listed (help, suggestions) but not loaded; it never runs. */
function listOnly(program: Command, entry: CommandEntry): Command {
  return program
    .command(entry.name, { hidden: entry.hidden === true })
    .description(entry.summary)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new Error(`the ${entry.name} command was listed but not loaded`);
    });
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
  const position = commandPosition(argv);
  return position === undefined ? undefined : argv[position];
}

function commandPosition(argv: readonly string[]): number | undefined {
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i] ?? '';
    if (word === '--') return i + 1 < argv.length ? i + 1 : undefined;
    if (VALUE_OPTIONS.has(word)) i += 1;
    else if (!word.startsWith('-')) return i;
  }
  return undefined;
}
