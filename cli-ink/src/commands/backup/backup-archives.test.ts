/**
 * `hearth backup verify|restore` on real archives: what is restored is exactly what was backed
 * up, with its modes; anything else (GNU sparse members, links, devices, duplicates, members
 * the manifest does not list) is refused by name and type with nothing written; an honest
 * backup of very compressible data verifies, a bomb is stopped after the bytes its manifest
 * declares.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmod,
  link,
  mkdir,
  readdir,
  readFile,
  rm,
  stat,
  statfs,
  symlink,
  truncate,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeZeroBomb } from '../../../../gateway/src/backup/testing/bomb.ts';
import { writeVersion1Backup } from '../../../../gateway/src/backup/testing/legacy-backup.ts';
import {
  manifestListing,
  rawTar,
  rawTarGz,
  type RawMember,
} from '../../../../gateway/src/backup/testing/raw-tar.ts';
import { createHarness, type Harness } from '../../testing/cli-harness.ts';

const exec = promisify(execFile);
const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
const ONLY = 'a Hearth backup holds only regular files and directories';

let h: Harness;
let home: string;

beforeEach(async () => {
  h = await createHarness();
  home = join(h.home, '.hearth');
  await mkdir(home, { mode: 0o700 });
  await writeFile(join(home, 'config.toml'), '[gateway]\nport = 7432\n', { mode: 0o600 });
});

afterEach(async () => {
  await h.cleanup();
});

const run = (argv: readonly string[]) => h.run(argv, { HEARTH_HOME: home });

interface Report {
  ok: boolean;
  problems: string[];
  inflated: number;
}

async function createArchive(extra: string[] = []): Promise<string> {
  const created = await run(['backup', 'create', '--json', ...extra]);
  expect(created.code, created.stderr).toBe(0);
  return (JSON.parse(created.stdout) as { archive: string }).archive;
}

async function verify(archive: string, extra: string[] = []): Promise<Report & { code: number }> {
  const result = await run(['backup', 'verify', archive, '--json', ...extra]);
  return { code: result.code, ...(JSON.parse(result.stdout) as Report) };
}

const mode = async (path: string) => (await stat(path)).mode & 0o7777;

/** Restore and verify both refuse with exactly this problem, and nothing is written. */
async function expectRefused(archive: string, problem: string | RegExp): Promise<Report> {
  const target = join(h.home, 'victim');
  const before = (await readdir(h.home)).sort();
  const restored = await run(['backup', 'restore', archive, '--target', target, '--json']);
  expect(restored.code, restored.stderr).toBe(1);
  const report = JSON.parse(restored.stdout) as Report;
  expect(report.ok).toBe(false);
  expect(report.problems).toEqual([
    problem instanceof RegExp ? expect.stringMatching(problem) : problem,
  ]);
  expect((await readdir(h.home)).sort()).toEqual(before);

  const verified = await verify(archive);
  expect(verified.code).toBe(1);
  expect(verified.problems).toEqual(report.problems);
  return verified;
}

describe('hearth backup verify and restore refuse what a backup does not hold', () => {
  it('an unlisted GNU sparse member, which GNU tar would extract as a 1 GiB file', async () => {
    const archive = await createArchive();
    const sparseDir = join(h.home, 'sparse');
    await mkdir(join(sparseDir, 'state'), { recursive: true });
    await writeFile(join(sparseDir, 'state', 'hole'), '');
    await truncate(join(sparseDir, 'state', 'hole'), GiB);
    const holeTar = join(h.home, 'hole.tar');
    await exec('tar', ['--sparse', '--format=gnu', '-cf', holeTar, '-C', sparseDir, 'state/hole']);
    expect(String.fromCharCode((await readFile(holeTar))[156] ?? 0)).toBe('S');
    // The honest archive with the sparse member appended by GNU tar itself.
    const plain = join(h.home, 'plain.tar');
    await writeFile(plain, gunzipSync(await readFile(archive)));
    await exec('tar', ['-Af', plain, holeTar]);
    const hostile = join(h.home, 'sparse.tar.gz');
    await writeFile(hostile, gzipSync(await readFile(plain)));
    await rm(sparseDir, { recursive: true });
    const listing = await exec('tar', ['-tvzf', hostile]);
    expect(listing.stdout).toMatch(/ 1073741824 .* state\/hole\n/);

    await expectRefused(hostile, `"state/hole": GNU sparse file (SparseFile); ${ONLY}`);
  });

  it('symbolic and hard links packed by GNU tar, even when the manifest lists them', async () => {
    const staging = join(h.home, 'links');
    await mkdir(join(staging, 'state'), { recursive: true });
    const config: RawMember = { path: 'state/config.toml', body: 'a = 1\n' };
    const again: RawMember = { path: 'state/again', body: 'a = 1\n' };
    const passwd: RawMember = { path: 'state/passwd', body: '' };
    await writeFile(join(staging, 'state', 'config.toml'), 'a = 1\n');
    await link(join(staging, 'state', 'config.toml'), join(staging, 'state', 'again'));
    await symlink('/etc/passwd', join(staging, 'state', 'passwd'));
    const manifest = manifestListing([config, again, passwd]);
    await writeFile(join(staging, 'manifest.json'), manifest.body ?? '');
    const pack = (name: string, members: string[]) =>
      exec('tar', ['-czf', join(h.home, name), '-C', staging, 'manifest.json', ...members]);

    await pack('hard.tar.gz', ['state/config.toml', 'state/again']);
    await expectRefused(
      join(h.home, 'hard.tar.gz'),
      '"state/again": hard link (a Hearth backup holds none)',
    );
    await pack('soft.tar.gz', ['state/config.toml', 'state/passwd']);
    await expectRefused(
      join(h.home, 'soft.tar.gz'),
      '"state/passwd": symbolic link to "/etc/passwd" points outside the archive',
    );
  });

  it.each<[string, RawMember[], string]>([
    [
      'a character device',
      [{ path: 'state/null', type: 'CharacterDevice' }],
      `"state/null": device file or FIFO (CharacterDevice); ${ONLY}`,
    ],
    [
      'a FIFO',
      [{ path: 'state/pipe', type: 'FIFO' }],
      `"state/pipe": device file or FIFO (FIFO); ${ONLY}`,
    ],
    [
      'a duplicate name',
      [
        { path: 'state/config.toml', body: 'a = 1\n' },
        { path: 'state/config.toml', body: 'a = 2\n' },
      ],
      '"state/config.toml": duplicate member (regular file)',
    ],
  ])('%s', async (_what, members, problem) => {
    const archive = join(h.home, 'hostile.tar.gz');
    await writeFile(archive, rawTarGz([manifestListing(members), ...members]));
    await expectRefused(archive, problem);
  });
});

describe('hearth backup verify and restore bound what they read by the manifest', () => {
  it('an honest backup of 200 MB of zeros verifies and restores', async () => {
    await mkdir(join(home, 'workspace'), { mode: 0o700 });
    const zeros = join(home, 'workspace', 'zeros.bin');
    await writeFile(zeros, '');
    await truncate(zeros, 200 * MiB);
    const archive = await createArchive();
    await rm(zeros);
    // Far more compressible than the 1000:1 the tar library's reader refuses by default.
    expect((200 * MiB) / (await stat(archive)).size).toBeGreaterThan(1000);

    const verified = await verify(archive);
    expect(verified).toMatchObject({ code: 0, ok: true, problems: [] });
    expect(verified.inflated).toBeGreaterThan(200 * MiB);

    const target = join(h.home, 'restored');
    const restored = await run(['backup', 'restore', archive, '--target', target]);
    expect(restored.code, restored.stdout).toBe(0);
    expect((await stat(join(target, 'workspace', 'zeros.bin'))).size).toBe(200 * MiB);
    await rm(target, { recursive: true });
  }, 120_000);

  it('a bomb whose header declares 1 GiB where the manifest declares 1 KiB is not inflated', async () => {
    const bomb: RawMember = { path: 'state/bomb.bin', body: Buffer.alloc(1024) };
    const archive = join(h.home, 'bomb.tar.gz');
    const prefix = rawTar([manifestListing([bomb]), { path: bomb.path, size: GiB }], {
      end: false,
    });
    await writeZeroBomb(archive, prefix, GiB);
    expect((await stat(archive)).size).toBeLessThan(2 * MiB);

    const rss = process.memoryUsage().rss;
    const report = await expectRefused(
      archive,
      '"state/bomb.bin" (regular file): the archive declares 1073741824 bytes, the manifest 1024',
    );
    expect(report.inflated).toBeLessThan(8 * 1024);
    expect(process.memoryUsage().rss - rss).toBeLessThan(128 * MiB);
  });

  it('a bomb of 1 GiB of zeros after the 1 KiB its manifest declares is stopped early', async () => {
    const bomb: RawMember = { path: 'state/bomb.bin', body: Buffer.alloc(1024, 7) };
    const archive = join(h.home, 'bomb.tar.gz');
    await writeZeroBomb(archive, rawTar([manifestListing([bomb]), bomb]), GiB);

    const rss = process.memoryUsage().rss;
    const report = await expectRefused(
      archive,
      /^the archive holds more than its manifest declares: reading stopped after \d+ bytes of tar, where the manifest allows at most \d+$/,
    );
    expect(report.inflated).toBeLessThan(256 * 1024);
    expect(process.memoryUsage().rss - rss).toBeLessThan(128 * MiB);
  });

  it('a manifest declaring more than the file system has free is refused before writing', async () => {
    const free = (await statfs(h.home)).bavail * (await statfs(h.home)).bsize;
    const declared = free + GiB;
    const manifest = {
      format: 'hearth-backup',
      version: 2,
      created_at: '2026-01-01T00:00:00.000Z',
      hearth_version: 'test',
      source: '/nowhere',
      members: [
        { path: 'state/huge', size: declared, sha256: '0'.repeat(64), kind: 'file', mode: 0o600 },
      ],
      directories: [],
      skipped: [],
      notes: [],
    };
    const archive = join(h.home, 'huge.tar.gz');
    await writeFile(archive, rawTarGz([{ path: 'manifest.json', body: JSON.stringify(manifest) }]));
    const limit = String(2 * declared);
    const target = join(h.home, 'victim');
    const result = await run([
      'backup',
      'restore',
      archive,
      '--target',
      target,
      '--max-bytes',
      limit,
      '--max-file-bytes',
      limit,
      '--json',
    ]);
    expect(result.code).toBe(1);
    expect((JSON.parse(result.stdout) as Report).problems).toEqual([
      expect.stringMatching(
        new RegExp(
          `^the archive declares ${declared} bytes, but only \\d+ are free in .*: nothing was written$`,
        ),
      ),
    ]);
    expect(await readdir(h.home)).not.toContain('victim');
  });

  it('the limits are options of create, verify and restore', async () => {
    await writeFile(join(home, 'a.txt'), 'aaaa');
    await writeFile(join(home, 'b.txt'), 'bbbb');
    const archive = await createArchive();
    const verified = await verify(archive, ['--max-bytes', '8']);
    expect(verified).toMatchObject({ code: 1, ok: false });
    expect(verified.problems).toEqual([
      expect.stringMatching(/^manifest\.json declares \d+ bytes in all, beyond the limit of 8$/),
    ]);
    expect((await verify(archive, ['--max-bytes', '1K'])).ok).toBe(true);

    const refused = await run(['backup', 'create', '--max-members', '3']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'hearth: no backup written: manifest.json declares 4 members, beyond the limit of 3 ' +
        '(verify and restore apply the same limits; raise them with --max-bytes, --max-file-bytes or --max-members)\n',
    );
    expect(await readdir(join(h.home, 'backups'))).toEqual([archive.split('/').at(-1)]);
    expect((await run(['backup', 'verify', archive, '--max-bytes', 'lots'])).code).toBe(2);
    expect((await run(['backup', 'verify', archive, '--max-members', '0'])).code).toBe(2);
  });
});

describe('hearth backup restores the modes it backed up', () => {
  it('0600 databases, 0700 folders, executables; setuid, setgid and sticky cleared', async () => {
    const db = new Database(join(home, 'memory.db'));
    db.exec('create table notes (body text)');
    db.close();
    await chmod(join(home, 'memory.db'), 0o600);
    await mkdir(join(home, 'persona'));
    await chmod(join(home, 'persona'), 0o700);
    await writeFile(join(home, 'persona', 'SOUL.md'), 'Be kind.\n');
    await chmod(join(home, 'persona', 'SOUL.md'), 0o644);
    await mkdir(join(home, 'skills', 'tool'), { recursive: true });
    await writeFile(join(home, 'skills', 'tool', 'run.sh'), '#!/bin/sh\n');
    await chmod(join(home, 'skills', 'tool', 'run.sh'), 0o4755);
    await chmod(join(home, 'skills'), 0o755);
    await chmod(join(home, 'skills', 'tool'), 0o755);
    await mkdir(join(home, 'shared'));
    await chmod(join(home, 'shared'), 0o2750);
    await mkdir(join(home, 'drop'));
    await chmod(join(home, 'drop'), 0o3770);
    expect(await mode(join(home, 'skills', 'tool', 'run.sh'))).toBe(0o4755);

    const created = await run(['backup', 'create', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const manifest = JSON.parse(created.stdout) as {
      archive: string;
      version: number;
      members: { path: string; mode: number }[];
      directories: { path: string; mode: number }[];
    };
    expect(manifest.version).toBe(2);
    expect(manifest.members.map((m) => [m.path, m.mode])).toEqual([
      ['state/config.toml', 0o600],
      ['state/memory.db', 0o600],
      ['state/persona/SOUL.md', 0o644],
      ['state/skills/tool/run.sh', 0o755],
    ]);
    expect(manifest.directories).toEqual([
      { path: 'state/drop', mode: 0o770 },
      { path: 'state/persona', mode: 0o700 },
      { path: 'state/shared', mode: 0o750 },
      { path: 'state/skills', mode: 0o755 },
      { path: 'state/skills/tool', mode: 0o755 },
    ]);
    expect((await verify(manifest.archive)).ok).toBe(true);

    const target = join(h.home, 'restored');
    const restored = await run(['backup', 'restore', manifest.archive, '--target', target]);
    expect(restored.code, restored.stdout).toBe(0);
    expect(await mode(target)).toBe(0o700);
    expect(await mode(join(target, 'config.toml'))).toBe(0o600);
    expect(await mode(join(target, 'memory.db'))).toBe(0o600);
    expect(await mode(join(target, 'persona'))).toBe(0o700);
    expect(await mode(join(target, 'persona', 'SOUL.md'))).toBe(0o644);
    expect(await mode(join(target, 'skills', 'tool', 'run.sh'))).toBe(0o755);
    expect(await mode(join(target, 'shared'))).toBe(0o750);
    expect(await mode(join(target, 'drop'))).toBe(0o770);
    // GNU tar sees the same modes in the archive.
    const { stdout } = await exec('tar', ['-tvzf', manifest.archive]);
    expect(stdout).toMatch(/^-rw------- .* state\/memory\.db$/m);
    expect(stdout).toMatch(/^drwx------ .* state\/persona\/$/m);
  });

  it('a manifest asking for setuid, setgid or sticky bits gets permission bits only', async () => {
    const members: RawMember[] = [
      { path: 'state/bin/', type: 'Directory', mode: 0o1777 },
      { path: 'state/bin/tool', body: '#!/bin/sh\n', mode: 0o6755 },
    ];
    const archive = join(h.home, 'suid.tar.gz');
    await writeFile(archive, rawTarGz([manifestListing(members), ...members]));
    const target = join(h.home, 'restored');
    const restored = await run(['backup', 'restore', archive, '--target', target]);
    expect(restored.code, restored.stdout).toBe(0);
    expect(await mode(join(target, 'bin'))).toBe(0o777);
    expect(await mode(join(target, 'bin', 'tool'))).toBe(0o755);
  });

  it('a backup from before modes were recorded restores with 0600 files and 0700 folders', async () => {
    const archive = join(h.home, 'old.tar.gz');
    await writeVersion1Backup(archive, [
      { name: 'config.toml', body: '[gateway]\n' },
      { name: 'persona/SOUL.md', body: 'Be kind.\n' },
    ]);
    const { stdout } = await exec('tar', ['-tvzf', archive]);
    expect(stdout).toMatch(/^-rw-r--r-- .* state\/persona\/SOUL\.md$/m);
    expect((await verify(archive)).ok).toBe(true);

    const target = join(h.home, 'restored');
    const restored = await run(['backup', 'restore', archive, '--target', target]);
    expect(restored.code, restored.stdout).toBe(0);
    expect(await mode(target)).toBe(0o700);
    expect(await mode(join(target, 'config.toml'))).toBe(0o600);
    expect(await mode(join(target, 'persona'))).toBe(0o700);
    expect(await mode(join(target, 'persona', 'SOUL.md'))).toBe(0o600);
    const sha = createHash('sha256').update(await readFile(join(target, 'persona', 'SOUL.md')));
    expect(sha.digest('hex')).toBe(createHash('sha256').update('Be kind.\n').digest('hex'));
  });
});
