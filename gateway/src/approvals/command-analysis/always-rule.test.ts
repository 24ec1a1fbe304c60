/**
 * The interface's approval state table: "with `always: true` an allowlist entry for the program
 * name is stored" — narrowed to the exact command only for a program whose arguments can make it
 * run other code, with a note saying why.
 */
import { describe, expect, it } from 'vitest';
import { analyseCommand } from './analyse-command.ts';
import { alwaysRule, entryNote, isExactCommandPattern, runsOtherCode } from './always-rule.ts';
import { matchesAllowlist, type MatchContext } from './match-allowlist.ts';

const WORKSPACE = '/home/ada/.hearth/workspace';
const rule = (line: string, workdir: string | null = WORKSPACE) =>
  alwaysRule(analyseCommand(line), workdir, WORKSPACE);
const at = (workdir: string | null): MatchContext => ({ workdir, workspace: WORKSPACE });

describe('the program-name entry', () => {
  it.each([
    ['ls -la', 'ls'],
    ['/bin/ls', 'ls'],
    ["sh -c 'ls -la'", 'ls'],
    ['env ls', 'ls'],
    ['xargs echo', 'echo'],
    ['nice -n 5 timeout 5 wc -l f', 'wc'],
    ['rm -rf build', 'rm'],
    ['grep -r TODO src', 'grep'],
    ['curl -s https://example.org', 'curl'],
  ])('%j stores %j with any arguments, in the workspace', (line, pattern) => {
    expect(rule(line)).toEqual({
      entry: { pattern, arg_pattern: null, directory: null },
      note: null,
      scope: `always allows ${pattern} with any arguments in the workspace from now on`,
      allowed: `${pattern} now runs without asking, with any arguments in the workspace`,
    });
  });

  it('allows the program with other arguments anywhere in the workspace, nothing else', () => {
    const { entry } = rule('ls -la');
    const entries = [entry!];
    for (const line of ['ls', 'ls /tmp', "sh -c 'ls -R'", 'env ls x'])
      expect(matchesAllowlist(analyseCommand(line), entries, at(`${WORKSPACE}/sub`)), line).toBe(
        true,
      );
    for (const line of ['ls; rm x', 'ls | sh', 'ls $(id)', 'lsof', './ls'])
      expect(matchesAllowlist(analyseCommand(line), entries, at(WORKSPACE)), line).toBe(false);
    // Outside the workspace it asks again, as for any entry without a directory.
    expect(matchesAllowlist(analyseCommand('ls'), entries, at('/etc'))).toBe(false);
  });

  it('approved in a directory outside the workspace, it holds that directory only', () => {
    expect(rule('cat f.txt', '/srv/app')).toMatchObject({
      entry: { pattern: 'cat', arg_pattern: null, directory: '/srv/app' },
      scope: 'always allows cat with any arguments in this directory from now on',
    });
    const { entry } = rule('cat f.txt', '/srv/app');
    expect(matchesAllowlist(analyseCommand('cat g'), [entry!], at('/srv/app'))).toBe(true);
    expect(matchesAllowlist(analyseCommand('cat g'), [entry!], at(WORKSPACE))).toBe(false);
    expect(matchesAllowlist(analyseCommand('cat g'), [entry!], at('/srv/app/x'))).toBe(false);
  });

  it('a parent of the workspace reached with .. is outside it', () => {
    expect(rule('ls', `${WORKSPACE}/..`).entry?.directory).toBe(`${WORKSPACE}/..`);
    expect(rule('ls', `${WORKSPACE}-other`).entry?.directory).toBe(`${WORKSPACE}-other`);
  });
});

describe('narrowed to the exact command: programs that can run other code', () => {
  it.each([
    ['git --version', 'git', '^git --version$', /-c settings, aliases and hooks/],
    ['sed -n 1p f', 'sed', '^sed -n 1p f$', /its e command runs shell commands/],
    ['tar --version', 'tar', '^tar --version$', /--to-command/],
    ['find . -name x', 'find', '^find \\. -name x$', /-exec/],
    ["python3 -c 'print(1)'", 'python3', "^python3 -c 'print\\(1\\)'$", /runs any code/],
    ['node -e 1', 'node', '^node -e 1$', /runs any code/],
    ["perl -e 'print 1'", 'perl', "^perl -e 'print 1'$", /runs any code/],
    ["ruby -e 'p 1'", 'ruby', "^ruby -e 'p 1'$", /runs any code/],
    ["bash -c 'ls' x", 'ls', null, null],
    ['bash deploy.sh', 'bash', '^bash deploy\\.sh$', /runs any script/],
    ["awk '{print}' f", 'awk', "^awk '\\{print\\}' f$", /system\(\)/],
    ['env', 'env', '^env$', /runs the program it is given/],
    ['xargs', 'echo', null, null],
    ['make test', 'make', '^make test$', /Makefile/],
    ['npm test', 'npm', '^npm test$', /package scripts/],
    ['ssh host uptime', 'ssh', '^ssh host uptime$', /remote host/],
    ['rsync -a a b', 'rsync', '^rsync -a a b$', /-e and --rsh/],
    ['docker ps', 'docker', '^docker ps$', /container/],
  ])('%j', (line, pattern, argPattern, how) => {
    const result = rule(line);
    if (argPattern === null) {
      // Unwrapped to a program that runs no other code: its name-only entry.
      expect(result.entry).toEqual({ pattern, arg_pattern: null, directory: null });
      return;
    }
    expect(result.entry).toEqual({ pattern, arg_pattern: argPattern, directory: WORKSPACE });
    expect(result.note).toMatch(how);
    expect(result.note).toBe(
      `${pattern} can run other code (${runsOtherCode(pattern)}): only this exact command is allowed`,
    );
    expect(result.scope).toBe('always allows exactly this command in this directory');
  });

  it('allows exactly the approved line in exactly its directory, nothing wider', () => {
    const { entry } = rule('git --version', '/srv/app');
    const entries = [entry!];
    expect(matchesAllowlist(analyseCommand('git --version'), entries, at('/srv/app'))).toBe(true);
    expect(matchesAllowlist(analyseCommand("git '--version'"), entries, at('/srv/app'))).toBe(true);
    for (const wider of [
      "git -c 'alias.x=!touch M' x",
      'git --version --x',
      'git --versions',
      'git --version; touch M',
      'git status',
    ])
      expect(matchesAllowlist(analyseCommand(wider), entries, at('/srv/app')), wider).toBe(false);
    expect(matchesAllowlist(analyseCommand('git --version'), entries, at(WORKSPACE))).toBe(false);
  });

  it('quotes every regex metacharacter the canonical text can hold', () => {
    const tricky = "python3 'a|b' '(x)' '[y]' '{1}' '^$' '\\d' '+?*.'";
    const { entry } = rule(tricky);
    expect(matchesAllowlist(analyseCommand(tricky), [entry!], at(WORKSPACE))).toBe(true);
    expect(
      matchesAllowlist(
        analyseCommand("python3 'a' '(x)' '[y]' '{1}' '^$' '\\d' '+?*.'"),
        [entry!],
        at(WORKSPACE),
      ),
    ).toBe(false);
  });

  it('the browser tool and external MCP tools are narrowed too, with no directory', () => {
    expect(rule('navigate https://docs.example.com/', null)).toMatchObject({
      entry: {
        pattern: 'navigate',
        arg_pattern: '^navigate https://docs\\.example\\.com/$',
        directory: null,
      },
      scope: 'always allows exactly this command',
    });
    expect(rule(`mcp:files/read_file '{"path":"a"}'`, null)).toMatchObject({
      entry: { pattern: 'mcp:files/read_file', directory: null },
      note: expect.stringMatching(/^mcp:files\/read_file can run other code \(an external MCP/),
    });
  });
});

describe('nothing stored, and why', () => {
  it.each([
    ['ls | wc', /it runs 2 commands/],
    ["sh -c 'ls; pwd'", /it runs 2 commands/],
    ['ls $(id)', /the analysis cannot see what it runs/],
    ['sudo ls', /the analysis cannot see what it runs/],
    ['./build.sh', /\.\/build\.sh is a path, not a program name/],
    ['/opt/tool/bin/x', /is a path/],
    ["'l*'", /is not a plain program name|cannot see/],
    ["'['", /is not a plain program name|cannot see/],
    ['', /it runs no command|cannot see/],
  ])('%j', (line, why) => {
    const result = rule(line);
    expect(result.entry).toBeNull();
    expect(result.allowed).toBeNull();
    expect(result.note).toMatch(/^nothing was added to the allowlist: /);
    expect(result.note).toMatch(why);
    expect(result.scope).toMatch(/^approves it this time only: /);
  });

  it('a reason that quotes the command shows its hidden characters as escapes, and is bounded', () => {
    const target = `/tmp/x\u202e\u2066${'y'.repeat(500)}`;
    const { note, scope } = rule(`echo hi > '${target}'`);
    expect(note).toMatch(/redirection > writes to/);
    expect(note).not.toMatch(/[\u202e\u2066]/);
    expect(note).toContain('\\u202e\\u2066');
    expect(scope.length).toBeLessThan(260);
    expect(scope).toMatch(/…$/);
  });
});

describe('the note an allowlist entry shows', () => {
  it('is the narrowing reason for an exact entry of a program that runs other code', () => {
    const { entry, note } = rule('git --version');
    expect(entryNote(entry!)).toBe(note);
  });

  it.each([
    [{ pattern: 'ls', arg_pattern: null }],
    [{ pattern: 'git', arg_pattern: null }],
    [{ pattern: 'git', arg_pattern: '^git (status|log)( |$)' }],
    [{ pattern: 'rm', arg_pattern: '^rm -rf build$' }],
    [{ pattern: 'python3', arg_pattern: '^python3 x.py' }],
  ])('is null for %j', (entry) => {
    expect(entryNote(entry)).toBeNull();
  });

  it.each([
    ['^git --version$', true],
    ["^grep -e 'a\\.b\\*' 'x y\\.txt'$", true],
    ['^git (status|log)$', false],
    ['^git .*$', false],
    ['git --version', false],
    ['^git --version', false],
    ['^$', true],
    ['^', false],
    ['^a\\$', false],
  ])('isExactCommandPattern(%j) is %s', (pattern, exact) => {
    expect(isExactCommandPattern(pattern)).toBe(exact);
  });
});
