/**
 * Layers 1 and 2 (the validator and the scanner) loaded on first use: their parsers (acorn and
 * some fifty rule modules) stay out of start-up until a skill or a package is checked. The first
 * call imports them; every later call runs them directly. Same results as the modules
 * themselves (validate/validator.ts, scanner/scan-package.ts).
 */
import type { SkillKind, ValidateSkill, ValidationResult, ScanResult } from './types.ts';
import type { SkillValidatorOptions } from './validate/validator.ts';

/** Layer 1 (validate/validator.ts), imported on its first call. */
export function createSkillValidator(options: SkillValidatorOptions = {}): ValidateSkill {
  let loaded: Promise<ValidateSkill> | undefined;
  return async (source: string, kind: SkillKind): Promise<ValidationResult> => {
    loaded ??= import('./validate/validator.ts').then((module) =>
      module.createSkillValidator(options),
    );
    return (await loaded)(source, kind);
  };
}

/** Layer 2 (scanner/scan-package.ts), imported on its first call. */
export async function scanPackage(source: string, kind: SkillKind): Promise<ScanResult> {
  const { scanPackage: scan } = await import('./scanner/scan-package.ts');
  return scan(source, kind);
}
