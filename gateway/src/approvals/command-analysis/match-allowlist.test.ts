import { describe, expect, it } from 'vitest';
import type { CommandAnalysis, SimpleCommand } from '../ports.ts';
import { analyseCommand } from './analyse-command.ts';
import {
  alwaysProgram,
  commandMatchesEntry,
  matchesAllowlist,
  programMatchesGlob,
  type AllowlistRule,
} from './match-allowlist.ts';

function command(programName: string, text = programName): SimpleCommand {
  return { program: programName, programName, argv: text.split(' '), text };
}

describe('program name globs', () => {
  it.each([
    ['ls', 'ls', true],
    ['ls', 'l?', true],
    ['ls', 'l*', true],
    ['ls', '[a-l]s', true],
    ['ls', '{ls,cat}', true],
    ['lsblk', 'ls', false],
    ['LS', 'ls', false],
    ['./ls', 'ls', false],
    ['./ls', '*', false],
    ['/tmp/ls', '*', false],
    ['./build.sh', './build.sh', true],
    ['ls', '', false],
    ['ls', '[', false],
  ])('%j against %j is %s', (name, pattern, expected) => {
    expect(programMatchesGlob(name, pattern)).toBe(expected);
  });
});

describe('arg_pattern', () => {
  const git: AllowlistRule = { pattern: 'git', arg_pattern: '^git (status|log)( |$)' };

  it('is tested against the command text', () => {
    expect(commandMatchesEntry(command('git', 'git status'), git)).toBe(true);
    expect(commandMatchesEntry(command('git', 'git log --oneline'), git)).toBe(true);
    expect(commandMatchesEntry(command('git', 'git push'), git)).toBe(false);
  });

  it('is not anchored unless written so', () => {
    const loose: AllowlistRule = { pattern: 'git', arg_pattern: 'status' };
    expect(commandMatchesEntry(command('git', 'git push --status'), loose)).toBe(true);
  });

  it('allows any arguments when null or empty', () => {
    expect(
      commandMatchesEntry(command('ls', 'ls -la /'), { pattern: 'ls', arg_pattern: null }),
    ).toBe(true);
    expect(commandMatchesEntry(command('ls', 'ls -la /'), { pattern: 'ls', arg_pattern: '' })).toBe(
      true,
    );
  });

  it('never matches when it is not a valid regex', () => {
    expect(commandMatchesEntry(command('ls'), { pattern: 'ls', arg_pattern: '(' })).toBe(false);
  });

  it('cannot be bypassed with quotes, since the text is canonical', () => {
    const noPush: AllowlistRule = { pattern: 'git', arg_pattern: '^git (?!push)' };
    expect(matchesAllowlist(analyseCommand("git pu''sh"), [noPush])).toBe(false);
    expect(matchesAllowlist(analyseCommand('git "push"'), [noPush])).toBe(false);
    expect(matchesAllowlist(analyseCommand('git pull'), [noPush])).toBe(true);
  });

  it('does not match an xargs command pinned to exact arguments', () => {
    const exact: AllowlistRule = { pattern: 'git', arg_pattern: '^git status$' };
    expect(matchesAllowlist(analyseCommand('git status'), [exact])).toBe(true);
    expect(matchesAllowlist(analyseCommand('xargs git status'), [exact])).toBe(false);
  });
});

describe('matching a whole line', () => {
  const entries: AllowlistRule[] = [
    { pattern: 'ls', arg_pattern: null },
    { pattern: 'wc', arg_pattern: null },
  ];

  it('needs every simple command to match some entry', () => {
    expect(matchesAllowlist(analyseCommand('ls | wc -l'), entries)).toBe(true);
    expect(matchesAllowlist(analyseCommand('ls | wc -l | sort'), entries)).toBe(false);
  });

  it('never matches an opaque line or a line without commands', () => {
    const opaque: CommandAnalysis = { commands: [command('ls')], opaque: 'something' };
    expect(matchesAllowlist(opaque, entries)).toBe(false);
    expect(matchesAllowlist({ commands: [], opaque: null }, entries)).toBe(false);
    expect(matchesAllowlist(analyseCommand(''), [{ pattern: '*', arg_pattern: null }])).toBe(false);
  });

  it('never matches with no entries', () => {
    expect(matchesAllowlist(analyseCommand('ls'), [])).toBe(false);
  });
});

describe('the program stored for always', () => {
  it.each([
    ['ls -la', 'ls'],
    ['/bin/ls', 'ls'],
    ["sh -c 'ls -la'", 'ls'],
    ['bash -lc "git status"', 'git'],
    ['env ls', 'ls'],
    ['xargs echo', 'echo'],
    ['nice -n 5 timeout 5 make test', 'make'],
    ['git push', 'git'],
    ['g++ -O2 a.cc', 'g++'],
  ])('%j stores %j', (line, expected) => {
    expect(alwaysProgram(analyseCommand(line))).toBe(expected);
  });

  it.each([
    'bash script.sh',
    'echo hi | sh',
    "sh -c 'ls; pwd'",
    'ls | wc',
    "python3 -c 'print(1)'",
    'node -e 1',
    "awk '{print}' f",
    'env',
    'nice',
    'sudo ls',
    './build.sh',
    '/opt/tool/bin/x',
    "'l*'",
    "'['",
    'ls $(id)',
    '',
  ])('%j stores nothing', (line) => {
    expect(alwaysProgram(analyseCommand(line))).toBeNull();
  });
});
