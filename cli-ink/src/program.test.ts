/**
 * The command tree loads only the command that runs, so `hearth status` does not load the
 * gateway or the chat client; help and unknown commands still see every command.
 */
import { describe, expect, it } from 'vitest';
import { buildProgram, commandName, withDefaultCommand } from './program.ts';
import { createHarness, treeOnlyDeps } from './testing/cli-harness.ts';

const ALL = [
  'start',
  'stop',
  'status',
  'dashboard',
  'setup',
  'config',
  'backup',
  'approvals',
  'channels',
  'chat',
  'hub',
  'mcp',
  'memory',
  'migrate',
  'models',
  'orchestrate',
  'plugins',
  'skills',
  'tools',
  'usage',
  'features',
  'version',
  'voice',
  'update',
  'open',
  'tray',
  'cloud',
  'autostart',
];

async function registered(argv: readonly string[]): Promise<string[]> {
  return (await buildProgram(treeOnlyDeps(), argv)).commands.map((command) => command.name());
}

describe('commandName', () => {
  it('is the first word that is neither a global option nor its value', () => {
    expect(commandName(['status'])).toBe('status');
    expect(commandName(['-c', 'start', 'status', '--json'])).toBe('status');
    expect(commandName(['--config', '/x/config.toml', 'memory', 'list'])).toBe('memory');
    expect(commandName(['--config=/x.toml', 'chat'])).toBe('chat');
    expect(commandName(['--', 'usage'])).toBe('usage');
  });

  it('is undefined when no command is named', () => {
    expect(commandName([])).toBeUndefined();
    expect(commandName(['--help'])).toBeUndefined();
    expect(commandName(['-c', 'status'])).toBeUndefined();
  });
});

describe('withDefaultCommand', () => {
  it('opens the dashboard for `hearth` alone in a terminal, keeping global options', () => {
    expect(withDefaultCommand([], true)).toEqual(['dashboard']);
    expect(withDefaultCommand(['-c', '/x.toml'], true)).toEqual(['-c', '/x.toml', 'dashboard']);
  });

  it('changes nothing without a terminal, with a command, or for --help/--version', () => {
    expect(withDefaultCommand([], false)).toEqual([]);
    expect(withDefaultCommand(['status'], true)).toEqual(['status']);
    expect(withDefaultCommand(['--help'], true)).toEqual(['--help']);
    expect(withDefaultCommand(['-V'], true)).toEqual(['-V']);
  });
});

describe('buildProgram', () => {
  it('registers only the command that runs', async () => {
    expect(await registered(['status', '--json'])).toEqual(['status']);
    expect(await registered(['-c', '/x/config.toml', 'config', 'show'])).toEqual(['config']);
  });

  it('registers every command for help, no command or an unknown one', async () => {
    for (const argv of [[], ['--help'], ['help', 'status'], ['stauts']]) {
      expect(await registered(argv)).toEqual(ALL);
    }
  });
});

describe('hearth (whole invocations)', () => {
  it('lists every offered command in --help, and suggests the right one for a typo', async () => {
    const harness = await createHarness();
    try {
      const help = await harness.run(['--help']);
      expect(help.code).toBe(0);
      // `tray` is registered but not offered, so the help leaves it out (tray.ts).
      for (const name of ALL.filter((n) => n !== 'tray'))
        expect(help.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
      expect(help.stdout).not.toMatch(/^ {2}tray\b/m);

      // `help <command>` loads that command: its own options and arguments are shown.
      const helpFor = await harness.run(['help', 'migrate']);
      expect(helpFor.code).toBe(0);
      expect(helpFor.stdout).toContain('Usage: hearth migrate [options] <predecessor>');
      expect(helpFor.stdout).toContain('--dry-run');

      const typo = await harness.run(['stauts']);
      expect(typo.code).toBe(2);
      expect(typo.stderr).toContain("unknown command 'stauts'");
      expect(typo.stderr).toContain('status');
    } finally {
      await harness.cleanup();
    }
  });
});
