/**
 * Program names: which name an allowlist glob sees, and the families of programs the analysis
 * treats specially (shells, wrappers, interpreters, shell built-ins that run code).
 */

/**
 * Directories whose programs are the same program as their bare name: `/bin/ls` and
 * `/usr/local/bin/ls` are `ls`. Only root can write here on a normal system. Anything else
 * (`./ls`, `~/bin/ls`, `/tmp/ls`, `bin/ls`) keeps its path as its name, so an allowlist entry
 * `ls` never lets a look-alike file in the working directory run.
 */
const STANDARD_BIN_DIRS: ReadonlySet<string> = new Set([
  '/bin',
  '/sbin',
  '/usr/bin',
  '/usr/sbin',
  '/usr/local/bin',
  '/usr/local/sbin',
]);

/**
 * The name allowlist globs match: the basename for an absolute path in a standard bin directory
 * (written plainly: no `.`/`..` segments and no doubled slashes, which symlinks could redirect),
 * otherwise the program exactly as written.
 */
export function programNameOf(program: string): string {
  if (!program.startsWith('/')) return program;
  const segments = program.split('/').slice(1);
  const base = segments.pop();
  if (base === undefined || base === '' || base === '.' || base === '..') return program;
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    return program;
  }
  return STANDARD_BIN_DIRS.has(`/${segments.join('/')}`) ? base : program;
}

/** Shells whose `-c` string is bash-compatible enough to parse with the bash grammar. */
export const POSIX_SHELLS: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'rbash',
  'dash',
  'ash',
  'zsh',
  'ksh',
  'ksh93',
  'mksh',
  'lksh',
  'oksh',
  'pdksh',
  'yash',
  'posh',
  'hush',
]);

/** Shells with a different language: never analysed, so always opaque. */
export const OTHER_SHELLS: ReadonlySet<string> = new Set([
  'fish',
  'csh',
  'tcsh',
  'nu',
  'elvish',
  'xonsh',
  'pwsh',
  'powershell',
  'rc',
  'es',
  'ion',
  'osh',
  'ysh',
]);

/**
 * Shell built-ins (and keywords reached as words) that run code or change how later commands
 * resolve: always opaque, whatever the allowlist says. `read`, `mapfile`, `getopts`, `unset` and
 * friends assign variables whose names may carry array subscripts, which bash evaluates (with
 * command substitution).
 */
export const CODE_BUILTINS: ReadonlySet<string> = new Set([
  'eval',
  'source',
  '.',
  'trap',
  'alias',
  'unalias',
  'let',
  'declare',
  'typeset',
  'local',
  'export',
  'readonly',
  'unset',
  'set',
  'shopt',
  'enable',
  'bind',
  'complete',
  'compgen',
  'compopt',
  'mapfile',
  'readarray',
  'read',
  'fc',
  'hash',
  'getopts',
  'history',
  'coproc',
  'function',
  'select',
]);

/** Programs that run another program with changed privileges or root: always opaque. */
export const PRIVILEGE_WRAPPERS: ReadonlySet<string> = new Set([
  'sudo',
  'doas',
  'su',
  'pkexec',
  'run0',
  'runuser',
  'sg',
  'newgrp',
  'setpriv',
  'chroot',
  'unshare',
  'nsenter',
  'capsh',
]);

/**
 * Programs that run a command given as arguments but whose options this analysis does not
 * parse: always opaque. A runner missing from this list counts as itself (allowlisting it is
 * then the user's choice, as for interpreters).
 */
export const OPAQUE_RUNNERS: ReadonlySet<string> = new Set([
  'watch',
  'parallel',
  'sem',
  'flock',
  'script',
  'strace',
  'ltrace',
  'valgrind',
  'taskset',
  'chrt',
  'ionice',
  'prlimit',
  'systemd-run',
  'firejail',
  'bwrap',
  'fakeroot',
  'faketime',
  'eatmydata',
  'unbuffer',
  'torsocks',
  'proxychains',
  'proxychains4',
  'tsocks',
  'catchsegv',
  'rlwrap',
  'dbus-run-session',
  'dbus-launch',
  'cgexec',
  'numactl',
  'trickle',
  'chpst',
  'daemonize',
  'start-stop-daemon',
  'ssh-agent',
  'sshpass',
  'entr',
  'chronic',
  'ifne',
]);

/** Wrappers the analysis unwraps to the command they run (see `unwrap.ts`). */
export const UNWRAPPED_WRAPPERS: ReadonlySet<string> = new Set([
  'env',
  'xargs',
  'nice',
  'nohup',
  'timeout',
  'time',
  'stdbuf',
  'setsid',
  'exec',
  'command',
  'builtin',
  'busybox',
  'toybox',
]);

const INTERPRETER = /^(?:python|pypy|perl|ruby|php|lua|luajit|tclsh|wish|node)[0-9.]*$/;

const OTHER_INTERPRETERS: ReadonlySet<string> = new Set([
  'nodejs',
  'deno',
  'bun',
  'irb',
  'Rscript',
  'R',
  'osascript',
  'awk',
  'gawk',
  'mawk',
  'nawk',
  'julia',
  'jshell',
  'jjs',
  'expect',
  'gdb',
]);

/** General-purpose interpreters: they run inline code (`python -c`, `node -e`, `awk 'system()'`). */
export function isInterpreter(name: string): boolean {
  return INTERPRETER.test(name) || OTHER_INTERPRETERS.has(name);
}

/** A shell of any kind. */
export function isShell(name: string): boolean {
  return POSIX_SHELLS.has(name) || OTHER_SHELLS.has(name);
}
