/**
 * The spec's 0/1/2 rule for every command of the tree: help exits 0, a usage error (unknown
 * option, unknown subcommand, missing argument, bad value) exits 2 with a message, also as
 * {"detail": …} when --json is given. The tree is walked, so a new command is covered as soon
 * as it is registered.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { COMMANDS } from './command-index.ts';
import { buildProgram } from './program.ts';
import { createHarness, freePort, treeOnlyDeps, type Harness } from './testing/cli-harness.ts';

interface Node {
  path: string[];
  command: Command;
}

function walk(command: Command, path: string[] = []): Node[] {
  return command.commands.flatMap((sub) => {
    const here = [...path, sub.name()];
    return [{ path: here, command: sub }, ...walk(sub, here)];
  });
}

// Each command as it is registered when it runs (`--help` only lists them, unloaded).
const programs = await Promise.all(
  COMMANDS.map((entry) => buildProgram(treeOnlyDeps(), [entry.name])),
);
const nodes = programs.flatMap((program) => walk(program));
const leaves = nodes.filter((node) => node.command.commands.length === 0);
const groups = nodes.filter((node) => node.command.commands.length > 0);
/** The required options of `node`, each with a placeholder value, so parsing gets past them. */
const required = (node: Node) =>
  node.command.options.filter((option) => option.mandatory).flatMap((o) => [o.long!, 'x']);

/**
 * Commands that print no single result: they run the gateway or a terminal UI, hold an
 * interactive conversation or edit a file in $EDITOR, or speak MCP on stdio. Everything else
 * that prints takes --json.
 */
const WITHOUT_JSON = ['start', 'dashboard', 'config edit', 'mcp'];

/** Leaves with a required argument: run without it, they must say which one is missing. */
const needArguments = leaves.filter((node) =>
  node.command.registeredArguments.some((argument) => argument.required),
);

/** A group with an action of its own (commander keeps it as `_actionHandler`). */
const runsByItself = (node: Node) =>
  (node.command as unknown as { _actionHandler: unknown })._actionHandler !== null;

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.cleanup());

const label = (node: Node) => node.path.join(' ');

describe('the command tree', () => {
  it('every command that prints a result accepts --json', () => {
    const runnable = nodes.filter(
      (node) => node.command.commands.length === 0 || WITHOUT_JSON.includes(label(node)),
    );
    const missing = runnable
      .filter((node) => !node.command.options.some((option) => option.long === '--json'))
      .map(label);
    expect(missing.sort()).toEqual([...WITHOUT_JSON].sort());
  });

  it('has every command of the spec, each group with its subcommands', () => {
    expect(leaves.length).toBeGreaterThan(70);
    for (const name of ['status', 'usage', 'version', 'update', 'open', 'tray', 'migrate'])
      expect(leaves.map(label)).toContain(name);
    for (const name of ['backup', 'approvals', 'approvals allowlist', 'cloud', 'autostart'])
      expect(groups.map(label)).toContain(name);
  });
});

describe.each(leaves.map((node) => [label(node), node] as const))('hearth %s', (_name, node) => {
  it('--help exits 0 with its usage on stdout', async () => {
    const result = await h.run([...node.path, '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Usage: hearth ${node.path.join(' ')}`);
    expect(result.stderr).toBe('');
  });

  it('an unknown option exits 2 and says so; with --json as {"detail": …} on stderr', async () => {
    const result = await h.run([...node.path, ...required(node), '--no-such-option']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option '--no-such-option'");
    expect(result.stdout).toBe('');

    const json = await h.run([...node.path, ...required(node), '--json', '--no-such-option']);
    expect(json.code).toBe(2);
    expect(json.stdout).toBe('');
    const detail = (JSON.parse(json.stderr) as { detail: string }).detail;
    expect(detail).toMatch(/^unknown option '--(no-such-option|json)'/);
  });
});

describe.each(needArguments.map((node) => [label(node), node] as const))(
  'hearth %s without its argument',
  (_name, node) => {
    it('exits 2 naming the missing argument', async () => {
      const result = await h.run([...node.path, ...required(node)]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('missing required argument');
    });
  },
);

describe.each(groups.map((node) => [label(node), node] as const))('hearth %s', (_name, node) => {
  it('an unknown subcommand exits 2; no subcommand exits 2 with the help', async () => {
    const unknown = await h.run([...node.path, 'no-such-subcommand']);
    expect(unknown.code).toBe(2);
    // A group that runs by itself (`mcp` serves MCP on stdio) takes no arguments instead.
    expect(unknown.stderr).toMatch(
      /unknown command 'no-such-subcommand'|too many arguments for '[a-z]+'/,
    );
    if (runsByItself(node)) return;

    const bare = await h.run(node.path);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain(`Usage: hearth ${node.path.join(' ')}`);

    const json = await h.run([...node.path, '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr)).toHaveProperty('detail');
  });
});

describe('bad values are usage errors (exit 2), checked before anything runs', () => {
  it.each([
    [['start', '--port', 'abc'], 'expected a port number from 0 to 65535'],
    [['start', '--port', '70000'], 'expected a port number from 0 to 65535'],
    [['start', '--voice-mode', 'shout'], 'Allowed choices are ptt, continuous, wake, off'],
    [['migrate', 'someone-else'], 'Hearth migrates from: neuralcleave'],
    [['memory', 'search', 'x', '--limit', 'many'], '--limit must be a number'],
    [['memory', 'edit', 'seven', '--content', 'x'], 'not a memory id: seven'],
    [['memory', 'prune'], 'give --days, --threshold or both'],
    [['approvals', 'allowlist', 'remove', '-3'], 'not an entry id'],
    [['approvals', 'allowlist', 'add', '/bin/rm'], 'program name or glob'],
    [['channels', 'add', 'x', '--type', 'carrier-pigeon'], '--type must be one of'],
    [['hub', 'install', 'https://h.example/p', '--checksum', 'abc'], 'SHA-256'],
    [['voice', 'clone', '../etc', 'a.wav'], 'the voice name must be'],
    [['status', 'extra'], "too many arguments for 'status'"],
  ])('hearth %j', async (argv, message) => {
    const result = await h.run(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(h.gateways).toHaveLength(0);

    const json = await h.run([...argv, '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr)).toEqual({ detail: expect.stringContaining(message) });
  });
});

describe('failures exit 1', () => {
  it('a command that cannot reach what it needs exits 1, as {"detail": …} with --json', async () => {
    const alone = await createHarness();
    onTestFinished(() => alone.cleanup());
    await writeFile(join(alone.home, 'config.toml'), `[gateway]\nport = ${await freePort()}\n`);
    const result = await alone.run(['status', '--json']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toEqual({ detail: expect.any(String) });
  });
});

describe('--json prints exactly one JSON document on stdout', () => {
  it('for commands that act (version, config init, set-key, channels add/remove, stop)', async () => {
    const alone = await createHarness();
    onTestFinished(() => alone.cleanup());
    const json = async (argv: string[]) => {
      const result = await alone.run([...argv, '--json']);
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout) as Record<string, unknown>;
    };
    expect(await json(['version'])).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    const configPath = join(alone.home, 'config.toml');
    expect(await json(['config', 'init'])).toEqual({ path: configPath, written: true });
    const key = await json(['config', 'set-key']);
    expect(key).toMatchObject({ config: configPath, restart_needed: true });
    expect(key.api_key).toMatch(/^[\w-]{43}$/);
    expect(
      await json([
        'channels',
        'add',
        'hooks',
        '--type',
        'webhook',
        '--set',
        'signing_secret=ENV:HOOK_SECRET',
        '--set',
        'callback_url=https://example.org/hook',
      ]),
    ).toEqual({ name: 'hooks', type: 'webhook', config: configPath, restart_needed: true });
    expect(await json(['channels', 'remove', 'hooks'])).toMatchObject({
      name: 'hooks',
      removed: true,
    });
    expect(await json(['stop'])).toEqual({ running: false });
  });

  it('a key read from stdin is not echoed, not even as JSON', async () => {
    const alone = await createHarness();
    onTestFinished(() => alone.cleanup());
    const secret = 'a-very-secret-key-0123456789';
    const result = await alone.run(['config', 'set-key', '--stdin', '--json'], {}, [`${secret}\n`]);
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).not.toContain(secret);
    expect(JSON.parse(result.stdout)).not.toHaveProperty('api_key');
  });
});
