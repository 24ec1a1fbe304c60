/** Writes checked skill or runtime files under a folder (never outside it). */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { SkillFile } from './start-frame.ts';

export async function writeSkillFiles(base: string, files: readonly SkillFile[]): Promise<void> {
  const root = resolve(base);
  for (const file of files) {
    const target = resolve(join(root, file.path));
    // The names are checked already (start-frame.ts); this holds even if that check changed.
    if (!target.startsWith(root + sep)) throw new Error(`${file.path} leaves its folder`);
    await mkdir(dirname(target), { recursive: true, mode: 0o755 });
    await writeFile(target, file.bytes, { mode: 0o644, flag: 'wx' });
  }
}
