import { statfs } from 'node:fs/promises';
import { ArchiveRefused } from './tar-reader.ts';

/**
 * Refuses, before a byte is written, when `dir`'s file system has fewer than `bytes` free for
 * this user: a restore (or a verify's databases) never fills the disk halfway.
 */
export async function ensureRoom(dir: string, bytes: number, what: string): Promise<void> {
  if (bytes === 0) return;
  const info = await statfs(dir);
  const free = info.bavail * info.bsize;
  if (bytes > free)
    throw new ArchiveRefused(
      `${what} ${bytes} bytes, but only ${free} are free in ${dir}: nothing was written`,
    );
}
