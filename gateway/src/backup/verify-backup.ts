import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from './archive-rules.ts';
import { checkExtracted } from './check-extracted.ts';
import { extractChecked } from './extract-checked.ts';
import type { BackupManifest } from './manifest.ts';
import { scanArchive } from './scan-archive.ts';

export interface VerifyReport {
  archive: string;
  ok: boolean;
  /** Files the manifest lists. */
  members: number;
  databases: { path: string; integrity: string }[];
  problems: string[];
  manifest?: BackupManifest;
}

/**
 * `hearth backup verify`: the member rules, then (in a private temporary folder, removed
 * afterwards) the manifest, every digest and every database's integrity check.
 */
export async function verifyBackup(
  archive: string,
  options: { limits?: ArchiveLimits; workDir?: string } = {},
): Promise<VerifyReport> {
  const limits = options.limits ?? DEFAULT_ARCHIVE_LIMITS;
  const report = (extra: Partial<VerifyReport>): VerifyReport => ({
    archive,
    ok: false,
    members: 0,
    databases: [],
    problems: [],
    ...extra,
  });
  const scan = await scanArchive(archive, limits);
  if (scan.problems.length > 0) return report({ problems: scan.problems });
  const dir = await mkdtemp(join(options.workDir ?? tmpdir(), 'hearth-verify-'));
  try {
    await extractChecked(archive, dir, scan, limits);
    const check = await checkExtracted(dir, scan);
    return report({
      ok: check.problems.length === 0,
      members: check.manifest?.members.length ?? 0,
      databases: check.databases,
      problems: check.problems,
      manifest: check.manifest,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return report({ problems: [`the archive cannot be extracted: ${reason}`] });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
