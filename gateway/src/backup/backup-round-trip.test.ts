import {
  chmod,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBackup, type BackupProgress } from './create-backup.ts';
import { listBackups } from './list-backups.ts';
import { restoreBackup } from './restore-backup.ts';
import { writeVersion1Backup } from './testing/legacy-backup.ts';
import { verifyBackup } from './verify-backup.ts';

let root: string;
let home: string;
let backups: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-backup-'));
  home = join(root, '.hearth');
  backups = join(root, 'backups');
  await mkdir(join(home, 'skills', 'greet'), { recursive: true });
  await mkdir(join(home, 'persona'), { recursive: true });
  await mkdir(join(home, 'models', 'some-model'), { recursive: true });
  await mkdir(join(home, 'cache', 'compile'), { recursive: true });
  await writeFile(join(home, 'cache', 'compile', 'entry'), 'compiled code');
  await writeFile(join(home, 'config.toml'), '[gateway]\nport = 7432\n');
  await writeFile(join(home, 'skills', 'greet', 'skill.mjs'), 'export function hi() {}\n');
  await writeFile(join(home, 'persona', 'SOUL.md'), 'Be kind.\n');
  await writeFile(join(home, 'terminal_history.log'), '2026-01-01 ls\n');
  await writeFile(join(home, 'gateway.pid'), '123');
  await writeFile(join(home, 'gateway.log'), 'log line\n');
  await writeFile(join(home, 'terminal.token'), 'secret');
  await writeFile(join(home, 'models', 'some-model', 'model.onnx'), 'weights');
  await symlink('/etc/passwd', join(home, 'workspace-link'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A WAL database with a writer that keeps its connection (and uncheckpointed WAL) open. */
function liveDatabase(path: string, rows: number): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('create table notes (id integer primary key, body text not null)');
  const insert = db.prepare('insert into notes (body) values (?)');
  db.transaction(() => {
    for (let i = 0; i < rows; i += 1) insert.run(`note ${i}`);
  })();
  return db;
}

describe('backup create, verify and restore', () => {
  it('takes a live WAL database consistently, with its committed rows still in the WAL', async () => {
    const writer = liveDatabase(join(home, 'memory.db'), 500);
    const audit = liveDatabase(join(home, 'privacy_audit.db'), 3);
    try {
      const progress: BackupProgress[] = [];
      const created = await createBackup({
        home,
        backupsDir: backups,
        hearthVersion: '0.1.0',
        onProgress: (step) => progress.push(step),
      });
      expect((await stat(created.archive)).mode & 0o777).toBe(0o600);
      expect((await stat(backups)).mode & 0o777).toBe(0o700);
      expect(created.manifest.members.map((m) => [m.path, m.kind])).toEqual([
        ['state/config.toml', 'file'],
        ['state/memory.db', 'sqlite'],
        ['state/persona/SOUL.md', 'file'],
        ['state/privacy_audit.db', 'sqlite'],
        ['state/skills/greet/skill.mjs', 'file'],
        ['state/terminal_history.log', 'file'],
      ]);
      expect(created.manifest.skipped.map((s) => s.path).sort()).toEqual([
        'cache',
        'gateway.log',
        'gateway.pid',
        'memory.db-shm',
        'memory.db-wal',
        'models',
        'privacy_audit.db-shm',
        'privacy_audit.db-wal',
        'terminal.token',
        'workspace-link',
      ]);
      expect(progress.at(-1)).toEqual({ name: 'archive', done: 6, total: 6 });

      const report = await verifyBackup(created.archive);
      expect(report).toMatchObject({ ok: true, members: 6, problems: [] });
      expect(report.databases).toEqual([
        { path: 'state/memory.db', integrity: 'ok' },
        { path: 'state/privacy_audit.db', integrity: 'ok' },
      ]);

      const target = join(root, 'restored');
      const restored = await restoreBackup(created.archive, { target });
      expect(restored).toMatchObject({ ok: true, replaced: false, members: 6 });
      expect((await stat(target)).mode & 0o777).toBe(0o700);
      const copy = new Database(join(target, 'memory.db'), { readonly: true });
      try {
        expect(copy.prepare('select count(*) as n from notes').get()).toEqual({ n: 500 });
      } finally {
        copy.close();
      }
      expect(await readFile(join(target, 'skills', 'greet', 'skill.mjs'), 'utf8')).toBe(
        'export function hi() {}\n',
      );
      expect((await readdir(target)).sort()).toEqual([
        'config.toml',
        'memory.db',
        'persona',
        'privacy_audit.db',
        'skills',
        'terminal_history.log',
      ]);
      expect(await listBackups(backups)).toEqual([
        expect.objectContaining({ path: created.archive, size: created.size }),
      ]);
    } finally {
      writer.close();
      audit.close();
    }
  });

  it('notes a PostgreSQL store with the pg_dump command, without its password', async () => {
    const created = await createBackup({
      home,
      backupsDir: backups,
      hearthVersion: '0.1.0',
      postgresUrl: 'postgresql://hearth:s3cret@db.lan:5432/hearth',
    });
    expect(created.manifest.notes).toEqual([
      expect.stringMatching(
        /^The long-term store is PostgreSQL, which a backup does not hold\. Save it with: pg_dump --format=custom --file=\S+\.pgdump postgresql:\/\/hearth@db\.lan:5432\/hearth$/,
      ),
    ]);
    expect(JSON.stringify(created.manifest)).not.toContain('s3cret');
  });

  it('takes a database configured outside the state directory as external/', async () => {
    const outside = join(root, 'elsewhere.db');
    liveDatabase(outside, 2).close();
    const created = await createBackup({
      home,
      backupsDir: backups,
      hearthVersion: '0.1.0',
      externalFiles: [outside, join(root, 'missing.db')],
    });
    expect(created.manifest.members).toContainEqual(
      expect.objectContaining({ path: 'state/external/elsewhere.db', kind: 'sqlite' }),
    );
    expect((await verifyBackup(created.archive)).ok).toBe(true);
  });

  it('refuses a non-empty target without force, and replaces it with force', async () => {
    const created = await createBackup({ home, backupsDir: backups, hearthVersion: '0.1.0' });
    const target = join(root, 'existing');
    await mkdir(target);
    await writeFile(join(target, 'keep.txt'), 'mine');
    await expect(restoreBackup(created.archive, { target })).rejects.toThrow(
      /is not empty: restore refuses to write into it \(add --force to replace it\)/,
    );
    expect(await readdir(target)).toEqual(['keep.txt']);

    const forced = await restoreBackup(created.archive, { target, force: true });
    expect(forced).toMatchObject({ ok: true, replaced: true });
    expect(await readdir(target)).not.toContain('keep.txt');
    expect(await readFile(join(target, 'config.toml'), 'utf8')).toContain('port = 7432');
    // Nothing is left beside the target: the work folder is gone.
    expect((await readdir(root)).filter((name) => name.includes('restore'))).toEqual([]);
  });

  it('restores into an empty existing folder', async () => {
    const created = await createBackup({ home, backupsDir: backups, hearthVersion: '0.1.0' });
    const target = join(root, 'empty');
    await mkdir(target);
    expect((await restoreBackup(created.archive, { target })).ok).toBe(true);
    expect(await readdir(target)).toContain('config.toml');
  });
});

describe('names a ustar header cannot hold', () => {
  const deep = `skills/${'nested-folder/'.repeat(8)}skill.py`;
  const long = `workspace/${'n'.repeat(200)}.txt`;
  const unicode = 'persona/Ämne – 日本語.md';

  it('round trip through prefix fields and pax records', async () => {
    for (const name of [deep, long, unicode]) {
      await mkdir(join(home, name, '..'), { recursive: true });
      await writeFile(join(home, name), `body of ${name}`);
    }
    const created = await createBackup({ home, backupsDir: backups, hearthVersion: '0.1.0' });
    expect((await verifyBackup(created.archive)).problems).toEqual([]);
    const target = join(root, 'restored');
    expect((await restoreBackup(created.archive, { target })).problems).toEqual([]);
    for (const name of [deep, long, unicode])
      expect(await readFile(join(target, name), 'utf8')).toBe(`body of ${name}`);
  });

  it('in a version-1 archive written by the tar library, as Hearth wrote them before', async () => {
    const archive = join(root, 'v1.tar.gz');
    const files = [deep, long, unicode].map((name) => ({ name, body: `body of ${name}` }));
    await writeVersion1Backup(archive, files);
    expect((await verifyBackup(archive)).problems).toEqual([]);
    const target = join(root, 'restored');
    expect((await restoreBackup(archive, { target })).problems).toEqual([]);
    for (const name of [deep, long, unicode]) {
      expect(await readFile(join(target, name), 'utf8')).toBe(`body of ${name}`);
      expect((await stat(join(target, name))).mode & 0o7777).toBe(0o600);
      expect((await stat(join(target, name, '..'))).mode & 0o7777).toBe(0o700);
    }
  });
});

it('leaves out, with the reason, a file whose name a restore would refuse, so the backup verifies', async () => {
  await writeFile(join(home, 'odd\\name.txt'), 'x');
  const created = await createBackup({ home, backupsDir: backups, hearthVersion: '0.1.0' });
  expect(created.manifest.skipped).toContainEqual({
    path: 'odd\\name.txt',
    reason: 'a name a restore refuses (the name contains a backslash)',
  });
  expect((await verifyBackup(created.archive)).ok).toBe(true);
});

it('restores a read-only folder as read-only, and a later restore with force replaces it', async () => {
  await mkdir(join(home, 'sealed'));
  await writeFile(join(home, 'sealed', 'note.txt'), 'kept');
  await chmod(join(home, 'sealed', 'note.txt'), 0o400);
  await chmod(join(home, 'sealed'), 0o500);
  try {
    const created = await createBackup({ home, backupsDir: backups, hearthVersion: '0.1.0' });
    const target = join(root, 'restored');
    expect((await restoreBackup(created.archive, { target })).problems).toEqual([]);
    expect((await stat(join(target, 'sealed'))).mode & 0o7777).toBe(0o500);
    expect((await stat(join(target, 'sealed', 'note.txt'))).mode & 0o7777).toBe(0o400);
    expect(await readFile(join(target, 'sealed', 'note.txt'), 'utf8')).toBe('kept');

    const again = await restoreBackup(created.archive, { target, force: true });
    expect(again).toMatchObject({ ok: true, replaced: true });
    expect((await readdir(root)).filter((name) => name.includes('.restore-'))).toEqual([]);
    await chmod(join(target, 'sealed'), 0o700);
  } finally {
    await chmod(join(home, 'sealed'), 0o700);
  }
});
