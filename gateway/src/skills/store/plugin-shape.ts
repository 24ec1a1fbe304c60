import { parse, type Program } from 'acorn';
import type { SkillKind } from '../types.ts';
import { defaultExportsPlugin } from '../validate/js-tools.ts';

/**
 * Whether a module is a plugin: it default-exports a class whose `extends` chain (through the
 * module's own top-level classes) ends at `Plugin` (a module that does not parse is not; the
 * validator reports why). For `skill.py`, a top-level `class X(Plugin):`.
 */
export function isPluginSource(source: string, kind: SkillKind): boolean {
  if (kind === 'py') return /^class\s+\w+\s*\(\s*(?:\w+\.)?Plugin\s*\)\s*:/m.test(source);
  let program: Program;
  try {
    program = parse(source, { ecmaVersion: 'latest', sourceType: 'module' });
  } catch {
    return false;
  }
  return defaultExportsPlugin(program);
}
