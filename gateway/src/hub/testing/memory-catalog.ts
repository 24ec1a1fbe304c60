import { validationError } from '../../errors.ts';
import type {
  InstalledSkill,
  ScanPackage,
  SkillCatalog,
  ValidateSkill,
} from '../../skills/ports.ts';

/**
 * A skills catalog in memory for the hub's own tests, with a stand-in for layer 1: a module
 * importing `child_process` is refused. Records every install it was asked for.
 */
export function memoryCatalog(): SkillCatalog & { installs: string[] } {
  const skills = new Map<string, InstalledSkill>();
  const installs: string[] = [];
  const found = (name: string): InstalledSkill => {
    const skill = skills.get(name);
    if (!skill) throw new Error(`no skill ${name}`);
    return skill;
  };
  return {
    installs,
    list: () => [...skills.values()],
    get: (name) => skills.get(name),
    install(input) {
      installs.push(input.name);
      if (/child_process/.test(input.source))
        return Promise.reject(
          validationError("Skill code rejected: import 'child_process' (line 1) is blocked"),
        );
      const skill: InstalledSkill = {
        name: input.name,
        kind: input.kind,
        state: 'active',
        tools: [`${input.name}_run`],
        load_error: null,
        origin: input.origin,
        version: input.version ?? '0.0.0',
        tags: input.tags ?? [],
      };
      skills.set(input.name, skill);
      return Promise.resolve(skill);
    },
    setEnabled(name, enabled) {
      const skill = {
        ...found(name),
        state: enabled ? ('active' as const) : ('disabled' as const),
      };
      skills.set(name, skill);
      return Promise.resolve(skill);
    },
    remove: (name) => Promise.resolve(skills.delete(name)),
    reload: () => Promise.resolve([...skills.values()]),
  };
}

/** A stand-in scanner: `eval(` is a high finding, `fetch(` a low one. */
export const toyScanner: ScanPackage = (source) => {
  const findings = source.split('\n').flatMap((line, index) => [
    ...(line.includes('eval(')
      ? [
          {
            rule: 'dynamic.eval',
            line: index + 1,
            severity: 'high' as const,
            message: 'eval of a string',
          },
        ]
      : []),
    ...(line.includes('fetch(')
      ? [
          {
            rule: 'network.fetch',
            line: index + 1,
            severity: 'low' as const,
            message: 'network call',
          },
        ]
      : []),
  ]);
  return { flagged: findings.some((f) => f.severity === 'high'), findings };
};

/** The catalog's stand-in for layer 1, as a validator: a module importing `child_process` is refused. */
export const toyValidator: ValidateSkill = (source) => {
  const at = source.split('\n').findIndex((line) => line.includes('child_process'));
  return Promise.resolve(
    at < 0
      ? { ok: true, problems: [], tools: [] }
      : {
          ok: false,
          problems: [{ construct: "import 'child_process'", line: at + 1, message: 'is blocked' }],
          tools: [],
        },
  );
};
