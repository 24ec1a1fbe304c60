import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type SkillStore,
  describeProblems,
  MAX_SKILL_SOURCE_BYTES,
  skillNameProblem,
  type SkillKind,
  type ValidateSkill,
  codeFile,
} from '../../skills/ports.ts';

export interface SkillsImport {
  imported: string[];
  /** Already in Hearth with the same code (a second run). */
  unchanged: string[];
  /** Not copied: the reason for each (validator problems, a name Hearth refuses, a clash). */
  rejected: { name: string; reason: string }[];
}

/** Hearth's skills as a migration sees them: what is there, and (real runs) how to add one. */
export interface SkillTarget {
  /** The code of the skill of that name (and its kind), if Hearth has one. */
  existing(name: string): Promise<{ kind: SkillKind; source: string } | undefined>;
  install?: SkillStore['install'];
}

/** Over Hearth's skill store (real runs). */
export function storeTarget(store: SkillStore): SkillTarget {
  return {
    existing: async (name) => {
      const entry = store.get(name);
      return entry ? { kind: entry.kind, source: await store.source(name) } : undefined;
    },
    install: (input) => store.install(input),
  };
}

/** Reading the skills folder only (dry runs write nothing, not even the folder). */
export function readOnlyTarget(skillsDir: string): SkillTarget {
  return {
    existing: async (name) => {
      for (const kind of ['py', 'mjs'] as const) {
        const source = await readFile(join(skillsDir, name, codeFile(kind)), 'utf8').catch(
          () => undefined,
        );
        if (source !== undefined) return { kind, source };
      }
      return undefined;
    },
  };
}

/**
 * Every `skills/<name>/skill.py` of the predecessor, validated with Hearth's own validator
 * (the Python blocked-import rules); valid ones are installed through Hearth's skill store
 * (origin `migrate:neuralcleave`), rejected ones are reported and not copied. A skill Hearth
 * already has under that name with other code is left alone and reported.
 */
export async function importSkills(
  skillsDir: string,
  options: { validate: ValidateSkill; target?: SkillTarget; dryRun: boolean },
): Promise<SkillsImport> {
  const result: SkillsImport = { imported: [], unchanged: [], rejected: [] };
  let names: string[];
  try {
    const entries = await readdir(skillsDir, { withFileTypes: true });
    for (const entry of entries.filter((e) => !e.isDirectory()))
      result.rejected.push({
        name: entry.name,
        reason: entry.isSymbolicLink() ? 'a symbolic link (not followed)' : 'not a skill folder',
      });
    names = entries
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return result;
    throw error;
  }
  for (const name of names) {
    const reject = (reason: string) => void result.rejected.push({ name, reason });
    const file = join(skillsDir, name, 'skill.py');
    const info = await lstat(file).catch(() => undefined);
    if (!info?.isFile()) {
      reject('no skill.py (or it is not a regular file)');
      continue;
    }
    if (info.size > MAX_SKILL_SOURCE_BYTES) {
      reject(`skill.py is larger than ${MAX_SKILL_SOURCE_BYTES} bytes`);
      continue;
    }
    const nameProblem = skillNameProblem(name);
    if (nameProblem) {
      reject(`the name ${nameProblem}`);
      continue;
    }
    const source = await readFile(file, 'utf8');
    const validation = await options.validate(source, 'py');
    if (!validation.ok) {
      reject(`rejected by the validator: ${describeProblems(validation.problems)}`);
      continue;
    }
    const existing = await options.target?.existing(name);
    if (existing) {
      if (existing.kind === 'py' && existing.source === source) result.unchanged.push(name);
      else reject('Hearth already has a different skill of that name (left as it is)');
      continue;
    }
    if (!options.dryRun && options.target?.install)
      await options.target.install({ name, kind: 'py', source, origin: 'migrate:neuralcleave' });
    result.imported.push(name);
  }
  return result;
}
