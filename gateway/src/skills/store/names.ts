import { validationError } from '../../errors.ts';

/**
 * A skill's name is a folder name and the prefix of its tools' names: a letter, then letters,
 * digits, `_` or `-`, at most 32 characters. No path separators, no `..`, nothing the tool
 * registry would refuse once `_<function>` is appended.
 */
export const SKILL_NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,31}$/;

export const SKILL_NAME_MAX = 32;

/** The reason a skill name is refused, or null when it is a valid one. */
export function skillNameProblem(name: string): string | null {
  if (name.length === 0) return 'must not be empty';
  if (name.length > SKILL_NAME_MAX) return `must be at most ${SKILL_NAME_MAX} characters`;
  if (/[/\\]/.test(name) || name.includes('..')) return 'must not contain path separators or ..';
  if (!SKILL_NAME.test(name))
    return 'must start with a letter and contain only letters, digits, _ and -';
  return null;
}

export function assertSkillName(name: string): void {
  const problem = skillNameProblem(name);
  if (problem !== null) throw validationError(`skill name ${problem}`);
}

/** The registry `source` of a skill's tools: `skill:<name>`. */
export const skillOrigin = (skill: string): string => `skill:${skill}`;

/** The registry name of a skill's function: `<skill>_<function>`. */
export const toolName = (skill: string, fn: string): string => `${skill}_${fn}`;
