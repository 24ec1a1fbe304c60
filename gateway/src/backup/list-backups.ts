import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface ListedBackup {
  name: string;
  path: string;
  size: number;
  /** ISO time the archive was last written. */
  modified_at: string;
}

/** The `*.tar.gz` archives of a backups directory, newest first (none when it is missing). */
export async function listBackups(dir: string): Promise<ListedBackup[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const listed: ListedBackup[] = [];
  for (const name of names.filter((n) => n.endsWith('.tar.gz'))) {
    const path = join(dir, name);
    const info = await stat(path);
    if (info.isFile())
      listed.push({ name, path, size: info.size, modified_at: info.mtime.toISOString() });
  }
  return listed.sort((a, b) => (a.modified_at < b.modified_at ? 1 : -1));
}
