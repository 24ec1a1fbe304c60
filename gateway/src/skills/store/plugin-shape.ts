import type { Program } from 'acorn';
import type { SkillKind } from '../types.ts';

/**
 * Whether a module is a plugin: it default-exports a class whose `extends` chain (through the
 * module's own top-level classes) ends at `Plugin` (a module that does not parse is not; the
 * validator reports why). For `skill.py`, a top-level `class X(Plugin):`. The JavaScript parser
 * is imported on the first JavaScript check, not at start-up.
 */
export async function isPluginSource(source: string, kind: SkillKind): Promise<boolean> {
  if (kind === 'py') return /^class\s+\w+\s*\(\s*(?:\w+\.)?Plugin\s*\)\s*:/m.test(source);
  const [{ parse }, { defaultExportsPlugin }] = await Promise.all([
    import('acorn'),
    import('../validate/js-tools.ts'),
  ]);
  let program: Program;
  try {
    program = parse(source, { ecmaVersion: 'latest', sourceType: 'module' });
  } catch {
    return false;
  }
  return defaultExportsPlugin(program);
}
