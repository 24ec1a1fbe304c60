import { chmod, lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Gives every folder under `path` (itself included) owner rwx, so that its entries can go. */
async function openUp(path: string): Promise<void> {
  const info = await lstat(path);
  if (!info.isDirectory()) return;
  await chmod(path, (info.mode & 0o777) | 0o700);
  for (const entry of await readdir(path)) await openUp(join(path, entry));
}

/**
 * Removes a folder and everything in it, even one holding read-only folders (a restored state
 * directory keeps the modes it was backed up with); a missing one is fine.
 */
export async function removeTree(path: string): Promise<void> {
  try {
    await rm(path, { recursive: true, force: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EACCES' && code !== 'EPERM') throw error;
    await openUp(path);
    await rm(path, { recursive: true, force: true });
  }
}
