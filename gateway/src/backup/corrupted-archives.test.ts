import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { create as createTar, extract } from 'tar';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBackup } from './create-backup.ts';
import { sha256File } from './digest.ts';
import type { BackupManifest } from './manifest.ts';
import { restoreBackup } from './restore-backup.ts';
import { verifyBackup } from './verify-backup.ts';

let root: string;
let archive: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-corrupt-'));
  const home = join(root, 'home');
  await mkdir(home);
  await writeFile(join(home, 'config.toml'), '[gateway]\n');
  const db = new Database(join(home, 'memory.db'));
  db.exec('create table notes (id integer primary key, body text)');
  const insert = db.prepare('insert into notes (body) values (?)');
  db.transaction(() => {
    for (let i = 0; i < 2000; i += 1) insert.run(`note number ${i} `.repeat(5));
  })();
  db.close();
  archive = (await createBackup({ home, backupsDir: join(root, 'backups'), hearthVersion: 'x' }))
    .archive;
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/**
 * Unpacks the good archive, lets `change` edit the files, packs it again with the tar library
 * (the manifest first, then the state folder and everything in it).
 */
async function repacked(change: (dir: string) => Promise<void>): Promise<string> {
  const dir = join(root, 'repack');
  await mkdir(dir);
  await extract({ file: archive, cwd: dir });
  await change(dir);
  const file = join(root, 'repacked.tar.gz');
  const names = (await readdir(dir)).sort((a, b) => (a === 'manifest.json' ? -1 : a < b ? -1 : 1));
  await createTar({ gzip: true, file, cwd: dir, portable: true }, names);
  return file;
}

async function rewriteManifest(dir: string, edit: (m: BackupManifest) => void): Promise<void> {
  const path = join(dir, 'manifest.json');
  const manifest = JSON.parse(await readFile(path, 'utf8')) as BackupManifest;
  edit(manifest);
  await writeFile(path, JSON.stringify(manifest));
}

async function expectRejected(file: string, reason: RegExp): Promise<void> {
  const verified = await verifyBackup(file);
  expect(verified.ok).toBe(false);
  expect(verified.problems.join('\n')).toMatch(reason);
  const target = join(root, 'target');
  const restored = await restoreBackup(file, { target });
  expect(restored.ok).toBe(false);
  expect(restored.problems.join('\n')).toMatch(reason);
  expect((await readdir(root)).filter((n) => n === 'target' || n.includes('restore'))).toEqual([]);
}

describe('a corrupted archive fails verify and restore, writing nothing', () => {
  it('bytes flipped in the compressed stream', async () => {
    const bytes = await readFile(archive);
    for (let i = 200; i < 240; i += 1) bytes[i] = (bytes[i] ?? 0) ^ 0xff;
    const file = join(root, 'flipped.tar.gz');
    await writeFile(file, bytes);
    await expectRejected(file, /the archive is damaged/);
  });

  it('a truncated archive', async () => {
    const bytes = await readFile(archive);
    const file = join(root, 'truncated.tar.gz');
    await writeFile(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await expectRejected(file, /the archive is damaged/);
  });

  it('a member whose bytes no longer match its SHA-256', async () => {
    const file = await repacked((dir) =>
      writeFile(join(dir, 'state', 'config.toml'), '[gatewax]\n'),
    );
    await expectRejected(file, /"state\/config.toml": SHA-256 does not match the manifest/);
  });

  it('a member the manifest lists that is missing', async () => {
    const file = await repacked((dir) => rm(join(dir, 'state', 'config.toml')));
    await expectRejected(
      file,
      /"state\/config.toml": listed in the manifest but not in the archive/,
    );
  });

  it('a member the manifest does not list stops the read at its header', async () => {
    const file = await repacked((dir) => writeFile(join(dir, 'state', 'extra.txt'), 'smuggled'));
    await expectRejected(
      file,
      /^"state\/extra.txt" \(regular file\): in the archive but not in the manifest$/,
    );
  });

  it('no manifest, or one that is not a Hearth manifest', async () => {
    await expectRejected(
      await repacked((dir) => rm(join(dir, 'manifest.json'))),
      /manifest.json is missing/,
    );
    await rm(join(root, 'repack'), { recursive: true });
    await expectRejected(
      await repacked((dir) => writeFile(join(dir, 'manifest.json'), '{"format":"other"}')),
      /manifest.json is not valid/,
    );
  });

  it('a database that fails PRAGMA integrity_check, even with a matching digest', async () => {
    const file = await repacked(async (dir) => {
      const db = join(dir, 'state', 'memory.db');
      const bytes = await readFile(db);
      // Scribble over the b-tree pages past the header page.
      for (let i = 4096 * 2; i < 4096 * 6; i += 7) bytes[i] = 0x5a;
      await writeFile(db, bytes);
      const sha256 = await sha256File(db);
      await rewriteManifest(dir, (m) => {
        const member = m.members.find((x) => x.path === 'state/memory.db');
        if (member) member.sha256 = sha256;
      });
    });
    await expectRejected(file, /"state\/memory.db": integrity_check: /);
  });
});
