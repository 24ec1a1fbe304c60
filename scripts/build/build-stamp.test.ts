/**
 * The build stamp, on a small tree in a temp folder shaped like the repository: a "build"
 * writes dist/ and the stamp, and every change to a source, a config, the lock file, the
 * installed dependencies or an output makes dist/ stale; an unchanged or merely touched
 * checkout does not, nor does a change to a file no build reads.
 */
import { mkdir, mkdtemp, readFile, rm, symlink, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STAMP_FILE, freshness, inputFingerprint, writeStamp } from './build-stamp.ts';

let root: string;

async function write(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), text);
}

/** What scripts/build.ts does around the real work: fingerprint, write dist/, stamp. */
async function build(): Promise<void> {
  const inputs = inputFingerprint(root);
  await rm(join(root, 'dist'), { recursive: true, force: true });
  await write('dist/gateway/src/main.js', 'compiled gateway');
  await write('dist/cli-ink/src/main.js', 'compiled cli');
  await mkdir(join(root, 'dist/node_modules/@hearth'), { recursive: true });
  await symlink('../../gateway', join(root, 'dist/node_modules/@hearth/gateway'), 'dir');
  await write('web/dist/index.html', '<html>');
  writeStamp(root, inputs);
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-stamp-'));
  await write('package.json', '{"name":"hearth"}');
  await write('package-lock.json', '{"lockfileVersion":3}');
  await write('tsconfig.base.json', '{}');
  await write('tsconfig.build.json', '{}');
  await write('node_modules/.package-lock.json', '{"packages":{}}');
  await write('node_modules/zod/index.js', 'zod');
  await write('gateway/src/main.ts', 'export {};');
  await write('gateway/src/main.test.ts', 'test');
  await write('gateway/drizzle/0000.sql', 'create table t;');
  await write('cli-ink/src/main.ts', 'export {};');
  await write('common/sandbox/seccomp.ts', 'export {};');
  await write('web/src/app.ts', 'export {};');
  await write('client/src/index.ts', 'export {};');
  await write('client/src/openapi.ts', 'generated');
  await write('scripts/build.ts', 'build');
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('freshness', () => {
  it('is stale before the first build, fresh after it and while nothing changes', async () => {
    expect(freshness(root)).toEqual({ fresh: false, reason: 'no finished build in dist/' });
    await build();
    expect(freshness(root)).toEqual({ fresh: true });
    expect(freshness(root)).toEqual({ fresh: true });
  });

  it.each([
    ['a compiled source', 'gateway/src/main.ts'],
    ['a CLI source', 'cli-ink/src/main.ts'],
    ['a source the gateway and the sidecar share', 'common/sandbox/seccomp.ts'],
    ['a migration the build copies', 'gateway/drizzle/0000.sql'],
    ['a web client source', 'web/src/app.ts'],
    ['the client package', 'client/src/index.ts'],
    ['the build script', 'scripts/build.ts'],
    ['a tsconfig', 'tsconfig.build.json'],
    ['the manifest', 'package.json'],
    ['the lock file', 'package-lock.json'],
    ['the installed dependencies (npm install)', 'node_modules/.package-lock.json'],
  ])('is stale after a change to %s', async (_what, path) => {
    await build();
    await writeFile(join(root, path), `${await readFile(join(root, path), 'utf8')} changed`);
    expect(freshness(root)).toEqual({ fresh: false, reason: 'sources changed' });
    await build();
    expect(freshness(root)).toEqual({ fresh: true });
  });

  it('is stale when a source is added or removed', async () => {
    await build();
    await write('gateway/src/new.ts', 'export {};');
    expect(freshness(root)).toMatchObject({ fresh: false, reason: 'sources changed' });
    await build();
    await unlink(join(root, 'gateway/src/new.ts'));
    expect(freshness(root)).toMatchObject({ fresh: false, reason: 'sources changed' });
  });

  it('is stale when an output is deleted or edited, or the stamp is unreadable', async () => {
    await build();
    await unlink(join(root, 'dist/cli-ink/src/main.js'));
    expect(freshness(root)).toEqual({ fresh: false, reason: 'dist/ was changed' });
    await build();
    await writeFile(join(root, 'web/dist/index.html'), '<html> edited');
    expect(freshness(root)).toEqual({ fresh: false, reason: 'dist/ was changed' });
    await build();
    await writeFile(join(root, STAMP_FILE), '{"inputs": 1}');
    expect(freshness(root)).toEqual({ fresh: false, reason: 'no finished build in dist/' });
  });

  it('stays fresh when a file is touched but not changed, and remembers the new time', async () => {
    await build();
    const later = new Date(Date.now() + 60_000);
    await utimes(join(root, 'gateway/src/main.ts'), later, later);
    const before = await readFile(join(root, STAMP_FILE), 'utf8');
    expect(freshness(root)).toEqual({ fresh: true });
    const after = JSON.parse(await readFile(join(root, STAMP_FILE), 'utf8')) as {
      inputStats: string;
    };
    expect(after.inputStats).not.toBe((JSON.parse(before) as { inputStats: string }).inputStats);
    expect(freshness(root)).toEqual({ fresh: true });
  });

  it('ignores files no build reads: tests, the generated client types, installed packages', async () => {
    await build();
    await write('gateway/src/main.test.ts', 'test changed');
    await write('client/src/openapi.ts', 'regenerated');
    await write('node_modules/zod/index.js', 'zod patched by hand');
    await write('gateway/.hearth-test-1/state.db', 'scratch');
    await write('cli-ink/debug.log', 'log');
    expect(freshness(root)).toEqual({ fresh: true });
  });

  it('takes the input fingerprint from before the build: a change during it means another', async () => {
    const inputs = inputFingerprint(root);
    await write('gateway/src/main.ts', 'export const changedWhileBuilding = 1;');
    await write('dist/cli-ink/src/main.js', 'compiled cli');
    writeStamp(root, inputs);
    expect(freshness(root)).toEqual({ fresh: false, reason: 'sources changed' });
  });
});
