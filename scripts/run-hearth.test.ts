/**
 * `./hearth`, the command in a checkout: it runs the compiled CLI on the project's Node with
 * the arguments given, builds first when dist/ is missing or stale (saying why on stderr, the
 * build's own output on stderr too, so that stdout is the command's alone), and not otherwise.
 * Each test copies the shell script, scripts/run-hearth.ts and the stamp module into a scratch
 * checkout whose build is a stub: it writes a dist/cli-ink/src/main.js that reports how it was
 * run, and the stamp, as scripts/build.ts does.
 */
import { execFile } from 'node:child_process';
import {
  chmod,
  copyFile,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rm,
  symlink,
  unlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');

const STUB_BUILD = `
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { inputFingerprint, writeStamp } from './build/build-stamp.ts';
appendFileSync('builds.log', 'built\\n');
process.stdout.write('stub build: compiling\\n');
if (process.env.FAIL_BUILD) process.exit(3);
const inputs = inputFingerprint(process.cwd());
rmSync('dist', { recursive: true, force: true });
mkdirSync('dist/cli-ink/src', { recursive: true });
writeFileSync(
  'dist/cli-ink/src/main.js',
  'console.log(JSON.stringify({ node: process.versions.node, args: process.argv.slice(2), cwd: process.cwd(), cache: process.env.NODE_COMPILE_CACHE ?? null }));\\n',
);
writeStamp(process.cwd(), inputs);
`;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let project: string;

function hearth(args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      join(project, 'hearth'),
      args,
      {
        cwd: tmpdir(),
        env: { ...process.env, XDG_CACHE_HOME: join(project, 'cache'), ...env },
        timeout: 30_000,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

async function builds(): Promise<number> {
  const log = await readFile(join(project, 'builds.log'), 'utf8').catch(() => '');
  return log.split('\n').filter(Boolean).length;
}

async function write(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(project, path)), { recursive: true });
  await writeFile(join(project, path), text);
}

beforeEach(async () => {
  project = await mkdtemp(join(tmpdir(), 'hearth-shim-'));
  await mkdir(join(project, 'scripts', 'build'), { recursive: true });
  await copyFile(join(REPO, 'hearth'), join(project, 'hearth'));
  await copyFile(join(REPO, 'scripts/run-hearth.ts'), join(project, 'scripts/run-hearth.ts'));
  await copyFile(
    join(REPO, 'scripts/build/build-stamp.ts'),
    join(project, 'scripts/build/build-stamp.ts'),
  );
  await write('scripts/build.ts', STUB_BUILD);
  await write('package.json', '{"type":"module"}\n');
  await write('gateway/src/main.ts', 'export {};\n');
  // The project's own Node, where `npm install` puts it.
  await mkdir(join(project, 'node_modules/node/bin'), { recursive: true });
  await symlink(process.execPath, join(project, 'node_modules/node/bin/node'));
});
afterEach(() => rm(project, { recursive: true, force: true }));

describe('./hearth', () => {
  it('builds a missing dist/ first, saying so on stderr, then runs the CLI', async () => {
    const result = await hearth(['status', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      node: process.versions.node,
      args: ['status', '--json'],
      cwd: tmpdir(),
      cache: null,
    });
    expect(result.stderr).toContain('hearth: building dist/ first (no finished build in dist/)');
    expect(result.stderr).toContain('stub build: compiling');
    expect(await builds()).toBe(1);
  });

  it('does not build again while nothing changed', async () => {
    await hearth(['status']);
    const again = await hearth(['--help']);
    expect(again.stderr).toBe('');
    expect(JSON.parse(again.stdout)).toMatchObject({ args: ['--help'] });
    expect(await builds()).toBe(1);
  });

  it('builds again after a source changed or an output was deleted', async () => {
    await hearth(['status']);
    await write('gateway/src/main.ts', 'export const changed = 1;\n');
    const changed = await hearth(['status']);
    expect(changed.stderr).toContain('building dist/ first (sources changed)');
    expect(await builds()).toBe(2);

    await unlink(join(project, 'dist/cli-ink/src/main.js'));
    const deleted = await hearth(['status']);
    expect(deleted.stderr).toContain('building dist/ first (dist/ was changed)');
    expect(JSON.parse(deleted.stdout)).toMatchObject({ args: ['status'] });
    expect(await builds()).toBe(3);
  });

  it("uses Node's compile cache in its own process only", async () => {
    await hearth(['status']);
    const cache = join(project, 'cache/hearth/compile-cache');
    expect((await readdir(cache)).length).toBeGreaterThan(0);
    const again = await hearth(['status']);
    expect(JSON.parse(again.stdout)).toMatchObject({ cache: null });
    // One the user set is theirs, and left alone.
    const own = await hearth(['status'], { NODE_COMPILE_CACHE: join(project, 'own-cache') });
    expect(JSON.parse(own.stdout)).toMatchObject({ cache: join(project, 'own-cache') });
  });

  it('exits 1 and says so when the build fails, running nothing', async () => {
    const result = await hearth(['status'], { FAIL_BUILD: '1' });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('hearth: the build failed (exit 3)');
  });

  it('asks ensure-node.sh for a Node once, and again only when that Node is gone or replaced', async () => {
    // No node_modules/node: the Node comes from scripts/ensure-node.sh, here a stub that logs
    // each call and answers with a folder holding a link to this Node.
    await rm(join(project, 'node_modules/node'), { recursive: true });
    const bin = join(project, 'node-bin');
    await mkdir(bin);
    await symlink(process.execPath, join(bin, 'node'));
    await write(
      'scripts/ensure-node.sh',
      `#!/bin/sh\necho asked >> "${join(project, 'ensure.log')}"\necho "${bin}"\n`,
    );
    await chmod(join(project, 'scripts/ensure-node.sh'), 0o755);
    const asked = async () =>
      (await readFile(join(project, 'ensure.log'), 'utf8').catch(() => ''))
        .split('\n')
        .filter(Boolean).length;

    expect((await hearth(['status'])).code).toBe(0);
    expect(JSON.parse((await hearth(['--help'])).stdout)).toMatchObject({ args: ['--help'] });
    expect(await asked()).toBe(1);

    // The Node it named was replaced (newer than the record): asked again.
    await utimes(join(project, 'node_modules/.hearth-node'), new Date(0), new Date(0));
    expect((await hearth(['status'])).code).toBe(0);
    expect(await asked()).toBe(2);

    // The Node it named is gone: asked again.
    await writeFile(join(project, 'node_modules/.hearth-node'), join(project, 'gone/node') + '\n');
    const again = await hearth(['status']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ args: ['status'] });
    expect(await asked()).toBe(3);
  });

  it('works through a link to it from another folder', async () => {
    const bin = join(project, 'bin-on-path');
    await mkdir(bin);
    await symlink(join(project, 'hearth'), join(bin, 'hearth'));
    const result = await new Promise<Run>((resolve) => {
      execFile(join(bin, 'hearth'), ['version'], { cwd: tmpdir() }, (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : 1, stdout, stderr }),
      );
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ args: ['version'] });
  });
});
