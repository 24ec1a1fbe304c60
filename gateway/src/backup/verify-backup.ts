import { mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from './archive-rules.ts';
import { ensureRoom } from './disk-space.ts';
import type { BackupManifest } from './manifest.ts';
import { readBackup } from './read-backup.ts';
import { integrityCheck } from './sqlite-snapshot.ts';

export interface VerifyReport {
  archive: string;
  ok: boolean;
  /** Files the manifest lists. */
  members: number;
  databases: { path: string; integrity: string }[];
  problems: string[];
  /** Bytes of tar decompressed: at most what the manifest declares, whatever the archive holds. */
  inflated: number;
  manifest?: BackupManifest;
}

/**
 * `hearth backup verify`: one read of the archive against its manifest (see readBackup), every
 * file hashed as it streams; the databases alone are written, to a private temporary folder
 * removed afterwards, for their `PRAGMA integrity_check`.
 */
export async function verifyBackup(
  archive: string,
  options: { limits?: ArchiveLimits; workDir?: string } = {},
): Promise<VerifyReport> {
  const limits = options.limits ?? DEFAULT_ARCHIVE_LIMITS;
  const dir = await mkdtemp(join(options.workDir ?? tmpdir(), 'hearth-verify-'));
  try {
    const read = await readBackup(archive, limits, {
      start: (plan) =>
        ensureRoom(
          dir,
          plan.files.filter((file) => file.sqlite).reduce((sum, file) => sum + file.size, 0),
          'checking its databases needs',
        ),
      directory: () => Promise.resolve(),
      file: async (file) => {
        if (!file.sqlite) return undefined;
        const path = join(dir, file.path);
        await mkdir(dirname(path), { recursive: true, mode: 0o700 });
        return open(path, 'wx', 0o600);
      },
    });
    const problems = [...read.problems];
    const databases: VerifyReport['databases'] = [];
    for (const file of read.complete ? read.matched.filter((f) => f.sqlite) : []) {
      const integrity = integrityCheck(join(dir, file.path));
      databases.push({ path: file.path, integrity });
      if (integrity !== 'ok')
        problems.push(`${JSON.stringify(file.path)}: integrity_check: ${integrity}`);
    }
    return {
      archive,
      ok: problems.length === 0,
      members: read.manifest?.members.length ?? 0,
      databases,
      problems,
      inflated: read.inflated,
      manifest: read.manifest,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
