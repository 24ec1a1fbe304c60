import type { SkillKind, ValidateSkill, ValidationResult } from '../types.ts';
import { validatePythonSkill } from './python.ts';
import { validateJsSkill } from './validate-js.ts';

export interface SkillValidatorOptions {
  /** The Python interpreter for `skill.py` (default `python3` on the PATH). */
  python3Path?: string;
  /** How long the Python check may take (default 10 s). */
  timeoutMs?: number;
}

/**
 * Layer 1: the check every skill passes before it is written (POST /skills, an approved
 * proposal, a hub install, `hearth skills validate`). There is no option to skip a rule: a
 * problem means the skill is not written.
 */
export function createSkillValidator(options: SkillValidatorOptions = {}): ValidateSkill {
  const python = {
    python3Path: options.python3Path ?? 'python3',
    timeoutMs: options.timeoutMs ?? 10_000,
  };
  return async (source: string, kind: SkillKind): Promise<ValidationResult> =>
    kind === 'py' ? validatePythonSkill(source, python) : validateJsSkill(source);
}
