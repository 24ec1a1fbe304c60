import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256File } from './digest.ts';
import {
  MANIFEST_NAME,
  MAX_MANIFEST_BYTES,
  manifestSchema,
  STATE_PREFIX,
  type BackupManifest,
} from './manifest.ts';
import type { ArchiveScan } from './scan-archive.ts';
import { integrityCheck } from './sqlite-snapshot.ts';

export interface ExtractedCheck {
  manifest?: BackupManifest;
  databases: { path: string; integrity: string }[];
  problems: string[];
}

/**
 * Checks an extracted archive against its manifest: the manifest parses, every member it
 * lists is there with its size and SHA-256, nothing is there that it does not list, and
 * every database passes `PRAGMA integrity_check`.
 */
export async function checkExtracted(dir: string, scan: ArchiveScan): Promise<ExtractedCheck> {
  const problems: string[] = [];
  const databases: ExtractedCheck['databases'] = [];
  const manifestEntry = scan.members.get(MANIFEST_NAME);
  if (!manifestEntry || manifestEntry.directory)
    return { databases, problems: [`${MANIFEST_NAME} is missing`] };
  if (manifestEntry.size > MAX_MANIFEST_BYTES)
    return { databases, problems: [`${MANIFEST_NAME} is larger than ${MAX_MANIFEST_BYTES} bytes`] };
  let manifest: BackupManifest;
  try {
    const parsed = manifestSchema.safeParse(
      JSON.parse(await readFile(join(dir, MANIFEST_NAME), 'utf8')),
    );
    if (!parsed.success)
      return { databases, problems: [`${MANIFEST_NAME} is not valid: ${parsed.error.message}`] };
    manifest = parsed.data;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { databases, problems: [`${MANIFEST_NAME} cannot be read: ${reason}`] };
  }

  const listed = new Set<string>();
  for (const member of manifest.members) {
    const shown = JSON.stringify(member.path);
    listed.add(member.path);
    const scanned = scan.members.get(member.path);
    if (!member.path.startsWith(STATE_PREFIX) || !scanned || scanned.directory) {
      problems.push(`${shown}: listed in the manifest but not in the archive`);
      continue;
    }
    const path = join(dir, member.path);
    const info = await lstat(path);
    if (!info.isFile() || info.size !== member.size) {
      problems.push(`${shown}: ${info.size} bytes, the manifest says ${member.size}`);
      continue;
    }
    if ((await sha256File(path)) !== member.sha256) {
      problems.push(`${shown}: SHA-256 does not match the manifest`);
      continue;
    }
    if (member.kind === 'sqlite') {
      const integrity = integrityCheck(path);
      databases.push({ path: member.path, integrity });
      if (integrity !== 'ok') problems.push(`${shown}: integrity_check: ${integrity}`);
    }
  }
  for (const member of scan.members.values()) {
    if (!member.directory && member.name !== MANIFEST_NAME && !listed.has(member.name))
      problems.push(`${JSON.stringify(member.name)}: in the archive but not in the manifest`);
  }
  return { manifest, databases, problems };
}
