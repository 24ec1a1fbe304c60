import { copyFile, lstat, mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { HearthError, notFound } from '../errors.ts';
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from './archive-rules.ts';
import { archiveName, ensureBackupsDir } from './backup-dir.ts';
import { planBackup } from './backup-plan.ts';
import { sha256File } from './digest.ts';
import {
  DEFAULT_DIRECTORY_MODE,
  MANIFEST_FORMAT,
  MANIFEST_NAME,
  MANIFEST_VERSION,
  STATE_PREFIX,
  type BackupManifest,
  type ManifestDirectory,
  type ManifestMember,
} from './manifest.ts';
import { postgresNote } from './postgres-note.ts';
import { isSqliteFile, snapshotSqlite } from './sqlite-snapshot.ts';
import { inventoryStateDir, type StateMember } from './state-members.ts';
import { writeTarGz, type TarEntry } from './tar-writer.ts';

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
  /** The limits a verify or restore applies: a backup beyond them is refused, not written. */
  limits?: ArchiveLimits;
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
    const directories: ManifestDirectory[] = inventory.directories.map((directory) => ({
      path: `${STATE_PREFIX}${directory.name}`,
      mode: directory.mode,
    }));
    for (const file of options.externalFiles ?? []) {
      const info = await lstat(file).catch(() => undefined);
      if (!info?.isFile()) continue;
      const name = `external/${basename(file)}`;
      if (members.some((member) => member.name === name)) continue;
      const folder = `${STATE_PREFIX}external`;
      if (!directories.some((directory) => directory.path === folder))
        directories.push({ path: folder, mode: DEFAULT_DIRECTORY_MODE });
      members.push({
        name,
        absolute: file,
        kind: (await isSqliteFile(file)) ? 'sqlite' : 'file',
        mode: info.mode & 0o777,
      });
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
        mode: member.mode,
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
      directories,
      skipped: inventory.skipped,
      notes,
    };
    const manifestPath = join(staging, MANIFEST_NAME);
    const manifestText = JSON.stringify(manifest, null, 2);
    await writeFile(manifestPath, manifestText, { mode: 0o600 });
    refuseBeyondLimits(manifest, Buffer.byteLength(manifestText), options.limits);

    options.onProgress?.({ name: 'archive', done: taken.length, total: members.length });
    const mtime = now;
    const entries: TarEntry[] = [
      {
        type: 'file',
        path: MANIFEST_NAME,
        mode: 0o600,
        mtime,
        size: Buffer.byteLength(manifestText),
        source: manifestPath,
      },
      ...directories.map((d): TarEntry => ({ type: 'directory', ...d, mtime })),
      ...taken.map((m): TarEntry => ({
        type: 'file',
        path: m.path,
        mode: m.mode ?? 0o600,
        mtime,
        size: m.size,
        source: join(staging, m.path),
      })),
    ];
    const partial = join(staging, 'archive.tar.gz.partial');
    await writeTarGz(partial, entries);
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

/**
 * A backup that its own verify would refuse is not written: the same limits, checked on the
 * manifest before the archive is.
 */
function refuseBeyondLimits(
  manifest: BackupManifest,
  manifestBytes: number,
  limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
): void {
  const problems =
    manifestBytes > limits.maxManifestBytes
      ? [
          `${MANIFEST_NAME} would be ${manifestBytes} bytes, beyond the limit of ${limits.maxManifestBytes}`,
        ]
      : planBackup(manifest, limits).problems;
  if (problems.length > 0)
    throw new HearthError(
      'payload_too_large',
      `no backup written: ${problems.join('; ')} (verify and restore apply the same limits; ` +
        'raise them with --max-bytes, --max-file-bytes or --max-members)',
    );
}
