/** Test helper: a throwaway data_dir with skills written straight to disk (the trusted path). */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SkillHostOptions, SkillKind } from '../../types.ts';

export interface SkillFixture {
  root: string;
  /** Writes `skills/<name>/skill.<kind>` and returns the host options for it. */
  write(
    name: string,
    kind: SkillKind,
    source: string,
    network?: boolean,
    hosts?: readonly string[],
  ): Promise<SkillHostOptions>;
  remove(): Promise<void>;
}

/**
 * `withoutWall`: every skill written carries its owner's opt-out (skill.json
 * `"without_wall": true`), so that tests of the permission model alone can host it where no
 * wall exists (without it such a host is refused, no-wall.ts).
 */
export async function createSkillFixture(
  options: { withoutWall?: boolean } = {},
): Promise<SkillFixture> {
  const root = await mkdtemp(join(tmpdir(), 'hearth-skills-'));
  return {
    root,
    async write(name, kind, source, network = false, hosts = []) {
      const dir = join(root, 'skills', name);
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, `skill.${kind}`), source);
      return {
        name,
        kind,
        dir,
        dataDir: join(root, 'skill-data', name),
        network,
        hosts,
        ...(options.withoutWall ? { withoutWall: true } : {}),
      };
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

/**
 * Whether the isolation offers the wall a test is about: `bubblewrap+permission`, or
 * `permission` (no bubblewrap: hosts only the skills their owner opted out).
 */
export function offersWall(description: string, label: string): boolean {
  return label === 'permission' ? description.startsWith('no wall: ') : description === label;
}
