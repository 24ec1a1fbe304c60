import { parse, type Comment } from 'acorn';
import type { ValidationResult } from '../types.ts';
import { readJsCapabilities } from './capabilities.ts';
import { findBlockedConstructs } from './js-rules/find-blocked.ts';
import { extractJsTools } from './js-tools.ts';

/**
 * Layer 1 for `skill.mjs`: parse as an ES module (acorn, latest syntax), reject the blocked
 * modules and constructs, and read the tools. A module that does not parse is rejected with
 * the parser's line; one nested too deeply to walk is rejected too (nothing unchecked passes).
 */
export function validateJsSkill(source: string): ValidationResult {
  const comments: Comment[] = [];
  try {
    const program = parse(source, {
      ecmaVersion: 'latest',
      sourceType: 'module',
      locations: true,
      onComment: comments,
    });
    const problems = findBlockedConstructs(program);
    const { tools, problems: toolProblems } = extractJsTools(program, comments, source);
    problems.push(...toolProblems);
    const { capabilities, problems: capabilityProblems } = readJsCapabilities(program);
    problems.push(...capabilityProblems);
    return { ok: problems.length === 0, problems, tools, capabilities };
  } catch (error) {
    if (error instanceof SyntaxError) {
      const line = (error as SyntaxError & { loc?: { line: number } }).loc?.line ?? 1;
      return {
        ok: false,
        problems: [{ construct: 'syntax error', line, message: error.message }],
        tools: [],
      };
    }
    if (error instanceof RangeError) {
      return {
        ok: false,
        problems: [
          { construct: 'nesting', line: 1, message: 'the module is nested too deeply to check' },
        ],
        tools: [],
      };
    }
    throw error;
  }
}
