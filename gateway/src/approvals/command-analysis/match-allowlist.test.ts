import { describe, expect, it } from 'vitest';
import type { CommandAnalysis, SimpleCommand } from '../ports.ts';
import { analyseCommand } from './analyse-command.ts';
import {
  argPatternProblem,
  commandMatchesEntry,
  matchesAllowlist,
  programMatchesGlob,
  type AllowlistRule,
  type MatchContext,
} from './match-allowlist.ts';

const WORKSPACE = '/home/ada/.hearth/workspace';
/** A request running in the workspace itself. */
const HERE: MatchContext = { workdir: WORKSPACE, workspace: WORKSPACE };

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
    expect(commandMatchesEntry(command('git', 'git status'), git, HERE)).toBe(true);
    expect(commandMatchesEntry(command('git', 'git log --oneline'), git, HERE)).toBe(true);
    expect(commandMatchesEntry(command('git', 'git push'), git, HERE)).toBe(false);
  });

  it('is not anchored unless written so', () => {
    const loose: AllowlistRule = { pattern: 'git', arg_pattern: 'status' };
    expect(commandMatchesEntry(command('git', 'git push --status'), loose, HERE)).toBe(true);
  });

  it('allows any arguments when null or empty', () => {
    expect(
      commandMatchesEntry(command('ls', 'ls -la /'), { pattern: 'ls', arg_pattern: null }, HERE),
    ).toBe(true);
    expect(
      commandMatchesEntry(command('ls', 'ls -la /'), { pattern: 'ls', arg_pattern: '' }, HERE),
    ).toBe(true);
  });

  it('never matches when it is not a valid regex, and says which entry was skipped', () => {
    const skipped: string[] = [];
    const context: MatchContext = {
      ...HERE,
      onInvalidPattern: (rule, reason) => skipped.push(`${rule.arg_pattern}: ${reason}`),
    };
    expect(commandMatchesEntry(command('ls'), { pattern: 'ls', arg_pattern: '(' }, context)).toBe(
      false,
    );
    expect(skipped).toEqual([expect.stringMatching(/^\(: .*missing closing \)/)]);
  });

  it.each([
    ['a backreference', '^echo (a)\\1$'],
    ['a lookahead', '^git (?!push)'],
    ['a lookbehind', '(?<=x)y'],
  ])('an entry stored before RE2 with %s never matches (it is skipped, not run)', (_what, p) => {
    expect(argPatternProblem(p)).toEqual(expect.any(String));
    expect(
      commandMatchesEntry(command('git', 'git status'), { pattern: '*', arg_pattern: p }, HERE),
    ).toBe(false);
  });

  it('runs in linear time: a catastrophic-backtracking pattern answers at once', () => {
    const hostile: AllowlistRule = { pattern: 'echo', arg_pattern: '^echo (a+)+$' };
    const started = performance.now();
    const line = `echo ${'a'.repeat(5_000)} b`;
    expect(matchesAllowlist(analyseCommand(line), [hostile], HERE)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('cannot be bypassed with quotes, since the text is canonical', () => {
    const pull: AllowlistRule = { pattern: 'git', arg_pattern: '^git (pull|status)( |$)' };
    expect(matchesAllowlist(analyseCommand("git pu''ll"), [pull], HERE)).toBe(true);
    expect(matchesAllowlist(analyseCommand('git "pull"'), [pull], HERE)).toBe(true);
    expect(matchesAllowlist(analyseCommand("git 'pull;rm -rf x'"), [pull], HERE)).toBe(false);
  });

  it('does not match an xargs command pinned to exact arguments', () => {
    const exact: AllowlistRule = { pattern: 'git', arg_pattern: '^git status$' };
    expect(matchesAllowlist(analyseCommand('git status'), [exact], HERE)).toBe(true);
    expect(matchesAllowlist(analyseCommand('xargs git status'), [exact], HERE)).toBe(false);
  });
});

describe('matching a whole line', () => {
  const entries: AllowlistRule[] = [
    { pattern: 'ls', arg_pattern: null },
    { pattern: 'wc', arg_pattern: null },
  ];

  it('needs every simple command to match some entry', () => {
    expect(matchesAllowlist(analyseCommand('ls | wc -l'), entries, HERE)).toBe(true);
    expect(matchesAllowlist(analyseCommand('ls | wc -l | sort'), entries, HERE)).toBe(false);
  });

  it('never matches an opaque line or a line without commands', () => {
    const opaque: CommandAnalysis = { commands: [command('ls')], opaque: 'something' };
    expect(matchesAllowlist(opaque, entries, HERE)).toBe(false);
    expect(matchesAllowlist({ commands: [], opaque: null }, entries, HERE)).toBe(false);
    expect(matchesAllowlist(analyseCommand(''), [{ pattern: '*', arg_pattern: null }], HERE)).toBe(
      false,
    );
  });

  it('never matches with no entries', () => {
    expect(matchesAllowlist(analyseCommand('ls'), [], HERE)).toBe(false);
  });
});

describe('the working directory', () => {
  const rm: AllowlistRule = { pattern: 'rm', arg_pattern: '^rm -rf build$' };
  const line = analyseCommand('rm -rf build');
  const at = (workdir: string | null): MatchContext => ({ workdir, workspace: WORKSPACE });

  it('an entry without a directory matches in the workspace and below it', () => {
    expect(matchesAllowlist(line, [rm], at(WORKSPACE))).toBe(true);
    expect(matchesAllowlist(line, [rm], at(`${WORKSPACE}/project`))).toBe(true);
  });

  it.each(['/', '/home/ada', '/home/ada/.hearth', `${WORKSPACE}-other`, '/etc'])(
    'an entry without a directory does not match in %s, which the model chose',
    (workdir) => {
      expect(matchesAllowlist(line, [rm], at(workdir))).toBe(false);
    },
  );

  it('an entry naming a directory matches there and nowhere else', () => {
    const there: AllowlistRule = { ...rm, directory: '/srv/app' };
    expect(matchesAllowlist(line, [there], at('/srv/app'))).toBe(true);
    expect(matchesAllowlist(line, [there], at('/srv/app/sub'))).toBe(false);
    expect(matchesAllowlist(line, [there], at('/srv'))).toBe(false);
    expect(matchesAllowlist(line, [there], at(WORKSPACE))).toBe(false);
  });

  it('a tool without a directory (the browser) matches only entries without one', () => {
    const navigate = analyseCommand('navigate https://docs.example.com/');
    expect(matchesAllowlist(navigate, [{ pattern: 'navigate', arg_pattern: null }], at(null))).toBe(
      true,
    );
    expect(
      matchesAllowlist(
        navigate,
        [{ pattern: 'navigate', arg_pattern: null, directory: WORKSPACE }],
        at(null),
      ),
    ).toBe(false);
  });
});
