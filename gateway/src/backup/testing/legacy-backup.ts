import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { create as createTar } from 'tar';

export interface LegacyFile {
  /** Relative to the state directory (`persona/SOUL.md`). */
  name: string;
  body: string | Buffer;
  kind?: 'file' | 'sqlite';
}

/**
 * A version-1 archive, as Hearth wrote them before modes were recorded: the tar library's
 * `create` (portable), manifest.json then the files, no folder members, every file 0644 in the
 * archive and no mode in the manifest.
 */
export async function writeVersion1Backup(
  file: string,
  files: readonly LegacyFile[],
): Promise<void> {
  const staging = await mkdtemp(join(tmpdir(), 'hearth-v1-'));
  try {
    for (const entry of files) {
      const path = join(staging, 'state', entry.name);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, entry.body);
      await chmod(path, 0o644);
    }
    const manifest = {
      format: 'hearth-backup',
      version: 1,
      created_at: '2026-01-01T00:00:00.000Z',
      hearth_version: '0.1.0',
      source: '/home/someone/.hearth',
      members: files.map((entry) => ({
        path: `state/${entry.name}`,
        size: Buffer.byteLength(entry.body),
        sha256: createHash('sha256').update(entry.body).digest('hex'),
        kind: entry.kind ?? 'file',
      })),
      skipped: [],
      notes: [],
    };
    await writeFile(join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2));
    await createTar({ gzip: true, file, cwd: staging, portable: true }, [
      'manifest.json',
      ...files.map((entry) => `state/${entry.name}`),
    ]);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
