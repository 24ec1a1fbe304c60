/**
 * What `approve … always` stores. The interface's state table: "with `always: true` an allowlist
 * entry for the program name is stored". Hearth stores exactly that — the program name, any
 * arguments, in the workspace (or, for a command approved in a directory outside it, in that
 * directory) — except for a program whose arguments can make it run other programs or code
 * (`python3 -c`, `git -c 'alias.x=!…'`, `sed 1e`, `tar --to-command`, `find -exec`, …): there a
 * name-only entry would allow any code at all, so it stores the exact approved command in its
 * directory, with a note saying why. A line that cannot name one entry (several commands, an
 * opaque line, a path) stores nothing, and the note says why.
 */
import { posix } from 'node:path';
import { re2 } from '../../text/re2.ts';
import { showControls } from '../../text/show-controls.ts';
import type { CommandAnalysis } from '../ports.ts';
import {
  CODE_BUILTINS,
  isInterpreter,
  isShell,
  OPAQUE_RUNNERS,
  PRIVILEGE_WRAPPERS,
  UNWRAPPED_WRAPPERS,
} from './program-names.ts';

/** A plain program name, safe to store as a glob that matches only itself. */
const PLAIN_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/;
/** An external MCP server's tool as the gate names it, with no glob character in it. */
const MCP_TOOL = /^mcp:[A-Za-z][A-Za-z0-9-]{0,31}\/[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/**
 * Programs whose arguments can make them run other programs or code, and how. Families are
 * matched below (shells, interpreters, wrappers and runners, code built-ins, MCP tools).
 */
const RUNS_CODE: ReadonlyMap<string, string> = new Map([
  ['git', '-c settings, aliases and hooks run programs'],
  ['hg', '--config, aliases and hooks run programs'],
  ['sed', 'its e command runs shell commands'],
  ['tar', '--to-command, --checkpoint-action=exec and --use-compress-program run programs'],
  ['find', '-exec, -execdir, -ok and -okdir run programs'],
  ['make', "a Makefile's recipes are shell commands"],
  ['cmake', 'a CMakeLists.txt runs programs'],
  ['npm', 'package scripts run programs'],
  ['npx', 'it runs any package'],
  ['pnpm', 'package scripts run programs'],
  ['yarn', 'package scripts run programs'],
  ['pip', 'installing a package runs its build code'],
  ['pip3', 'installing a package runs its build code'],
  ['cargo', 'build scripts and cargo run execute code'],
  ['go', 'go run and go generate execute code'],
  ['java', 'it runs any class or jar it is given'],
  ['dotnet', 'it runs any assembly it is given'],
  ['mono', 'it runs any assembly it is given'],
  ['gcc', '-wrapper and plugins run programs'],
  ['g++', '-wrapper and plugins run programs'],
  ['cc', '-wrapper and plugins run programs'],
  ['c++', '-wrapper and plugins run programs'],
  ['clang', '-Xclang plugins and -fplugin load code'],
  ['clang++', '-Xclang plugins and -fplugin load code'],
  ['ld', 'plugins load code'],
  ['ldd', 'it may run the program it inspects'],
  ['docker', 'it runs any container, with the host mounted'],
  ['podman', 'it runs any container, with the host mounted'],
  ['kubectl', 'exec and run start any program'],
  ['ssh', 'it runs commands on the remote host, and ProxyCommand locally'],
  ['scp', '-o ProxyCommand and -S run programs'],
  ['sftp', '-o ProxyCommand and -S run programs'],
  ['rsync', '-e and --rsh run any program'],
  ['vi', ':! and -c run shell commands'],
  ['vim', ':! and -c run shell commands'],
  ['nvim', ':! and -c run shell commands'],
  ['view', ':! and -c run shell commands'],
  ['ex', ':! and -c run shell commands'],
  ['ed', '! runs shell commands'],
  ['emacs', '--eval runs Lisp, and Lisp runs programs'],
  ['less', '+! and LESSOPEN run shell commands'],
  ['more', '! runs shell commands'],
  ['man', '-P and -H run programs'],
  ['zip', '-TT (--unzip-command) runs any program'],
  ['socat', 'EXEC: and SYSTEM: addresses run programs'],
  ['nc', '-e and -c run programs'],
  ['ncat', '-e and -c run programs'],
  ['netcat', '-e and -c run programs'],
  ['wget', '--use-askpass runs any program'],
  ['sqlite3', '.shell and .system run shell commands'],
  ['psql', '\\! runs shell commands'],
  ['mysql', '\\! and system run shell commands'],
  ['tmux', 'it runs any command in a new window'],
  ['screen', 'it runs any command in a new window'],
  ['crontab', 'it schedules any command'],
  ['at', 'it schedules any command'],
  ['batch', 'it schedules any command'],
  ['m4', 'syscmd and esyscmd run shell commands'],
  ['dc', '! runs shell commands'],
  ['nmap', '--script runs Lua scripts'],
  ['apt', "packages' maintainer scripts run as code"],
  ['apt-get', "packages' maintainer scripts run as code"],
  ['dpkg', "packages' maintainer scripts run as code"],
  // The browser tool's actions: a page runs its own scripts and can send what it reads anywhere.
  ['navigate', 'the page it opens runs its own scripts and can send what it reads anywhere'],
  ['click', 'a click can submit forms and run page scripts'],
  ['fill', 'what it types can be sent anywhere by the page'],
]);

const AWK = new Set(['awk', 'gawk', 'mawk', 'nawk']);

/**
 * How `name`'s arguments can make it run other programs or code (so `always` stores only the
 * exact command), or undefined for a program whose arguments cannot.
 */
export function runsOtherCode(name: string): string | undefined {
  const known = RUNS_CODE.get(name);
  if (known !== undefined) return known;
  if (name.startsWith('mcp:')) return "an external MCP server's tool does whatever its server does";
  if (isShell(name)) return 'it runs any script it is given';
  if (AWK.has(name)) return 'system() and pipes run shell commands';
  if (isInterpreter(name)) return 'it runs any code it is given (-c, -e, a script)';
  if (UNWRAPPED_WRAPPERS.has(name) || OPAQUE_RUNNERS.has(name))
    return 'it runs the program it is given';
  if (CODE_BUILTINS.has(name)) return 'it is a shell built-in that runs code';
  return undefined;
}

/** What `always` stores: the allowlist entry's pattern, arguments and directory. */
export interface AlwaysEntry {
  pattern: string;
  /** Null: any arguments (the program-name entry). */
  arg_pattern: string | null;
  /** Null: the workspace and below (or, for a tool without one, no directory). */
  directory: string | null;
}

/** What approving a command with `always` does, decided from the same analysis as the gate. */
export interface AlwaysRule {
  /** The entry to store; null when the line cannot name one. */
  entry: AlwaysEntry | null;
  /**
   * Why the entry is narrower than the program name (the exact command only), or why there is
   * none; null for the plain program-name entry.
   */
  note: string | null;
  /** What `always` allows, finishing `"approve <id> always" …` in a notice. */
  scope: string;
  /** What now runs without asking once it is stored, finishing `Approved <id>; …`. */
  allowed: string | null;
}

/** The notice's words for the exact-command entry (and the old `always` of every command). */
export const EXACT_SCOPE = 'always allows exactly this command in this directory';

/** Whether `dir` is `root` or below it (both absolute). */
function isWithin(dir: string, root: string): boolean {
  const relative = posix.relative(posix.normalize(root), posix.normalize(dir));
  return relative === '' || (!relative.startsWith('..') && !posix.isAbsolute(relative));
}

/** Longest reason quoted in a notice; a reason can quote the command (a redirection target). */
const MAX_WHY = 200;

/** A reason as the approver reads it: hidden characters escaped, at most MAX_WHY characters. */
function readable(why: string): string {
  const shown = showControls(why);
  return shown.length <= MAX_WHY ? shown : `${shown.slice(0, MAX_WHY - 1)}…`;
}

/** Why a line names no single program an entry can hold, or the program. */
function singleProgram(analysis: CommandAnalysis): { name: string } | { why: string } {
  if (analysis.opaque !== null)
    return { why: `the analysis cannot see what it runs (${analysis.opaque})` };
  if (analysis.commands.length === 0) return { why: 'it runs no command' };
  if (analysis.commands.length > 1)
    return { why: `it runs ${analysis.commands.length} commands; add allowlist entries by hand` };
  const name = analysis.commands[0]!.programName;
  if (PRIVILEGE_WRAPPERS.has(name)) return { why: `${name} changes privileges` };
  if (name.includes('/') && !name.startsWith('mcp:'))
    return { why: `${name} is a path, not a program name, and a file there can change` };
  if (!PLAIN_NAME.test(name) && !MCP_TOOL.test(name))
    return { why: `${JSON.stringify(name)} is not a plain program name` };
  return { name };
}

/**
 * The rule `always` applies to an analysed command run in `workdir` (null for a tool without
 * one), with `workspace` the directory entries without one allow.
 */
export function alwaysRule(
  analysis: CommandAnalysis,
  workdir: string | null,
  workspace: string,
): AlwaysRule {
  const program = singleProgram(analysis);
  if ('why' in program) {
    const why = readable(program.why);
    return {
      entry: null,
      note: `nothing was added to the allowlist: ${why}`,
      scope: `approves it this time only: ${why}`,
      allowed: null,
    };
  }
  const { name } = program;
  const how = runsOtherCode(name);
  if (how !== undefined) {
    const text = analysis.commands[0]!.text;
    const where = workdir === null ? '' : ' in this directory';
    return {
      entry: { pattern: name, arg_pattern: `^${re2().quote(text)}$`, directory: workdir },
      note: `${name} can run other code (${how}): only this exact command is allowed`,
      scope: workdir === null ? 'always allows exactly this command' : EXACT_SCOPE,
      allowed: `exactly this command${where} now runs without asking (${name} can run other code)`,
    };
  }
  const inWorkspace = workdir === null || isWithin(workdir, workspace);
  const where = workdir === null ? '' : inWorkspace ? ' in the workspace' : ' in this directory';
  return {
    entry: { pattern: name, arg_pattern: null, directory: inWorkspace ? null : workdir },
    note: null,
    scope: `always allows ${name} with any arguments${where} from now on`,
    allowed: `${name} now runs without asking, with any arguments${where}`,
  };
}

/** Whether `argPattern` is an exact command as `always` writes it: `^<quoted text>$`. */
export function isExactCommandPattern(argPattern: string): boolean {
  if (!argPattern.startsWith('^') || !argPattern.endsWith('$') || argPattern.length < 2)
    return false;
  const inner = argPattern.slice(1, -1);
  const text = inner.replace(/\\([\s\S])/g, '$1');
  return re2().quote(text) === inner;
}

/**
 * The note an allowlist entry shows: why it allows only one exact command, when it is such an
 * entry for a program that can run other code; null otherwise.
 */
export function entryNote(entry: { pattern: string; arg_pattern: string | null }): string | null {
  if (entry.arg_pattern === null || !isExactCommandPattern(entry.arg_pattern)) return null;
  const how = runsOtherCode(entry.pattern);
  return how === undefined
    ? null
    : `${entry.pattern} can run other code (${how}): only this exact command is allowed`;
}
