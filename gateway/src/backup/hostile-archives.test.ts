import { access, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { restoreBackup } from './restore-backup.ts';
import { rawTarGz, type RawMember } from './testing/raw-tar.ts';
import { verifyBackup } from './verify-backup.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-hostile-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const manifest: RawMember = { path: 'manifest.json', body: '{}' };
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** Each hostile archive, what it tries, and the words its rejection must contain. */
const HOSTILE: [string, RawMember[], string][] = [
  [
    'path traversal',
    [manifest, { path: 'state/../../evil.txt', body: 'pwned' }],
    'path traversal (..)',
  ],
  ['absolute path', [manifest, { path: '/tmp/hearth-evil.txt', body: 'pwned' }], 'absolute path'],
  [
    'symbolic link escaping the target',
    [
      manifest,
      { path: 'state/out', type: 'SymbolicLink', linkpath: '../../..' },
      { path: 'state/out/evil.txt', body: 'pwned' },
    ],
    'symbolic link to "../../.." points outside the archive',
  ],
  [
    'hard link to a file outside',
    [manifest, { path: 'state/passwd', type: 'Link', linkpath: '/etc/passwd' }],
    'hard link to "/etc/passwd" points outside the archive',
  ],
  [
    'huge member (declared size beyond the limit)',
    [manifest, { path: 'state/huge.bin', size: 20 * 1024 ** 3, body: 'x' }],
    'exceeds the limit of 17179869184 per member',
  ],
  [
    'duplicate names',
    [
      manifest,
      { path: 'state/config.toml', body: 'a = 1' },
      { path: 'state/config.toml', body: 'b' },
    ],
    '"state/config.toml": duplicate member',
  ],
  [
    'device file',
    [manifest, { path: 'state/null', type: 'CharacterDevice' }],
    'device file or FIFO (CharacterDevice)',
  ],
];

describe('a hostile archive is rejected before anything is written', () => {
  it.each(HOSTILE)('%s', async (_what, members, reason) => {
    const archive = join(root, 'hostile.tar.gz');
    await writeFile(archive, rawTarGz(members));
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
    expect(await readdir(root)).toEqual(['hostile.tar.gz']);
  });

  it('with --force, a hostile archive leaves the existing target untouched', async () => {
    const archive = join(root, 'hostile.tar.gz');
    await writeFile(archive, rawTarGz(HOSTILE[0]![1]));
    const target = join(root, 'state');
    await mkdir(target);
    await writeFile(join(target, 'config.toml'), 'mine');
    const restored = await restoreBackup(archive, { target, force: true });
    expect(restored.ok).toBe(false);
    expect(await readdir(target)).toEqual(['config.toml']);
  });

  it('an archive that is not gzip or tar at all is reported as damaged', async () => {
    const archive = join(root, 'junk.tar.gz');
    await writeFile(archive, 'this is not an archive');
    const report = await verifyBackup(archive, { workDir: root });
    expect(report.ok).toBe(false);
    expect(report.problems[0]).toMatch(/^the archive is (damaged|empty)/);
  });
});
