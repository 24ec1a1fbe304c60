/**
 * Allowlist matching over an analysed command line. An entry's `pattern` is a glob on the program
 * name (`path.posix.matchesGlob`: `*`, `?`, `[…]`, `{a,b}`; `*` never crosses a `/`, so `*` does
 * not match `./ls`); its `arg_pattern`, when set, is an RE2 regular expression (re2js: linear
 * time, no backreferences or lookaround) that must match the simple command's `text`, unanchored
 * (anchor it with `^…$` yourself). Its `directory`, when set, is the one working directory it
 * allows; without one it allows only the workspace and the directories below it. An invalid glob
 * or regex never matches.
 */
import { posix } from 'node:path';
import { RE2JS } from 're2js';
import type { AllowlistEntry, CommandAnalysis, SimpleCommand } from '../ports.ts';
import {
  CODE_BUILTINS,
  isInterpreter,
  isShell,
  OPAQUE_RUNNERS,
  PRIVILEGE_WRAPPERS,
  UNWRAPPED_WRAPPERS,
} from './program-names.ts';

/** The parts of an allowlist entry that matching reads. */
export type AllowlistRule = Pick<AllowlistEntry, 'pattern' | 'arg_pattern'> &
  Partial<Pick<AllowlistEntry, 'directory'>>;

/** Where a gated request runs, for the directory part of matching. */
export interface MatchContext {
  /** The resolved absolute working directory; null for a tool that has none (the browser). */
  workdir: string | null;
  /** The workspace: entries without a directory allow it and the directories below it. */
  workspace: string;
  /** Told about an entry whose `arg_pattern` re2js cannot compile (it never matches). */
  onInvalidPattern?: (rule: AllowlistRule, reason: string) => void;
}

/** Whether `programName` matches the glob `pattern`. */
export function programMatchesGlob(programName: string, pattern: string): boolean {
  if (pattern === '') return false;
  try {
    return posix.matchesGlob(programName, pattern);
  } catch {
    return false;
  }
}

/** Why re2js cannot compile `argPattern`, or null when it can. */
export function argPatternProblem(argPattern: string): string | null {
  try {
    RE2JS.compile(argPattern);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function argumentsMatch(text: string, rule: AllowlistRule, context: MatchContext): boolean {
  const argPattern = rule.arg_pattern;
  if (argPattern === null || argPattern === undefined || argPattern === '') return true;
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(argPattern);
  } catch (error) {
    context.onInvalidPattern?.(rule, error instanceof Error ? error.message : String(error));
    return false;
  }
  return regex.test(text);
}

/** Whether `dir` is `root` or below it (both absolute and normalised). */
function isWithin(dir: string, root: string): boolean {
  const relative = posix.relative(root, dir);
  return relative === '' || (!relative.startsWith('..') && !posix.isAbsolute(relative));
}

/** Whether an entry allows the request's working directory. */
export function directoryAllowed(rule: AllowlistRule, context: MatchContext): boolean {
  const directory = rule.directory ?? null;
  if (context.workdir === null) return directory === null;
  if (directory !== null) return posix.normalize(context.workdir) === posix.normalize(directory);
  return isWithin(posix.normalize(context.workdir), posix.normalize(context.workspace));
}

/** Whether one simple command matches one entry. */
export function commandMatchesEntry(
  command: SimpleCommand,
  entry: AllowlistRule,
  context: MatchContext,
): boolean {
  return (
    programMatchesGlob(command.programName, entry.pattern) &&
    directoryAllowed(entry, context) &&
    argumentsMatch(command.text, entry, context)
  );
}

/**
 * True only when the line was analysed (not opaque), has at least one simple command, and every
 * simple command matches some entry that allows the working directory.
 */
export function matchesAllowlist(
  analysis: CommandAnalysis,
  entries: readonly AllowlistRule[],
  context: MatchContext,
): boolean {
  if (analysis.opaque !== null || analysis.commands.length === 0) return false;
  return analysis.commands.every((command) =>
    entries.some((entry) => commandMatchesEntry(command, entry, context)),
  );
}

/** A plain program name, safe to store as a glob that matches only itself. */
const STORABLE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/;

/**
 * The program name to store when a command is approved with `always: true`, or null to store
 * nothing. It is the one real program of a line that analysed to exactly one simple command,
 * after wrappers were unwrapped (`sh -c 'ls -la'`, `env ls` and `/bin/ls` all give `ls`). Never a
 * shell, a wrapper, an interpreter (`python3 -c …` approved once must not allow every Python
 * program), a shell built-in, a path (`./build.sh`, `/opt/x/tool`), or a name with glob
 * characters. Those need an entry added by hand, ideally with an `arg_pattern`.
 */
export function alwaysProgram(analysis: CommandAnalysis): string | null {
  if (analysis.opaque !== null || analysis.commands.length !== 1) return null;
  const name = analysis.commands[0]?.programName;
  if (name === undefined || !STORABLE_NAME.test(name)) return null;
  if (
    isShell(name) ||
    isInterpreter(name) ||
    UNWRAPPED_WRAPPERS.has(name) ||
    PRIVILEGE_WRAPPERS.has(name) ||
    OPAQUE_RUNNERS.has(name) ||
    CODE_BUILTINS.has(name)
  ) {
    return null;
  }
  return name;
}

/** What `always: true` stores: exactly the approved command, in exactly its directory. */
export interface AlwaysEntry {
  pattern: string;
  arg_pattern: string;
  directory: string | null;
}

/**
 * The allowlist entry to store when a command is approved with `always: true`, or null to store
 * nothing. It allows exactly what the human saw and no more: the program (as `alwaysProgram`
 * names it) in `pattern`, its whole canonical command text quoted literally and anchored
 * (`^git --version$`) in `arg_pattern`, and the working directory it was approved in (null for a
 * tool without one). `git -c 'alias.x=!…' x` or `sed '1e …'` after an approved `git --version` or
 * `sed -n 1p f` prompt again.
 */
export function alwaysEntry(analysis: CommandAnalysis, workdir: string | null): AlwaysEntry | null {
  const pattern = alwaysProgram(analysis);
  const command = analysis.commands[0];
  if (pattern === null || command === undefined) return null;
  return { pattern, arg_pattern: `^${RE2JS.quote(command.text)}$`, directory: workdir };
}
