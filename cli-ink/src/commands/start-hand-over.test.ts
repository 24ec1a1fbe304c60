/**
 * The real thing: `hearth start` in the foreground as its own process. It hands that process over
 * to the gateway's entry point (gateway lifecycle/hand-over.ts): same pid, main.ts's command
 * line, the memory set-up applied once, and the same lines on stdout and stderr as before.
 * Every process this suite starts is killed afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI_SOURCE_PATH, freePort } from '../testing/cli-harness.ts';

interface Started {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

function hearthStart(home: string, args: readonly string[]): Started {
  const env: NodeJS.ProcessEnv = { ...process.env, HEARTH_HOME: home, HEARTH_LOG_LEVEL: 'warn' };
  delete env.HEARTH_CONFIG;
  const child = spawn(process.execPath, [CLI_SOURCE_PATH, 'start', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const commandLine = async (pid: number) =>
  (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);

describe.skipIf(process.platform !== 'linux' || typeof process.execve !== 'function')(
  'hearth start in the foreground (real process)',
  () => {
    let home: string;
    let started: Started | undefined;
    beforeEach(async () => void (home = await mkdtemp(join(tmpdir(), 'hearth-fg-'))));
    afterEach(async () => {
      if (started?.child.exitCode === null) started.child.kill('SIGKILL');
      await started?.exit;
      started = undefined;
      await rm(home, { recursive: true, force: true });
    });

    it(
      "becomes the gateway's entry point in the same process, tuned once, and says when it is ready",
      { timeout: 60_000 },
      async () => {
        const port = await freePort();
        started = hearthStart(home, ['--port', String(port)]);
        const url = `http://127.0.0.1:${port}`;
        await until(() => started!.stdout().includes('Hearth is ready'), 'the ready line');
        expect(started.stdout()).toBe(`Hearth is ready at ${url}\n`);

        const pid = started.child.pid!;
        const argv = await commandLine(pid);
        expect(argv.slice(-5)).toEqual([
          '--config',
          join(home, 'config.toml'),
          '--announce',
          '--port',
          String(port),
        ]);
        expect(argv.some((arg) => /gateway[/\\]src[/\\]main\.ts$/.test(arg))).toBe(true);
        expect(argv.some((arg) => arg.endsWith('cli-ink/src/main.ts'))).toBe(false);
        // The runtime file names this very process; the tuning reached /status.
        const runtime = JSON.parse(await readFile(join(home, 'gateway.runtime.json'), 'utf8')) as {
          pid: number;
        };
        expect(runtime.pid).toBe(pid);
        const status = (await (await fetch(`${url}/api/v1/status`)).json()) as {
          backends: { heap: string };
        };
        expect(status.backends.heap).toContain('young generation 8 MB semi-spaces');
        // Started tuned, by the one execve: the marker main.ts reads was in its first environment.
        const environ = await readFile(`/proc/${pid}/environ`, 'utf8');
        expect(environ).toContain('HEARTH_RUNTIME_TUNED=');

        started.child.kill('SIGTERM');
        expect(await started.exit).toBe(0);
        expect(started.stderr()).toBe('');
      },
    );

    it(
      'a start-up failure: exit 1 and the reason on stderr, as the CLI said it',
      { timeout: 60_000 },
      async () => {
        const configPath = join(home, 'config.toml');
        // The database path's parent is a file: the database phase cannot create it.
        await writeFile(configPath, `[memory]\ndb_path = "${configPath}/memory.db"\n`);
        started = hearthStart(home, ['--port', String(await freePort())]);
        expect(await started.exit).toBe(1);
        expect(started.stderr()).toMatch(
          /^hearth: start-up failed: database: Cannot open the SQLite database/m,
        );
        expect(started.stdout()).not.toContain('Hearth is ready');
      },
    );

    it(
      '--voice-mode keeps the gateway in the CLI process (host audio is the command’s own)',
      { timeout: 60_000 },
      async () => {
        const port = await freePort();
        started = hearthStart(home, ['--port', String(port), '--voice-mode', 'ptt']);
        await until(() => /voice mode ptt|push-to-talk/.test(started!.stdout()), 'the voice line');
        expect(started.stdout()).toMatch(/^Hearth is ready at http:\/\/127\.0\.0\.1:\d+\n/);
        const argv = await commandLine(started.child.pid!);
        expect(argv.some((arg) => arg.endsWith('cli-ink/src/main.ts'))).toBe(true);
      },
    );
  },
);
