/**
 * ReDoc's bundle from redoc's tarball: the named files are taken out of a tarball that matches
 * the pinned integrity, once per release; a tarball that does not match, lacks a file, or holds
 * entries that climb out of their folder leaves nothing behind but an error.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tar from 'tar';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureRedocAssets, type PackTarball, type RedocRelease } from './redoc-assets.ts';

let work: string;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'hearth-redoc-assets-'));
});
afterEach(() => rm(work, { recursive: true, force: true }));

const FILES: Record<string, string> = {
  'package/bundles/redoc.standalone.js': '/* the standalone bundle */',
  'package/bundles/redoc.standalone.js.LICENSE.txt': 'licences of the bundled parts',
  'package/LICENSE': 'MIT',
  'package/package.json': '{"name":"redoc","version":"9.9.9"}',
  'package/bundles/redoc.lib.js': '/* not wanted */',
};

/**
 * A gzipped tarball of `files` and its integrity. Each entry is written from a safely named
 * file and then given its path as listed, so that hostile paths reach the tarball as they are.
 */
async function tarball(name: string, files: Record<string, string>) {
  const source = join(work, `${name}-source`);
  const entries = Object.entries(files);
  await mkdir(source);
  for (const [index, [, text]] of entries.entries())
    await writeFile(join(source, `f${index}`), text);
  const file = join(work, `${name}.tgz`);
  await tar.c(
    {
      gzip: true,
      file,
      cwd: source,
      portable: true,
      onWriteEntry: (entry) => {
        entry.path = entries[Number(entry.path.slice(1))]?.[0] ?? entry.path;
      },
    },
    entries.map((_, index) => `f${index}`),
  );
  const integrity = `sha512-${createHash('sha512')
    .update(await readFile(file))
    .digest('base64')}`;
  return { file, integrity };
}

/** A pack that hands over `file` as npm pack would, counting its calls. */
function packing(file: string) {
  const calls: string[] = [];
  const pack: PackTarball = async (spec, destination) => {
    calls.push(spec);
    const target = join(destination, 'redoc-9.9.9.tgz');
    await writeFile(target, await readFile(file));
    return target;
  };
  return { pack, calls };
}

describe('ensureRedocAssets', () => {
  it('takes the named files out of the pinned tarball, once per release', async () => {
    const { file, integrity } = await tarball('good', FILES);
    const release: RedocRelease = { version: '9.9.9', integrity };
    const dir = join(work, 'gateway', 'assets', 'redoc');
    const { pack, calls } = packing(file);

    await expect(ensureRedocAssets({ dir, release, pack })).resolves.toBe('fetched');
    expect(calls).toEqual(['redoc@9.9.9']);
    expect(await readFile(join(dir, 'bundles', 'redoc.standalone.js'), 'utf8')).toBe(
      '/* the standalone bundle */',
    );
    expect(await readFile(join(dir, 'LICENSE'), 'utf8')).toBe('MIT');
    expect((await readdir(join(dir, 'bundles'))).sort()).toEqual([
      'redoc.standalone.js',
      'redoc.standalone.js.LICENSE.txt',
    ]);
    expect(existsSync(join(dir, 'package.json'))).toBe(false);

    await expect(ensureRedocAssets({ dir, release, pack })).resolves.toBe('present');
    expect(calls).toHaveLength(1);

    // Another release (or a changed pin) fetches again.
    await expect(
      ensureRedocAssets({ dir, release: { ...release, version: '9.9.10' }, pack }),
    ).resolves.toBe('fetched');
    expect(calls).toEqual(['redoc@9.9.9', 'redoc@9.9.10']);
  });

  it('refuses a tarball whose integrity is not the pinned one, keeping what was there', async () => {
    const good = await tarball('good', FILES);
    const dir = join(work, 'assets', 'redoc');
    await ensureRedocAssets({
      dir,
      release: { version: '9.9.9', integrity: good.integrity },
      pack: packing(good.file).pack,
    });
    const forged = await tarball('forged', {
      ...FILES,
      'package/bundles/redoc.standalone.js': 'steal(document.cookie)',
    });
    await expect(
      ensureRedocAssets({
        dir,
        release: { version: '9.9.10', integrity: good.integrity },
        pack: packing(forged.file).pack,
      }),
    ).rejects.toThrow(/integrity is sha512-.*not the pinned/);
    expect(await readFile(join(dir, 'bundles', 'redoc.standalone.js'), 'utf8')).toBe(
      '/* the standalone bundle */',
    );
  });

  it('refuses a tarball without the bundle', async () => {
    const { file, integrity } = await tarball('partial', {
      'package/LICENSE': 'MIT',
      'package/bundles/redoc.lib.js': '/* not the standalone bundle */',
    });
    const dir = join(work, 'assets', 'redoc');
    await expect(
      ensureRedocAssets({
        dir,
        release: { version: '1.0.0', integrity },
        pack: packing(file).pack,
      }),
    ).rejects.toThrow(/holds no bundles\/redoc\.standalone\.js, bundles\/redoc\.standalone/);
    expect(existsSync(dir)).toBe(false);
  });

  it('writes nothing outside its folder for entries that climb out of the package', async () => {
    const { file, integrity } = await tarball('climbing', {
      ...FILES,
      'package/../escaped.js': 'outside',
      'package/bundles/../../../escaped-too.js': 'outside',
    });
    const dir = join(work, 'deep', 'assets', 'redoc');
    await ensureRedocAssets({
      dir,
      release: { version: '1.0.0', integrity },
      pack: packing(file).pack,
    });
    const listed: string[] = [];
    await tar.t({ file, onReadEntry: (entry) => listed.push(entry.path) });
    expect(listed).toContain('package/../escaped.js'); // the hostile entries are in the tarball
    const everything = await readdir(work, { recursive: true });
    expect(everything.filter((path) => path.includes('escaped'))).toEqual([]);
    expect(await readFile(join(dir, 'bundles', 'redoc.standalone.js'), 'utf8')).toBe(
      '/* the standalone bundle */',
    );
  });

  it('reports a failed download as the error, with nothing left behind', async () => {
    const dir = join(work, 'assets', 'redoc');
    const pack: PackTarball = () =>
      Promise.reject(new Error('npm pack redoc@1.0.0 failed (exit 1)'));
    await expect(
      ensureRedocAssets({ dir, release: { version: '1.0.0', integrity: 'sha512-x' }, pack }),
    ).rejects.toThrow(/npm pack redoc@1\.0\.0 failed/);
    expect(existsSync(dir)).toBe(false);
  });
});
