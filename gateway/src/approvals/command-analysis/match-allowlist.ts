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
import { re2, type RE2JS } from '../../text/re2.ts';
import type { AllowlistEntry, CommandAnalysis, SimpleCommand } from '../ports.ts';

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
    re2().compile(argPattern);
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
    regex = re2().compile(argPattern);
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
