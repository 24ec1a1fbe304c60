/**
 * bin/hearth.js, the `hearth` command as installed: it runs the compiled CLI in dist/, says
 * clearly when that build is missing, and on a Node older than 22.12 hands over to the Node 24
 * that scripts/ensure-node.sh provides. Each test copies the script into a scratch project
 * whose dist/cli-ink/src/main.js is a stub that reports how it was run.
 */
import { execFile } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('./hearth.js', import.meta.url));
/** The machine's own node, when it is older than Hearth needs (Node 20 on this project's CI). */
const OLD_NODE = '/usr/bin/node';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(node: string, script: string, args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(node, [script, ...args], { timeout: 15_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

function nodeVersion(node: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(node, ['-p', 'process.versions.node'], (error, stdout) =>
      resolve(error === null ? stdout.trim() : undefined),
    );
  });
}

const oldNodeVersion = await nodeVersion(OLD_NODE);
const [oldMajor = 0, oldMinor = 0] = (oldNodeVersion ?? '0.0').split('.').map(Number);
const haveOldNode =
  oldNodeVersion !== undefined && (oldMajor < 22 || (oldMajor === 22 && oldMinor < 12));

describe('bin/hearth.js', () => {
  let project: string;
  let script: string;

  beforeEach(async () => {
    project = await mkdtemp(join(tmpdir(), 'hearth-bin-'));
    await mkdir(join(project, 'cli-ink', 'bin'), { recursive: true });
    await writeFile(join(project, 'cli-ink', 'package.json'), '{"type":"module"}\n');
    script = join(project, 'cli-ink', 'bin', 'hearth.js');
    await copyFile(BIN, script);
  });
  afterEach(() => rm(project, { recursive: true, force: true }));

  async function writeStubBuild(): Promise<void> {
    const dir = join(project, 'dist', 'cli-ink', 'src');
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, 'main.js'),
      'console.log(JSON.stringify({ node: process.versions.node, args: process.argv.slice(2) }));\n',
    );
  }

  it('runs the compiled CLI in dist/ with the arguments it was given', async () => {
    await writeStubBuild();
    const result = await run(process.execPath, script, ['status', '--json']);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({
      node: process.versions.node,
      args: ['status', '--json'],
    });
  });

  it('without a build, exits 1 naming the missing file and the command that builds it', async () => {
    const result = await run(process.execPath, script, ['status']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(join(project, 'dist', 'cli-ink', 'src', 'main.js'));
    expect(result.stderr).toContain("'npm run build'");
  });

  /** A scripts/ensure-node.sh that prints `folder` (as the real one prints Node 24's bin folder), or fails. */
  async function writeEnsureNode(folder: string | null): Promise<void> {
    await mkdir(join(project, 'scripts'), { recursive: true });
    const file = join(project, 'scripts', 'ensure-node.sh');
    await writeFile(
      file,
      folder === null
        ? '#!/usr/bin/env bash\necho "ensure-node: installing node@24 failed" >&2\nexit 1\n'
        : `#!/usr/bin/env bash\necho '${folder}'\n`,
    );
    await chmod(file, 0o755);
  }

  it.skipIf(!haveOldNode)(
    'on a Node older than 22.12, runs the CLI on the Node 24 that scripts/ensure-node.sh provides (skipped when the machine has no Node older than 22.12)',
    async () => {
      await writeStubBuild();
      const bin = join(project, 'node24', 'bin');
      await mkdir(bin, { recursive: true });
      await symlink(process.execPath, join(bin, 'node'));
      await writeEnsureNode(bin);

      const result = await run(OLD_NODE, script, ['version']);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({
        node: process.versions.node,
        args: ['version'],
      });
    },
  );

  it.skipIf(!haveOldNode)(
    'on a Node older than 22.12 when scripts/ensure-node.sh cannot provide Node 24, says what to install (skipped when the machine has no Node older than 22.12)',
    async () => {
      await writeStubBuild();
      await writeEnsureNode(null);
      const result = await run(OLD_NODE, script, ['version']);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`this is v${oldNodeVersion}`);
      expect(result.stderr).toContain('install Node 24');
    },
  );
});
