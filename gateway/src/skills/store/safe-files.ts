import { randomBytes } from 'node:crypto';
import { lstat, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, isAbsolute } from 'node:path';
import { HearthError } from '../../errors.ts';

/** True when `path` is `root` itself or lies inside it (no `..` escape). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** lstat that answers undefined for a missing path. */
async function lstatOrUndefined(path: string) {
  try {
    return await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Refuses a symbolic link anywhere between `root` (inclusive) and `path`: a link planted in the
 * skills folder could otherwise redirect a write or a delete outside it.
 */
export async function assertNoSymlinks(root: string, path: string): Promise<void> {
  if (!isInside(root, path)) throw new HearthError('forbidden', `${path} is outside ${root}`);
  const parts = relative(root, path).split(/[/\\]/).filter(Boolean);
  let current = root;
  for (const part of ['', ...parts]) {
    current = part === '' ? root : join(current, part);
    const stat = await lstatOrUndefined(current);
    if (stat === undefined) return;
    if (stat.isSymbolicLink())
      throw new HearthError(
        'conflict',
        `Refusing a symbolic link in the skills folder: ${current}`,
      );
  }
}

/** Creates a private folder (0700) after checking no link lies on the way. */
export async function ensurePrivateDir(root: string, dir: string): Promise<void> {
  await assertNoSymlinks(root, dir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await assertNoSymlinks(root, dir);
}

/** Writes a 0600 file atomically: a sibling temporary file, then a rename over the target. */
export async function writeFileAtomic(root: string, path: string, data: string): Promise<void> {
  await ensurePrivateDir(root, dirname(path));
  await assertNoSymlinks(root, path);
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, data, { mode: 0o600, flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Removes a file or folder under `root`, refusing links on the way; missing is fine. */
export async function removeInside(root: string, path: string): Promise<void> {
  if (path === root) throw new HearthError('forbidden', 'Refusing to remove the skills folder');
  await assertNoSymlinks(root, path);
  await rm(path, { recursive: true, force: true });
}
