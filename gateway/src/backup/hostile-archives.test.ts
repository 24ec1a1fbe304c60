import { access, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { restoreBackup } from './restore-backup.ts';
import {
  listedTarGz,
  manifestListing,
  paxBody,
  rawTar,
  rawTarGz,
  type RawMember,
} from './testing/raw-tar.ts';
import { verifyBackup } from './verify-backup.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-hostile-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

const config: RawMember = { path: 'state/config.toml', body: 'a = 1\n' };
const only = 'a Hearth backup holds only regular files and directories';

/**
 * Each hostile archive, what it tries, and the words its rejection must contain. The archive
 * is a valid manifest listing the members (see manifestListing: `listed` replaces what it
 * lists), then the members: so each is refused for what it is, not for a missing manifest.
 */
const HOSTILE: [string, { members: RawMember[]; listed?: RawMember[] }, string][] = [
  [
    'path traversal',
    { members: [config, { path: 'state/../../evil.txt', body: 'pwned' }] },
    '"state/../../evil.txt": path traversal (..)',
  ],
  [
    'absolute path',
    { members: [{ path: '/tmp/hearth-evil.txt', body: 'pwned' }] },
    '"/tmp/hearth-evil.txt": absolute path',
  ],
  [
    'symbolic link escaping the target',
    {
      members: [
        { path: 'state/out', type: 'SymbolicLink', linkpath: '../../..' },
        { path: 'state/out/evil.txt', body: 'pwned' },
      ],
    },
    'symbolic link to "../../.." points outside the archive',
  ],
  [
    'symbolic link inside, listed in the manifest as a file',
    { members: [config, { path: 'state/alias', type: 'SymbolicLink', linkpath: 'config.toml' }] },
    '"state/alias": symbolic link (a Hearth backup holds none)',
  ],
  [
    'hard link to a file outside',
    { members: [{ path: 'state/passwd', type: 'Link', linkpath: '/etc/passwd' }] },
    'hard link to "/etc/passwd" points outside the archive',
  ],
  [
    'hard link to a listed file',
    { members: [config, { path: 'state/again', type: 'Link', linkpath: 'state/config.toml' }] },
    '"state/again": hard link (a Hearth backup holds none)',
  ],
  [
    'huge member (declared size beyond the limit)',
    { members: [{ path: 'state/huge.bin', size: 20 * 1024 ** 3, body: 'x' }] },
    'exceeds the limit of 17179869184 per member',
  ],
  [
    'duplicate names',
    { members: [config, { path: 'state/config.toml', body: 'b' }] },
    '"state/config.toml": duplicate member',
  ],
  [
    'duplicate names spelt differently',
    { members: [config, { path: './state/config.toml', body: 'a = 1\n' }] },
    '"state/config.toml": duplicate member',
  ],
  [
    'the manifest twice',
    { members: [config, { path: 'manifest.json', body: '{}' }] },
    '"manifest.json": duplicate member',
  ],
  [
    'character device',
    { members: [{ path: 'state/null', type: 'CharacterDevice' }] },
    `"state/null": device file or FIFO (CharacterDevice); ${only}`,
  ],
  [
    'block device',
    { members: [{ path: 'state/disk', type: 'BlockDevice' }] },
    'device file or FIFO (BlockDevice)',
  ],
  [
    'FIFO',
    { members: [config, { path: 'state/pipe', type: 'FIFO' }] },
    'device file or FIFO (FIFO)',
  ],
  [
    'GNU sparse file',
    { members: [config, { path: 'state/hole', type: 'SparseFile', body: 'x' }] },
    `"state/hole": GNU sparse file (SparseFile); ${only}`,
  ],
  [
    'contiguous file',
    { members: [{ path: 'state/c', type: 'ContiguousFile', body: 'x' }] },
    '"state/c": contiguous file (ContiguousFile)',
  ],
  [
    'GNU long name record',
    {
      members: [
        {
          path: '././@LongLink',
          type: 'NextFileHasLongPath',
          body: `state/${'a'.repeat(200)}\0`,
        },
        { path: `state/${'a'.repeat(90)}`, body: 'x' },
      ],
    },
    '"././@LongLink": GNU long name (NextFileHasLongPath)',
  ],
  [
    'pax global header',
    {
      members: [
        { path: 'pax_global_header', type: 'GlobalExtendedHeader', body: paxBody({ path: 'x' }) },
        config,
      ],
    },
    '"pax_global_header": pax global header (GlobalExtendedHeader)',
  ],
  [
    'pax record of a GNU sparse map',
    {
      members: [
        config,
        {
          path: 'state/GNUSparseFile.0/hole',
          pax: {
            'GNU.sparse.major': '1',
            'GNU.sparse.minor': '0',
            'GNU.sparse.realsize': '1073741824',
          },
          body: 'x',
        },
      ],
    },
    'pax record "GNU.sparse.major" (a Hearth backup has none)',
  ],
  [
    'pax record of a link target',
    { members: [{ ...config, pax: { linkpath: '/etc/passwd' } }] },
    'pax record "linkpath" (a Hearth backup has none)',
  ],
  [
    'pax path renaming a listed file to a traversal',
    { members: [{ ...config, pax: { path: 'state/../../evil.txt' } }] },
    '"state/../../evil.txt": path traversal (..)',
  ],
  [
    'pax size larger than the header and the manifest say',
    { members: [{ ...config, pax: { size: String(1024 ** 3) } }] },
    '"state/config.toml" (regular file): the archive declares 1073741824 bytes, the manifest 6',
  ],
  [
    'two pax headers in a row',
    {
      members: [
        { path: 'PaxHeader/first', type: 'ExtendedHeader', body: paxBody({ path: 'state/a' }) },
        { ...config, pax: { path: 'state/config.toml' } },
      ],
    },
    'two pax extended headers in a row',
  ],
  [
    'malformed pax record',
    {
      members: [
        { path: 'PaxHeader/x', type: 'ExtendedHeader', body: '99 path=state/config.toml\n' },
        config,
      ],
    },
    'malformed pax record',
  ],
  [
    'a member the manifest does not list',
    { members: [config, { path: 'state/extra.txt', body: 'smuggled' }], listed: [config] },
    '"state/extra.txt" (regular file): in the archive but not in the manifest',
  ],
  [
    'a directory where the manifest lists a file',
    {
      members: [{ path: 'state/config.toml/', type: 'Directory' }],
      listed: [config],
    },
    '"state/config.toml/" (directory): the manifest lists a regular file',
  ],
  [
    'a file where the manifest lists a directory',
    {
      members: [{ path: 'state/skills', body: '' }],
      listed: [{ path: 'state/skills/', type: 'Directory' }],
    },
    '"state/skills" (regular file): the manifest lists a directory',
  ],
  [
    'a regular file named like a directory',
    { members: [{ path: 'state/skills/', body: 'x' }], listed: [] },
    '"state/skills/": a regular file named like a directory',
  ],
  [
    'a directory carrying data',
    { members: [{ path: 'state/skills/', type: 'Directory', size: 512, body: 'x'.repeat(512) }] },
    '"state/skills/" (directory): a directory with 512 bytes of data',
  ],
];

async function expectRefused(archive: string, reason: string): Promise<void> {
  const target = join(root, 'site', 'restored');
  const restored = await restoreBackup(archive, { target });
  expect(restored.ok).toBe(false);
  expect(restored.problems.join('\n')).toContain(reason);
  // Nothing was written: no target, no work folder beside it, nothing outside.
  expect(await exists(join(root, 'site'))).toBe(false);
  expect(await exists(join(root, 'evil.txt'))).toBe(false);
  expect(await exists('/tmp/hearth-evil.txt')).toBe(false);

  const verified = await verifyBackup(archive, { workDir: root });
  expect(verified.ok).toBe(false);
  expect(verified.problems.join('\n')).toContain(reason);
  expect((await readdir(root)).filter((name) => !name.endsWith('.tar.gz'))).toEqual([]);
}

describe('a hostile archive is refused, naming the member and its type, and nothing is written', () => {
  it.each(HOSTILE)('%s', async (_what, { members, listed }, reason) => {
    const archive = join(root, 'hostile.tar.gz');
    await writeFile(archive, rawTarGz([manifestListing(listed ?? members), ...members]));
    await expectRefused(archive, reason);
  });

  it('with --force, a hostile archive leaves the existing target untouched', async () => {
    const archive = join(root, 'hostile.tar.gz');
    const members = [config, { path: 'state/hole', type: 'SparseFile' as const, body: 'x' }];
    await writeFile(archive, rawTarGz([manifestListing(members), ...members]));
    const target = join(root, 'state');
    await mkdir(target);
    await writeFile(join(target, 'config.toml'), 'mine');
    const restored = await restoreBackup(archive, { target, force: true });
    expect(restored.ok).toBe(false);
    expect(await readdir(target)).toEqual(['config.toml']);
    expect((await readdir(root)).sort()).toEqual(['hostile.tar.gz', 'state']);
  });

  it('the manifest must come first', async () => {
    const archive = join(root, 'late.tar.gz');
    await writeFile(archive, rawTarGz([config, manifestListing([config])]));
    await expectRefused(
      archive,
      'manifest.json is missing from the start of the archive: its first member is "state/config.toml" (regular file)',
    );
  });

  it('a manifest beyond its limit is refused before it is read', async () => {
    const archive = join(root, 'fat.tar.gz');
    await writeFile(archive, rawTarGz([{ path: 'manifest.json', body: ' '.repeat(5000) }]));
    const report = await verifyBackup(archive, {
      workDir: root,
      limits: {
        maxManifestBytes: 4096,
        maxMembers: 10,
        maxMemberBytes: 1 << 20,
        maxTotalBytes: 1 << 20,
      },
    });
    expect(report.problems).toEqual(['manifest.json is 5000 bytes, beyond the limit of 4096']);
  });

  it('a manifest declaring more members or bytes than the limits is refused before any member', async () => {
    const members = [config, { path: 'state/b', body: 'bb' }, { path: 'state/c', body: 'cc' }];
    const archive = join(root, 'many.tar.gz');
    await writeFile(archive, listedTarGz(members));
    const limits = { maxManifestBytes: 1 << 20, maxMemberBytes: 1 << 20 };
    expect(
      (await verifyBackup(archive, { limits: { ...limits, maxMembers: 3, maxTotalBytes: 100 } }))
        .problems,
    ).toEqual(['manifest.json declares 4 members, beyond the limit of 3']);
    expect(
      (await verifyBackup(archive, { limits: { ...limits, maxMembers: 4, maxTotalBytes: 9 } }))
        .problems,
    ).toEqual(['manifest.json declares 10 bytes in all, beyond the limit of 9']);
  });

  it('every member the manifest lists must be in the archive', async () => {
    const archive = join(root, 'short.tar.gz');
    const skills: RawMember = { path: 'state/skills/', type: 'Directory' };
    await writeFile(archive, rawTarGz([manifestListing([config, skills])]));
    const report = await verifyBackup(archive, { workDir: root });
    expect(report.problems).toEqual([
      '"state/skills": listed in the manifest but not in the archive',
      '"state/config.toml": listed in the manifest but not in the archive',
    ]);
  });

  it('anything but zeros after the end-of-archive marker is refused', async () => {
    const archive = join(root, 'tail.tar.gz');
    const tar = rawTar([manifestListing([config]), config]);
    await writeFile(archive, gzipSync(Buffer.concat([tar, Buffer.from('smuggled')])));
    await expectRefused(archive, 'data after the end of the archive');
  });

  it('an archive that is not gzip or tar at all is reported as damaged', async () => {
    const archive = join(root, 'junk.tar.gz');
    await writeFile(archive, 'this is not an archive');
    const report = await verifyBackup(archive, { workDir: root });
    expect(report.ok).toBe(false);
    expect(report.problems[0]).toMatch(/^the archive is (damaged|empty)/);
    await writeFile(archive, gzipSync(Buffer.alloc(0)));
    expect((await verifyBackup(archive, { workDir: root })).problems).toEqual([
      'the archive is empty',
    ]);
  });
});
