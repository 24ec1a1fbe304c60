/**
 * One simple command's argv (already literal) to the simple commands it really runs. Wrappers
 * are unwrapped recursively to the program they start; shell `-c` strings are parsed again;
 * built-ins that run code, privilege changers and unparsed runners make the line opaque.
 */
import type { SimpleCommand } from '../ports.ts';
import { OpaqueCommand } from './opaque.ts';
import {
  CODE_BUILTINS,
  isShell,
  OPAQUE_RUNNERS,
  OTHER_SHELLS,
  POSIX_SHELLS,
  PRIVILEGE_WRAPPERS,
  programNameOf,
  UNWRAPPED_WRAPPERS,
} from './program-names.ts';
import { shellQuote } from './words.ts';

export interface UnwrapContext {
  /** Records one simple command. */
  push(command: SimpleCommand): void;
  /** Analyses a nested shell script (a `-c` string), pushing its commands. */
  analyseScript(script: string): void;
}

/**
 * Appended to the text of a command run by `xargs`: it receives more arguments from its input,
 * so an `arg_pattern` that pins the whole argument list cannot match.
 */
export const MORE_ARGS = '…';

type OptionKind = 'flag' | 'value' | 'optional';

interface OptionSpec {
  /** Short options by letter. */
  short: Readonly<Record<string, OptionKind>>;
  /** Long options by name (without `--`). */
  long: Readonly<Record<string, OptionKind>>;
  /** Options that make the line opaque, short letters or long names, with the reason. */
  refuse?: Readonly<Record<string, string>>;
}

interface OptionScan {
  /** Index of the first operand (the command). */
  next: number;
  /** Values given to `value`/`optional` options, by letter or long name (`''` when omitted). */
  values: Map<string, string>;
}

/**
 * getopt-style option scan that stops at the first operand (these tools all use `+` in their
 * option string). An unknown or refused option is opaque.
 */
function scanOptions(
  argv: readonly string[],
  start: number,
  spec: OptionSpec,
  tool: string,
): OptionScan {
  const values = new Map<string, string>();
  let i = start;
  while (i < argv.length) {
    const arg = argv[i] ?? '';
    if (arg === '--') return { next: i + 1, values };
    if (!arg.startsWith('-') || arg === '-') return { next: i, values };
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      const refused = spec.refuse?.[name];
      if (refused !== undefined) throw new OpaqueCommand(`${tool} --${name}: ${refused}`);
      const kind = spec.long[name];
      if (kind === undefined) throw new OpaqueCommand(`${tool}: unknown option --${name}`);
      if (kind === 'value' && eq === -1) {
        values.set(name, argv[i + 1] ?? '');
        i += 2;
        continue;
      }
      if (kind !== 'flag') values.set(name, eq === -1 ? '' : arg.slice(eq + 1));
      i++;
      continue;
    }
    let step = 1;
    for (let j = 1; j < arg.length; j++) {
      const letter = arg.charAt(j);
      const refused = spec.refuse?.[letter];
      if (refused !== undefined) throw new OpaqueCommand(`${tool} -${letter}: ${refused}`);
      const kind = spec.short[letter];
      if (kind === undefined) throw new OpaqueCommand(`${tool}: unknown option -${letter}`);
      if (kind === 'flag') continue;
      const attached = arg.slice(j + 1);
      if (kind === 'value' && attached === '') {
        values.set(letter, argv[i + 1] ?? '');
        step = 2;
      } else {
        values.set(letter, attached);
      }
      break;
    }
    i += step;
  }
  return { next: i, values };
}

function skipOptions(
  argv: readonly string[],
  start: number,
  spec: OptionSpec,
  tool: string,
): number {
  return scanOptions(argv, start, spec, tool).next;
}

function requireCommand(argv: readonly string[], index: number, tool: string): string[] {
  const rest = argv.slice(index);
  if (rest.length === 0) throw new OpaqueCommand(`${tool} without a command`);
  return rest;
}

const ENV_OPTIONS: OptionSpec = {
  short: { i: 'flag', '0': 'flag', v: 'flag', u: 'value', C: 'value' },
  long: {
    'ignore-environment': 'flag',
    null: 'flag',
    debug: 'flag',
    unset: 'value',
    chdir: 'value',
    'default-signal': 'optional',
    'ignore-signal': 'optional',
    'block-signal': 'optional',
    'list-signal-handling': 'flag',
  },
  refuse: {
    S: 'splits a string into a command line',
    'split-string': 'splits a string into a command line',
    P: 'searches an alternate path',
  },
};

const XARGS_OPTIONS: OptionSpec = {
  short: {
    '0': 'flag',
    o: 'flag',
    p: 'flag',
    r: 'flag',
    t: 'flag',
    x: 'flag',
    a: 'value',
    d: 'value',
    E: 'value',
    I: 'value',
    J: 'value',
    L: 'value',
    n: 'value',
    P: 'value',
    R: 'value',
    s: 'value',
    S: 'value',
    e: 'optional',
    i: 'optional',
    l: 'optional',
  },
  long: {
    null: 'flag',
    'open-tty': 'flag',
    interactive: 'flag',
    'no-run-if-empty': 'flag',
    verbose: 'flag',
    exit: 'flag',
    'arg-file': 'value',
    delimiter: 'value',
    'max-args': 'value',
    'max-procs': 'value',
    'max-chars': 'value',
    'max-lines': 'optional',
    replace: 'optional',
    eof: 'optional',
  },
  refuse: { 'process-slot-var': 'sets an environment variable' },
};

const NICE_OPTIONS: OptionSpec = {
  short: { n: 'value' },
  long: { adjustment: 'value' },
};

const TIMEOUT_OPTIONS: OptionSpec = {
  short: { s: 'value', k: 'value', v: 'flag', p: 'flag', f: 'flag' },
  long: {
    signal: 'value',
    'kill-after': 'value',
    'preserve-status': 'flag',
    foreground: 'flag',
    verbose: 'flag',
  },
};

const TIME_OPTIONS: OptionSpec = {
  short: { p: 'flag', v: 'flag', q: 'flag', a: 'flag', f: 'value' },
  long: { portability: 'flag', verbose: 'flag', quiet: 'flag', append: 'flag', format: 'value' },
  refuse: { o: 'writes a file', output: 'writes a file' },
};

const STDBUF_OPTIONS: OptionSpec = {
  short: { i: 'value', o: 'value', e: 'value' },
  long: { input: 'value', output: 'value', error: 'value' },
};

const SETSID_OPTIONS: OptionSpec = {
  short: { c: 'flag', f: 'flag', w: 'flag' },
  long: { ctty: 'flag', fork: 'flag', wait: 'flag' },
};

const EXEC_OPTIONS: OptionSpec = { short: { c: 'flag', l: 'flag', a: 'value' }, long: {} };

const COMMAND_OPTIONS: OptionSpec = { short: { p: 'flag', v: 'flag', V: 'flag' }, long: {} };

/** Shell option letters accepted around `-c`; `o`/`O` take the next argument. */
const SHELL_FLAGS = new Set('abefhklmnprtuvxBCEHPT');
const SHELL_LONG_OPTIONS = new Set([
  '--login',
  '--noprofile',
  '--norc',
  '--posix',
  '--restricted',
  '--verbose',
  '--noediting',
]);

interface Analyser {
  ctx: UnwrapContext;
  /** The command gets more arguments at run time (it runs under `xargs`). */
  moreArgs: boolean;
  /**
   * Strings replaced by run-time input in this command's arguments (`{}` under `find -exec`, the
   * `-I` string under `xargs`). A program name or a shell script containing one is opaque: the
   * input would become code.
   */
  substitutions: readonly string[];
}

function takesInput(value: string, analyser: Analyser): string | undefined {
  return analyser.substitutions.find((substitution) => value.includes(substitution));
}

function pushCommand(argv: readonly string[], name: string, analyser: Analyser): void {
  // Under xargs, a shell, wrapper or find gets its input as further arguments, which it may run
  // as a command (`echo rm x | xargs env`, `… | xargs find . -exec ls {} ;`).
  if (analyser.moreArgs && (isShell(name) || UNWRAPPED_WRAPPERS.has(name) || name === 'find')) {
    throw new OpaqueCommand(`xargs passes its input to ${name}, which can run it`);
  }
  const text = [name, ...argv.slice(1)].map(shellQuote).join(' ');
  analyser.ctx.push({
    program: argv[0] ?? '',
    programName: name,
    argv: [...argv],
    text: analyser.moreArgs ? `${text} ${MORE_ARGS}` : text,
  });
}

function shell(argv: readonly string[], name: string, analyser: Analyser): void {
  let i = 1;
  let commandString = false;
  let unsupported: string | null = null;
  for (; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--' || arg === '-') {
      i++;
      break;
    }
    if (arg.startsWith('--')) {
      // Some long options take an argument (`--rcfile FILE`): without knowing which, the
      // operands cannot be found.
      if (!SHELL_LONG_OPTIONS.has(arg)) throw new OpaqueCommand(`${name} option ${arg}`);
      continue;
    }
    if (!(arg.startsWith('-') || arg.startsWith('+')) || arg.length === 1) break;
    let takesArgument = false;
    for (const letter of arg.slice(1)) {
      if (letter === 'c' && arg.startsWith('-')) commandString = true;
      else if (letter === 'o' || letter === 'O') takesArgument = true;
      else if (!SHELL_FLAGS.has(letter)) unsupported ??= arg;
    }
    if (takesArgument) i++;
  }
  // Without -c the shell runs a script file or its input: the program is the shell itself.
  if (!commandString) {
    pushCommand(argv, name, analyser);
    return;
  }
  if (unsupported !== null) throw new OpaqueCommand(`${name} option ${unsupported}`);
  const script = argv[i];
  if (script === undefined) throw new OpaqueCommand(`${name} -c without a command string`);
  const substitution = takesInput(script, analyser);
  if (substitution !== undefined) {
    throw new OpaqueCommand(`${name} -c script receives run-time input (${substitution})`);
  }
  // Extra arguments become $0, $1, …; the script can only read them through an expansion,
  // which is opaque, so they need no further look.
  analyser.ctx.analyseScript(script);
}

function find(argv: readonly string[], analyser: Analyser): void {
  pushCommand(argv, 'find', analyser);
  for (let i = 1; i < argv.length; i++) {
    const action = argv[i];
    if (action !== '-exec' && action !== '-execdir' && action !== '-ok' && action !== '-okdir') {
      continue;
    }
    let end = i + 1;
    while (end < argv.length) {
      const arg = argv[end];
      if (arg === ';' || (arg === '+' && argv[end - 1] === '{}')) break;
      end++;
    }
    if (end >= argv.length) throw new OpaqueCommand(`find ${action} without ; or +`);
    const inner = argv.slice(i + 1, end);
    if (inner.length === 0) throw new OpaqueCommand(`find ${action} without a command`);
    // Each found file replaces {}: the arguments stay visible in the text, so no marker.
    dispatch(inner, {
      ctx: analyser.ctx,
      moreArgs: analyser.moreArgs,
      substitutions: [...analyser.substitutions, '{}'],
    });
    i = end;
  }
}

/** The string `xargs` replaces with each input line (`-I R`, `-i[R]`, `--replace[=R]`). */
function xargsReplacement(values: ReadonlyMap<string, string>): string | null {
  const explicit = values.get('I') ?? values.get('J');
  if (explicit !== undefined) return explicit;
  const implicit = values.get('i') ?? values.get('replace');
  if (implicit !== undefined) return implicit === '' ? '{}' : implicit;
  return null;
}

function dispatch(argv: readonly string[], analyser: Analyser): void {
  const program = argv[0];
  if (program === undefined || program === '') throw new OpaqueCommand('empty program name');
  const substitution = takesInput(program, analyser);
  if (substitution !== undefined) {
    throw new OpaqueCommand(`program name comes from run-time input (${substitution})`);
  }
  const name = programNameOf(program);
  if (CODE_BUILTINS.has(name)) throw new OpaqueCommand(`${name} runs code in the shell`);
  if (PRIVILEGE_WRAPPERS.has(name)) throw new OpaqueCommand(`${name} changes privileges or root`);
  if (OPAQUE_RUNNERS.has(name)) throw new OpaqueCommand(`${name} runs a command not analysed`);
  if (OTHER_SHELLS.has(name)) throw new OpaqueCommand(`${name} is a shell not analysed`);
  if (POSIX_SHELLS.has(name)) {
    shell(argv, name, analyser);
    return;
  }
  const unwrapTo = (index: number, tool: string) =>
    dispatch(requireCommand(argv, index, tool), analyser);
  switch (name) {
    case 'env': {
      let i = skipOptions(argv, 1, ENV_OPTIONS, 'env');
      if (argv[i] === '-') i++; // `env -` is `env -i`
      const next = argv[i];
      if (next !== undefined && next.includes('=')) {
        throw new OpaqueCommand(`env sets a variable (${next.slice(0, next.indexOf('='))})`);
      }
      // `env` alone prints the environment: the program is env itself.
      if (next === undefined) pushCommand(argv, name, analyser);
      else dispatch(argv.slice(i), analyser);
      return;
    }
    case 'xargs': {
      const { next, values } = scanOptions(argv, 1, XARGS_OPTIONS, 'xargs');
      const replacement = xargsReplacement(values);
      if (replacement === '') throw new OpaqueCommand('xargs with an empty replace string');
      const inner = next < argv.length ? argv.slice(next) : ['echo'];
      dispatch(inner, {
        ctx: analyser.ctx,
        moreArgs: true,
        substitutions:
          replacement === null ? analyser.substitutions : [...analyser.substitutions, replacement],
      });
      return;
    }
    case 'nice': {
      // The historical `nice -10 cmd` form.
      const i = /^-[0-9]+$/.test(argv[1] ?? '') ? 2 : skipOptions(argv, 1, NICE_OPTIONS, 'nice');
      if (i >= argv.length) pushCommand(argv, name, analyser);
      else unwrapTo(i, 'nice');
      return;
    }
    case 'nohup':
      unwrapTo(argv[1] === '--' ? 2 : 1, 'nohup');
      return;
    case 'timeout': {
      const i = skipOptions(argv, 1, TIMEOUT_OPTIONS, 'timeout');
      if (!isTimeoutDuration(argv[i] ?? '')) {
        throw new OpaqueCommand('timeout without a duration');
      }
      unwrapTo(i + 1, 'timeout');
      return;
    }
    case 'time':
      unwrapTo(skipOptions(argv, 1, TIME_OPTIONS, 'time'), 'time');
      return;
    case 'stdbuf':
      unwrapTo(skipOptions(argv, 1, STDBUF_OPTIONS, 'stdbuf'), 'stdbuf');
      return;
    case 'setsid':
      unwrapTo(skipOptions(argv, 1, SETSID_OPTIONS, 'setsid'), 'setsid');
      return;
    case 'exec':
      unwrapTo(skipOptions(argv, 1, EXEC_OPTIONS, 'exec'), 'exec');
      return;
    case 'command': {
      const i = skipOptions(argv, 1, COMMAND_OPTIONS, 'command');
      const options = argv.slice(1, i).join('');
      // `command -v name` only looks the name up: the program is `command` itself.
      if (options.includes('v') || options.includes('V')) pushCommand(argv, name, analyser);
      else unwrapTo(i, 'command');
      return;
    }
    case 'builtin':
      unwrapTo(1, 'builtin');
      return;
    case 'busybox':
    case 'toybox': {
      const applet = argv[1];
      if (applet === undefined || applet.startsWith('-')) pushCommand(argv, name, analyser);
      else dispatch(argv.slice(1), analyser);
      return;
    }
    case 'find':
      find(argv, analyser);
      return;
    case 'printf':
      if (argv.slice(1).some((arg) => arg.startsWith('-v'))) {
        throw new OpaqueCommand('printf -v assigns a variable');
      }
      break;
    case 'test':
    case '[':
      if (argv.slice(1).some((arg) => arg === '-v' || arg === '-R')) {
        throw new OpaqueCommand(`${name} -v evaluates a variable name`);
      }
      break;
    case 'wait':
      if (argv.slice(1).some((arg) => /^-[a-z]*p/.test(arg))) {
        throw new OpaqueCommand('wait -p assigns a variable');
      }
      break;
    default:
      break;
  }
  pushCommand(argv, name, analyser);
}

/** Analyses the literal argv of a simple command, pushing every simple command it runs. */
export function analyseArgv(argv: readonly string[], ctx: UnwrapContext): void {
  dispatch(argv, { ctx, moreArgs: false, substitutions: [] });
}

/**
 * A `timeout` duration: `5`, `1.5`, `.5`, each with an optional unit s, m, h or d. Written
 * without overlapping repetitions: `[0-9]*\.?[0-9]+` took 4.4 s on 32 KB of digits and a letter.
 */
export function isTimeoutDuration(word: string): boolean {
  return /^(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)[smhd]?$/.test(word);
}
