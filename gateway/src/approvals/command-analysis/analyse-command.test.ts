import { describe, expect, it } from 'vitest';
import type { CommandAnalysis } from '../ports.ts';
import {
  analyseCommand,
  MAX_DEPTH,
  MAX_LINE_LENGTH,
  MAX_NESTING,
  MAX_STATEMENTS,
} from './analyse-command.ts';

function analysed(line: string): CommandAnalysis {
  const analysis = analyseCommand(line);
  expect(analysis.opaque).toBeNull();
  return analysis;
}

function programs(line: string): string[] {
  return analysed(line).commands.map((command) => command.programName);
}

function texts(line: string): string[] {
  return analysed(line).commands.map((command) => command.text);
}

function reason(line: string): string {
  const analysis = analyseCommand(line);
  expect(analysis.commands).toEqual([]);
  expect(analysis.opaque).not.toBeNull();
  return analysis.opaque ?? '';
}

describe('the parser', () => {
  it('loads lazily without leaving globalThis.require behind', () => {
    const before = Object.getOwnPropertyDescriptor(globalThis, 'require');
    expect(analyseCommand('ls').commands).toHaveLength(1);
    expect(Object.getOwnPropertyDescriptor(globalThis, 'require')).toEqual(before);
  });
});

describe('command structure', () => {
  it('takes a pipeline apart into its simple commands', () => {
    expect(analysed('cat a.txt | grep -i foo | head -5').commands).toEqual([
      { program: 'cat', programName: 'cat', argv: ['cat', 'a.txt'], text: 'cat a.txt' },
      { program: 'grep', programName: 'grep', argv: ['grep', '-i', 'foo'], text: 'grep -i foo' },
      { program: 'head', programName: 'head', argv: ['head', '-5'], text: 'head -5' },
    ]);
  });

  it.each([
    ['ls; pwd', ['ls', 'pwd']],
    ['ls && pwd || date', ['ls', 'pwd', 'date']],
    ['ls\npwd\n\ndate', ['ls', 'pwd', 'date']],
    ['ls & pwd', ['ls', 'pwd']],
    ['ls |& wc', ['ls', 'wc']],
    ['! ls', ['ls']],
  ])('finds every command of the list %j', (line, expected) => {
    expect(programs(line)).toEqual(expected);
  });

  it.each([
    ['(ls; pwd)', ['ls', 'pwd']],
    ['{ ls; pwd; }', ['ls', 'pwd']],
    ['if ls; then pwd; elif date; then wc; else cat; fi', ['ls', 'pwd', 'date', 'wc', 'cat']],
    ['while ls; do pwd; done', ['ls', 'pwd']],
    ['until ls; do pwd; done', ['ls', 'pwd']],
    ['case x in a|b) ls;; *) pwd;; esac', ['ls', 'pwd']],
    ['time ls -la', ['ls']],
    ['time -p ls | wc', ['ls', 'wc']],
  ])('walks into the body of %j', (line, expected) => {
    expect(programs(line)).toEqual(expected);
  });

  it('ignores comments', () => {
    expect(programs('ls -la # $(rm -rf /) is only a comment')).toEqual(['ls']);
  });

  it('finds no command in an empty line, without calling it opaque', () => {
    expect(analyseCommand('')).toEqual({ commands: [], opaque: null });
    expect(analyseCommand('  # nothing\n')).toEqual({ commands: [], opaque: null });
  });
});

describe('quoting and program names', () => {
  it.each(["'ls'", '"ls"', 'l\\s', "'l''s'", '"l"s', 'l\\\ns', '\\ls'])(
    '%j is the program ls',
    (word) => {
      const [command] = analysed(`${word} -la`).commands;
      expect(command).toMatchObject({ program: 'ls', programName: 'ls', argv: ['ls', '-la'] });
    },
  );

  it('removes quotes from arguments and keeps quoted text as data', () => {
    const [command] = analysed(`echo "a; rm x" 'b | sh' c\\ d "e\\"f" "g\\h"`).commands;
    expect(command?.argv).toEqual(['echo', 'a; rm x', 'b | sh', 'c d', 'e"f', 'g\\h']);
  });

  it('renders text canonically, quoting only what needs it', () => {
    expect(texts(`g''it  "log"   --format='%h %s' HEAD~1`)).toEqual([
      "git log '--format=%h %s' 'HEAD~1'",
    ]);
    expect(texts("echo ''")).toEqual(["echo ''"]);
    expect(texts(`echo "it's"`)).toEqual([`echo 'it'"'"'s'`]);
  });

  it.each([
    ['/bin/ls', 'ls'],
    ['/usr/bin/ls', 'ls'],
    ['/usr/local/bin/ls', 'ls'],
    ['/sbin/ip', 'ip'],
    ['/usr/sbin/ip', 'ip'],
    ['./ls', './ls'],
    ['bin/ls', 'bin/ls'],
    ['../ls', '../ls'],
    ['/tmp/ls', '/tmp/ls'],
    ['/opt/tool/bin/ls', '/opt/tool/bin/ls'],
    ['/usr/bin/../../tmp/ls', '/usr/bin/../../tmp/ls'],
    ['/usr/bin/./ls', '/usr/bin/./ls'],
    ['//bin/ls', '//bin/ls'],
  ])('%j has the program name %j', (program, name) => {
    const [command] = analysed(`${program} -la`).commands;
    expect(command).toMatchObject({ program, programName: name });
  });

  it('uses the program name in the text, so /usr/bin/git log reads as git log', () => {
    expect(texts('/usr/bin/git log -1')).toEqual(['git log -1']);
  });

  it('keeps ~ that is not a tilde expansion', () => {
    expect(analysed('git log HEAD~1 a~b').commands[0]?.argv).toEqual([
      'git',
      'log',
      'HEAD~1',
      'a~b',
    ]);
  });

  it('keeps [ and ] that are not a bracket glob', () => {
    expect(programs('[ -f x ] && ls')).toEqual(['[', 'ls']);
  });
});

describe('wrappers are unwrapped to the command they run', () => {
  it.each([
    ["sh -c 'ls -la'", ['ls -la']],
    ['bash -lc "ls | wc -l"', ['ls', 'wc -l']],
    ["/bin/bash -e -u -c 'ls' ignored-arg0", ['ls']],
    ["bash -o pipefail -c 'ls | wc'", ['ls', 'wc']],
    ["dash -c -- 'pwd'", ['pwd']],
    ['sh -c "sh -c \'ls\'"', ['ls']],
    ['env ls -la', ['ls -la']],
    ['env -i -u HOME ls', ['ls']],
    ['env - ls', ['ls']],
    ['/usr/bin/env -- ls', ['ls']],
    ['nice ls', ['ls']],
    ['nice -n 5 ls', ['ls']],
    ['nice -10 ls', ['ls']],
    ['nice --adjustment=3 ls', ['ls']],
    ['nohup ls', ['ls']],
    ['timeout 5 ls', ['ls']],
    ['timeout -s KILL -k 2 1.5s ls', ['ls']],
    ['timeout --signal=TERM 10m ls', ['ls']],
    ['stdbuf -oL -e0 ls', ['ls']],
    ['setsid -f ls', ['ls']],
    ['exec ls', ['ls']],
    ['exec -a name ls', ['ls']],
    ['command ls', ['ls']],
    ['command -p ls', ['ls']],
    ['builtin echo hi', ['echo hi']],
    ['busybox ls -la', ['ls -la']],
    ['\\time -p ls', ['ls']],
    ["env nice timeout 5 sh -c 'nohup ls'", ['ls']],
  ])('%j runs %j', (line, expected) => {
    expect(texts(line)).toEqual(expected);
  });

  it('treats a shell without -c as the shell itself', () => {
    expect(programs('bash script.sh')).toEqual(['bash']);
    expect(programs('ls | sh')).toEqual(['ls', 'sh']);
    expect(programs('sh -- -c')).toEqual(['sh']);
  });

  it('treats env, nice and busybox without a command as themselves', () => {
    expect(programs('env')).toEqual(['env']);
    expect(programs('nice')).toEqual(['nice']);
    expect(programs('busybox --list')).toEqual(['busybox']);
    expect(programs('command -v ls')).toEqual(['command']);
  });

  it('runs echo for xargs without a command and marks the arguments it adds', () => {
    expect(texts('xargs')).toEqual(['echo …']);
    expect(texts('xargs -0 -n 1 grep -l foo')).toEqual(['grep -l foo …']);
    expect(texts('xargs -I{} cat {}')).toEqual(["cat '{}' …"]);
    expect(texts("xargs sh -c 'ls'")).toEqual(['ls']);
  });

  it('reports find and every command its -exec runs', () => {
    expect(texts('find . -name "*.ts" -exec grep -l foo {} + -execdir wc -l {} \\;')).toEqual([
      "find . -name '*.ts' -exec grep -l foo '{}' + -execdir wc -l '{}' ';'",
      "grep -l foo '{}'",
      "wc -l '{}'",
    ]);
  });

  it('allows harmless redirections', () => {
    expect(programs('ls > /dev/null 2>&1')).toEqual(['ls']);
    expect(programs('ls 2>/dev/null >&2 3>&-')).toEqual(['ls']);
    expect(programs('grep foo < input.txt')).toEqual(['grep']);
    expect(programs('wc -l <<< "a b"')).toEqual(['wc']);
    expect(programs("cat <<'EOF'\n$(not run) `nor this`\nEOF\n")).toEqual(['cat']);
    expect(programs('cat <<EOF\nplain text\nEOF\n')).toEqual(['cat']);
  });
});

describe('opaque lines and their reasons', () => {
  it.each([
    ['echo $(id)', 'command substitution at 1:6'],
    ['echo `id`', 'command substitution'],
    ['echo "$(id)"', 'command substitution'],
    ['diff <(ls) <(ls)', 'process substitution'],
    ['echo $HOME', 'parameter expansion at 1:6'],
    ['l${IFS}s', 'parameter expansion'],
    ['echo $((1+2))', 'arithmetic expansion'],
    ['((x = 1))', 'arithmetic command'],
    ['ls @(a|b)', 'extended glob'],
    ['ls *.txt', 'glob *'],
    ['l?', 'glob ?'],
    ['ls l[s]', 'glob [ ]'],
    ['l[s]', 'parse error'],
    ['echo {a,b}', 'brace expansion'],
    ['ls ~/x', 'tilde expansion'],
    ['ls --dir=~', 'tilde expansion'],
    ["echo $'\\x72'", "$'…' quoting"],
    ['echo $"x"', '$"…" quoting'],
    ['FOO=1 ls', 'variable assignment at 1:1'],
    ['PATH=/tmp', 'variable assignment'],
    ['export PATH=/tmp', 'declaration built-in'],
    ['f() { ls; }', 'function declaration'],
    ['for f in a; do ls; done', 'for/select loop'],
    ['[[ -f x ]]', '[[ ]] test'],
    ['let x=1', 'let'],
    ['coproc ls', 'coprocess'],
    ['eval ls', 'eval runs code in the shell'],
    ['. ./x.sh', '. runs code in the shell'],
    ['source x.sh', 'source runs code in the shell'],
    ['sudo ls', 'sudo changes privileges'],
    ['chroot / ls', 'chroot changes privileges'],
    ['watch ls', 'watch runs a command not analysed'],
    ["fish -c 'ls'", 'fish is a shell not analysed'],
    ['sh -c', 'sh -c without a command string'],
    ["bash --rcfile x -c 'ls'", 'bash option --rcfile'],
    ["env -S 'ls -la'", 'env -S: splits a string'],
    ['env FOO=1 ls', 'env sets a variable (FOO)'],
    ['timeout ls', 'timeout without a duration'],
    ['nohup', 'nohup without a command'],
    ['exec', 'exec without a command'],
    ['xargs --process-slot-var=X ls', 'xargs --process-slot-var'],
    ['xargs -q ls', 'xargs: unknown option -q'],
    ['xargs -I ls ls -la', 'program name comes from run-time input (ls)'],
    ["find . -exec sh -c 'ls {}' \\;", 'script receives run-time input ({})'],
    ['find . -exec {} \\;', 'program name comes from run-time input ({})'],
    ['find . -exec ls {}', 'find -exec without ; or +'],
    ['echo rm | xargs env', 'xargs passes its input to env'],
    ['printf -v x y', 'printf -v assigns a variable'],
    ['test -v x', 'test -v evaluates a variable name'],
    ['ls > out.txt', 'redirection > writes to out.txt at 1:4'],
    ['ls >> log', 'redirection >> writes to log'],
    ['ls &> out', 'redirection &> writes to out'],
    ['ls >& out', 'redirection >& writes to out'],
    ['cat <> f', 'redirection <> writes to f'],
    ['cat < /dev/tcp/1.2.3.4/80', 'network redirection'],
    ['exec {fd}> x', 'named file descriptor'],
    ["ls 'unterminated", 'parse error: 1:4: reached EOF without closing quote'],
    ['ls &&', 'parse error'],
    ['ls\u0000; rm x', 'control character U+0000'],
    ['ls\rrm x', 'control character U+000D'],
  ])('%j is opaque: %s', (line, expected) => {
    expect(reason(line)).toContain(expected);
  });

  it('follows sh -c up to MAX_NESTING levels deep, and no deeper', () => {
    const nest = (levels: number): string => {
      let line = 'ls';
      for (let i = 0; i < levels; i++) line = `sh -c '${line.replaceAll("'", `'"'"'`)}'`;
      return line;
    };
    expect(programs(nest(MAX_NESTING))).toEqual(['ls']);
    expect(reason(nest(MAX_NESTING + 1))).toBe('shell -c nested too deeply');
  });

  it('bounds nesting before walking the tree, so a long pipeline cannot overflow the stack', () => {
    expect(programs(`${'ls | '.repeat(MAX_DEPTH - 1)}ls`)).toHaveLength(MAX_DEPTH);
    expect(reason(`${'ls|'.repeat(2000)}ls`)).toBe('commands nested too deeply');
    expect(reason(`${'{ '.repeat(MAX_DEPTH + 1)}ls${'; }'.repeat(MAX_DEPTH + 1)}`)).toBe(
      'commands nested too deeply',
    );
    expect(reason(`if ls; then ls; ${'elif ls; then ls; '.repeat(MAX_DEPTH + 1)}fi`)).toBe(
      'commands nested too deeply',
    );
    expect(reason('('.repeat(5000))).toContain('parse error');
  });

  it('bounds the number of statements and nodes', () => {
    expect(programs('ls;'.repeat(MAX_STATEMENTS))).toHaveLength(MAX_STATEMENTS);
    expect(reason('ls;'.repeat(MAX_STATEMENTS + 1))).toBe('too many commands');
    expect(reason(`echo ${'a '.repeat(3000)}`)).toBe('command line too complex');
  });

  it('refuses a line that is too long', () => {
    expect(reason(`echo ${'a'.repeat(MAX_LINE_LENGTH)}`)).toBe('command line too long');
  });
});
