import { chmod, mkdir, mkdtemp, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { HearthError } from '../errors.ts';
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from './archive-rules.ts';
import { checkExtracted } from './check-extracted.ts';
import { extractChecked } from './extract-checked.ts';
import type { BackupManifest } from './manifest.ts';
import { scanArchive } from './scan-archive.ts';

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
 * `hearth backup restore`: refuses a non-empty target without `force`; rejects an unsafe or
 * damaged archive before writing anything; extracts into a private folder beside the target,
 * checks it against the manifest (digests, integrity), and only then renames it into place,
 * so the target is the old state directory or the restored one, never a mix.
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
    ...extra,
  });

  const scan = await scanArchive(archive, limits);
  if (scan.problems.length > 0) return report({ problems: scan.problems });
  options.onProgress?.('scanned');

  await mkdir(dirname(target), { recursive: true, mode: 0o700 });
  const work = await mkdtemp(join(dirname(target), `.${basename(target)}.restore-`));
  try {
    const unpacked = join(work, 'unpacked');
    await mkdir(unpacked, { mode: 0o700 });
    try {
      await extractChecked(archive, unpacked, scan, limits);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return report({ problems: [`the archive cannot be extracted: ${reason}`] });
    }
    options.onProgress?.('extracted');
    const check = await checkExtracted(unpacked, scan);
    const done = {
      members: check.manifest?.members.length ?? 0,
      databases: check.databases,
      manifest: check.manifest,
    };
    if (check.problems.length > 0) return report({ ...done, problems: check.problems });
    options.onProgress?.('verified');

    const restored = join(unpacked, 'state');
    await mkdir(restored, { recursive: true, mode: 0o700 });
    await chmod(restored, 0o700);
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
    options.onProgress?.('swapped');
    return report({ ...done, ok: true, replaced: state === 'full' });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
