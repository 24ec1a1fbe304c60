import {
  chmod,
  copyFile,
  lstat,
  mkdir,
  mkdtemp,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { create as createTar } from 'tar';
import { notFound } from '../errors.ts';
import { archiveName, ensureBackupsDir } from './backup-dir.ts';
import { sha256File } from './digest.ts';
import {
  MANIFEST_FORMAT,
  MANIFEST_NAME,
  MANIFEST_VERSION,
  STATE_PREFIX,
  type BackupManifest,
  type ManifestMember,
} from './manifest.ts';
import { postgresNote } from './postgres-note.ts';
import { isSqliteFile, snapshotSqlite } from './sqlite-snapshot.ts';
import { inventoryStateDir, type StateMember } from './state-members.ts';

export interface BackupProgress {
  /** The member just taken (archive path), or 'archive' while the tar.gz is written. */
  name: string;
  done: number;
  total: number;
}

export interface CreateBackupOptions {
  home: string;
  backupsDir: string;
  /**
   * Files of this Hearth that live outside the state directory (an absolute `[memory] db_path`,
   * HEARTH_AUDIT_DB_PATH, HEARTH_CONFIG); missing ones are left out.
   */
  externalFiles?: readonly string[];
  /** `[memory] db_path` when it is a PostgreSQL URL: the archive notes how to dump it. */
  postgresUrl?: string;
  hearthVersion: string;
  now?: () => Date;
  onProgress?: (progress: BackupProgress) => void;
}

export interface CreatedBackup {
  archive: string;
  /** Bytes of the tar.gz. */
  size: number;
  manifest: BackupManifest;
}

/**
 * Takes the state directory into `backups/hearth-backup-<time>.tar.gz` (0600, directory 0700)
 * while a gateway may be writing to it: each SQLite database through the online backup API,
 * other files copied, all into a private staging folder first so that every SHA-256 in the
 * manifest is the digest of exactly the bytes archived. The archive appears under its final
 * name only once complete.
 */
export async function createBackup(options: CreateBackupOptions): Promise<CreatedBackup> {
  const now = (options.now ?? (() => new Date()))();
  if (!(await isDirectory(options.home)))
    throw notFound(`there is no state directory at ${options.home}`);
  await ensureBackupsDir(options.backupsDir);
  const staging = await mkdtemp(join(options.backupsDir, '.staging-'));
  try {
    const inventory = await inventoryStateDir(options.home, [options.backupsDir]);
    const members: StateMember[] = [...inventory.members];
    const notes: string[] = [];
    for (const file of options.externalFiles ?? []) {
      if (!(await isRegularFile(file))) continue;
      const name = `external/${basename(file)}`;
      if (members.some((member) => member.name === name)) continue;
      members.push({ name, absolute: file, kind: (await isSqliteFile(file)) ? 'sqlite' : 'file' });
      notes.push(
        `${file} lies outside the state directory; it is archived as ${STATE_PREFIX}${name} ` +
          '(after a restore, move it back or point the setting at it).',
      );
    }
    const archive = join(options.backupsDir, archiveName(now));
    if (options.postgresUrl) {
      notes.push(postgresNote(options.postgresUrl, archive.replace(/\.tar\.gz$/, '.pgdump')));
    }

    const taken: ManifestMember[] = [];
    for (const member of members) {
      const path = `${STATE_PREFIX}${member.name}`;
      const destination = join(staging, path);
      await mkdir(dirname(destination), { recursive: true, mode: 0o700 });
      if (member.kind === 'sqlite') await snapshotSqlite(member.absolute, destination);
      else await copyFile(member.absolute, destination);
      const info = await stat(destination);
      taken.push({
        path,
        size: info.size,
        sha256: await sha256File(destination),
        kind: member.kind,
      });
      options.onProgress?.({ name: path, done: taken.length, total: members.length });
    }

    const manifest: BackupManifest = {
      format: MANIFEST_FORMAT,
      version: MANIFEST_VERSION,
      created_at: now.toISOString(),
      hearth_version: options.hearthVersion,
      source: options.home,
      members: taken,
      skipped: inventory.skipped,
      notes,
    };
    await writeFile(join(staging, MANIFEST_NAME), JSON.stringify(manifest, null, 2), {
      mode: 0o600,
    });

    options.onProgress?.({ name: 'archive', done: taken.length, total: members.length });
    const partial = join(staging, 'archive.tar.gz.partial');
    await createTar({ gzip: true, file: partial, cwd: staging, portable: true }, [
      MANIFEST_NAME,
      ...taken.map((member) => member.path),
    ]);
    await chmod(partial, 0o600);
    await rename(partial, archive);
    const size = (await stat(archive)).size;
    return { archive, size, manifest };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function isRegularFile(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isFile();
  } catch {
    return false;
  }
}
