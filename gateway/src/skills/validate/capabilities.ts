import type { Program } from 'acorn';
import { SKILL_CAPABILITIES, type SkillCapability, type SkillProblem } from '../types.ts';
import { isNotStatic, staticValue } from './static-value.ts';

const known: ReadonlySet<string> = new Set(SKILL_CAPABILITIES);

/**
 * Checks a declared capability list (already read as a JSON value) and returns it without
 * duplicates; anything but an array of known names is a problem naming the line.
 */
export function checkCapabilities(
  value: unknown,
  line: number,
): { capabilities: SkillCapability[]; problems: SkillProblem[] } {
  const problem = (message: string) => ({
    capabilities: [],
    problems: [{ construct: 'capabilities', line, message }],
  });
  if (!Array.isArray(value))
    return problem(`capabilities must be a literal list of ${SKILL_CAPABILITIES.join(', ')}`);
  const capabilities: SkillCapability[] = [];
  for (const item of value) {
    if (typeof item !== 'string' || !known.has(item))
      return problem(
        `unknown capability ${JSON.stringify(item)?.slice(0, 40)}: a skill may declare ${SKILL_CAPABILITIES.join(', ')}`,
      );
    if (!capabilities.includes(item as SkillCapability)) capabilities.push(item as SkillCapability);
  }
  return { capabilities, problems: [] };
}

/**
 * The gateway tools an ES module skill declares it uses: `export const capabilities =
 * ['shell']` (a literal, read without running the skill). None when it declares nothing.
 */
export function readJsCapabilities(program: Program): {
  capabilities: SkillCapability[];
  problems: SkillProblem[];
  /** Where the declaration is (1 when there is none). */
  line: number;
} {
  for (const statement of program.body) {
    if (statement.type !== 'ExportNamedDeclaration') continue;
    if (statement.declaration?.type !== 'VariableDeclaration') continue;
    for (const declarator of statement.declaration.declarations) {
      if (declarator.id.type !== 'Identifier' || declarator.id.name !== 'capabilities') continue;
      const line = declarator.loc?.start.line ?? 1;
      if (statement.declaration.kind !== 'const' || !declarator.init)
        return { ...checkCapabilities(undefined, line), line };
      const value = staticValue(declarator.init);
      return { ...checkCapabilities(isNotStatic(value) ? undefined : value, line), line };
    }
  }
  return { capabilities: [], problems: [], line: 1 };
}
