/**
 * The ES-module pass: parses with acorn (locations on) and runs the rules in `js-rules/` over
 * the tree — blocked modules and constructs, obfuscation shapes, network, environment and file
 * calls, markers in string literals, instructions aimed at the model in tool descriptions and
 * JSDoc. Comments other than block comments are never read: they are inert.
 */
import { parse } from 'acorn';
import type { Comment, Program } from 'acorn';
import type { ModuleFacts } from './facts.ts';
import type { FindingSink } from './findings.ts';
import { jsScanRules } from './js-rules/index.ts';
import { runScanRules } from './js-rules/run-rules.ts';

/** Parses `source`; null (with a finding) when it is not an ES module. */
export function parseModule(
  source: string,
  sink: FindingSink,
): { program: Program; comments: Comment[] } | null {
  const comments: Comment[] = [];
  try {
    const program = parse(source, {
      ecmaVersion: 'latest',
      sourceType: 'module',
      locations: true,
      allowHashBang: true,
      onComment: comments,
    });
    return { program, comments };
  } catch (error) {
    const line = lineOfError(error);
    const deep =
      error instanceof RangeError ||
      (error instanceof Error && error.message.includes('stack space'));
    sink.add(
      deep ? 'scanner.too-deep' : 'scanner.unparseable',
      line,
      'high',
      deep
        ? 'nests too deeply to analyse'
        : `does not parse as an ES module: ${(error as Error).message}`,
    );
    return null;
  }
}

function lineOfError(error: unknown): number {
  const loc = (error as { loc?: { line?: number } }).loc;
  return typeof loc?.line === 'number' ? loc.line : 1;
}

/** Records the module's facts and its direct findings (one walk, every rule). */
export function scanModuleTree(
  program: Program,
  comments: Comment[],
  facts: ModuleFacts,
  sink: FindingSink,
): void {
  runScanRules(jsScanRules, program, comments, facts, sink);
}
