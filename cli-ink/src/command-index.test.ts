/**
 * The command index is what `hearth --help` lists without loading any command, so each entry
 * must say what the loaded command registers: the same usage after the name, the same
 * description, the same visibility. Then the help text is the same either way.
 */
import { Help } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from './command-index.ts';
import { buildProgram } from './program.ts';
import { treeOnlyDeps } from './testing/cli-harness.ts';

describe('the command index', () => {
  it.each(COMMANDS.map((entry) => [entry.name, entry] as const))(
    'says what the %s command registers',
    async (name, entry) => {
      const program = await buildProgram(treeOnlyDeps(), [name]);
      const [command] = program.commands;
      expect(command?.name()).toBe(name);
      expect(new Help().subcommandTerm(command!)).toBe(
        entry.usage === '' ? name : `${name} ${entry.usage}`,
      );
      expect(command!.description()).toBe(entry.summary);
      const listed = new Help().visibleCommands(program).includes(command!);
      expect(listed).toBe(entry.hidden !== true);
    },
  );

  it('lists each command once', () => {
    const names = COMMANDS.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
