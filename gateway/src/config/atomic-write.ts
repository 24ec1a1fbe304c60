import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Writes a file so readers see the old or the new text, never half of it (0600 by default). */
export async function writeFileAtomic(path: string, text: string, mode = 0o600): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text, { mode, flush: true });
    await rename(temp, path);
    await chmod(path, mode);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
