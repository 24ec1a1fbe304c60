import { chmod, mkdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** `backups/` beside the state directory (`~/.hearth` → `~/backups`), unless one is given. */
export function backupsDirFor(home: string): string {
  return join(dirname(home), 'backups');
}

/** Creates the backups directory 0700 (tightening an existing one). */
export async function ensureBackupsDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const info = await stat(dir);
  if ((info.mode & 0o077) !== 0) await chmod(dir, 0o700);
}

/** `hearth-backup-2026-11-26T05-30-00-123Z.tar.gz`: sortable, one per millisecond. */
export function archiveName(now: Date): string {
  return `hearth-backup-${now.toISOString().replace(/[:.]/g, '-')}.tar.gz`;
}
