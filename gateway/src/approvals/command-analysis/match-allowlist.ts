/**
 * Allowlist matching over an analysed command line. An entry's `pattern` is a glob on the program
 * name (`path.posix.matchesGlob`: `*`, `?`, `[…]`, `{a,b}`; `*` never crosses a `/`, so `*` does
 * not match `./ls`); its `arg_pattern`, when set, is a regular expression that must match the
 * simple command's `text`, tested as `new RegExp(arg_pattern).test(text)` (unanchored: anchor it
 * with `^…$` yourself). An invalid glob or regex never matches.
 */
import { posix } from 'node:path';
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
export type AllowlistRule = Pick<AllowlistEntry, 'pattern' | 'arg_pattern'>;

/** Whether `programName` matches the glob `pattern`. */
export function programMatchesGlob(programName: string, pattern: string): boolean {
  if (pattern === '') return false;
  try {
    return posix.matchesGlob(programName, pattern);
  } catch {
    return false;
  }
}

function argumentsMatch(text: string, argPattern: string | null | undefined): boolean {
  if (argPattern === null || argPattern === undefined || argPattern === '') return true;
  let regex: RegExp;
  try {
    regex = new RegExp(argPattern);
  } catch {
    return false;
  }
  return regex.test(text);
}

/** Whether one simple command matches one entry. */
export function commandMatchesEntry(command: SimpleCommand, entry: AllowlistRule): boolean {
  return (
    programMatchesGlob(command.programName, entry.pattern) &&
    argumentsMatch(command.text, entry.arg_pattern)
  );
}

/**
 * True only when the line was analysed (not opaque), has at least one simple command, and every
 * simple command matches some entry.
 */
export function matchesAllowlist(
  analysis: CommandAnalysis,
  entries: readonly AllowlistRule[],
): boolean {
  if (analysis.opaque !== null || analysis.commands.length === 0) return false;
  return analysis.commands.every((command) =>
    entries.some((entry) => commandMatchesEntry(command, entry)),
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
