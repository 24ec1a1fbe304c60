import { chmod, mkdir, mkdtemp, open, readdir, rename, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { HearthError } from '../errors.ts';
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from './archive-rules.ts';
import type { BackupPlan } from './backup-plan.ts';
import { ensureRoom } from './disk-space.ts';
import type { BackupManifest } from './manifest.ts';
import { readBackup } from './read-backup.ts';
import { removeTree } from './remove-tree.ts';
import { integrityCheck } from './sqlite-snapshot.ts';

export interface RestoreOptions {
  target: string;
  /** Replace a non-empty target. */
  force?: boolean;
  limits?: ArchiveLimits;
  onProgress?: (step: 'scanned' | 'extracted' | 'verified' | 'swapped') => void;
}

export interface RestoreReport {
  archive: string;
  target: string;
  ok: boolean;
  members: number;
  databases: { path: string; integrity: string }[];
  problems: string[];
  /** The target held files that this restore replaced (--force). */
  replaced: boolean;
  /** Bytes of tar decompressed: at most what the manifest declares, whatever the archive holds. */
  inflated: number;
  manifest?: BackupManifest;
}

async function targetState(target: string): Promise<'absent' | 'empty' | 'full'> {
  try {
    const info = await stat(target);
    if (!info.isDirectory())
      throw new HearthError('conflict', `${target} exists and is not a directory`);
    return (await readdir(target)).length === 0 ? 'empty' : 'full';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    throw error;
  }
}

/**
 * Gives every file and folder the mode the manifest records (permission bits only: setuid,
 * setgid and sticky are never restored; an archive without modes gets 0600 files and 0700
 * folders), folders deepest first so that a read-only folder is closed last. The state
 * directory itself is 0700.
 */
async function applyModes(root: string, plan: BackupPlan): Promise<void> {
  for (const file of plan.files) await chmod(join(root, file.path), file.mode);
  for (const directory of [...plan.directories].reverse())
    await chmod(join(root, directory.path), directory.mode);
  await chmod(join(root, 'state'), 0o700);
}

/**
 * `hearth backup restore`: refuses a non-empty target without `force`; reads the archive once
 * against its manifest (see readBackup) into a private folder beside the target, after
 * checking the file system has room for what the manifest declares; checks each database's
 * integrity, sets the recorded modes, and only then renames it into place, so the target is
 * the old state directory or the restored one, never a mix. On any problem nothing is left.
 */
export async function restoreBackup(
  archive: string,
  options: RestoreOptions,
): Promise<RestoreReport> {
  const target = resolve(options.target);
  const limits = options.limits ?? DEFAULT_ARCHIVE_LIMITS;
  const state = await targetState(target);
  if (state === 'full' && !options.force)
    throw new HearthError(
      'conflict',
      `${target} is not empty: restore refuses to write into it (add --force to replace it)`,
    );
  const report = (extra: Partial<RestoreReport>): RestoreReport => ({
    archive,
    target,
    ok: false,
    members: 0,
    databases: [],
    problems: [],
    replaced: false,
    inflated: 0,
    ...extra,
  });

  const parent = dirname(target);
  // The first folder this restore creates on the way to the target, removed unless it succeeds.
  const created = await mkdir(parent, { recursive: true, mode: 0o700 });
  const work = await mkdtemp(join(parent, `.${basename(target)}.restore-`));
  let ok = false;
  try {
    const unpacked = join(work, 'unpacked');
    await mkdir(join(unpacked, 'state'), { recursive: true, mode: 0o700 });
    const read = await readBackup(archive, limits, {
      start: async (plan) => {
        await ensureRoom(work, plan.totalBytes, 'the archive declares');
        options.onProgress?.('scanned');
      },
      directory: async (directory) => {
        await mkdir(join(unpacked, directory.path), { recursive: true, mode: 0o700 });
      },
      file: async (file) => {
        const path = join(unpacked, file.path);
        await mkdir(dirname(path), { recursive: true, mode: 0o700 });
        return open(path, 'wx', 0o600);
      },
    });
    const databases = (read.complete ? read.matched : [])
      .filter((file) => file.sqlite)
      .map((file) => ({ path: file.path, integrity: integrityCheck(join(unpacked, file.path)) }));
    const problems = [
      ...read.problems,
      ...databases
        .filter((db) => db.integrity !== 'ok')
        .map((db) => `${JSON.stringify(db.path)}: integrity_check: ${db.integrity}`),
    ];
    const done = {
      inflated: read.inflated,
      members: read.manifest?.members.length ?? 0,
      databases,
      manifest: read.manifest,
    };
    if (problems.length > 0 || !read.plan) return report({ ...done, problems });
    options.onProgress?.('extracted');
    options.onProgress?.('verified');
    for (const directory of read.plan.directories)
      await mkdir(join(unpacked, directory.path), { recursive: true, mode: 0o700 });
    await applyModes(unpacked, read.plan);

    const restored = join(unpacked, 'state');
    if (state === 'full') {
      const previous = join(work, 'previous');
      await rename(target, previous);
      try {
        await rename(restored, target);
      } catch (error) {
        await rename(previous, target);
        throw error;
      }
    } else {
      if (state === 'empty') await rmdir(target);
      await rename(restored, target);
    }
    ok = true;
    options.onProgress?.('swapped');
    return report({ ...done, ok: true, replaced: state === 'full' });
  } finally {
    await removeTree(work);
    if (!ok && created) await removeTree(created);
  }
}
