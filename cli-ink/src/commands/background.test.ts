/**
 * The real thing: `hearth start --background` / `status` / `stop` as separate processes, the
 * way a user runs them. Every gateway process this suite starts is killed afterwards.
 */
import { execFile } from 'node:child_process';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../process-alive.ts';
import { CLI_SOURCE_PATH, freePort, type CliResult } from '../testing/cli-harness.ts';

const started = new Set<number>();

function hearth(home: string, args: readonly string[]): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, HEARTH_HOME: home };
  delete env.HEARTH_CONFIG;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI_SOURCE_PATH, ...args],
      { env, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

async function pidInFile(home: string): Promise<number> {
  const record = JSON.parse(await readFile(join(home, 'gateway.pid'), 'utf8')) as { pid: number };
  started.add(record.pid);
  return record.pid;
}

function killStarted(): void {
  for (const pid of started) {
    if (isProcessAlive(pid)) process.kill(pid, 'SIGKILL');
    started.delete(pid);
  }
}

describe('hearth start --background, status, stop (real processes)', () => {
  let home: string;
  beforeEach(async () => void (home = await mkdtemp(join(tmpdir(), 'hearth-bg-'))));
  afterEach(async () => {
    killStarted();
    await rm(home, { recursive: true, force: true });
  });
  afterAll(killStarted);

  it(
    'starts detached, reports status, stops, and then says it is not running',
    { timeout: 60_000 },
    async () => {
      const port = await freePort();
      const configPath = join(home, 'config.toml');

      const start = await hearth(home, [
        'start',
        '--background',
        '--port',
        String(port),
        '-c',
        configPath,
      ]);
      const pid = await pidInFile(home).catch(() => undefined);
      expect(start.stderr).toBe('');
      expect(start.code).toBe(0);
      expect(start.stdout).toContain(`Hearth is ready at http://127.0.0.1:${port} (pid ${pid})`);
      expect(isProcessAlive(pid!)).toBe(true);
      expect((await fetch(`http://127.0.0.1:${port}/ready`)).status).toBe(200);

      const again = await hearth(home, [
        'start',
        '--background',
        '--port',
        String(port),
        '-c',
        configPath,
      ]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(`already running (pid ${pid})`);

      // No -c and no port: status finds the gateway through the pid file.
      const status = await hearth(home, ['status', '--json']);
      expect(status.code).toBe(0);
      const body = JSON.parse(status.stdout) as { backends: Record<string, string> };
      expect(body).toMatchObject({ status: 'ok', init_phase: 'ready' });
      // The detached gateway re-executed itself (same pid) with the tuned memory set-up.
      expect(body.backends.allocator).toMatch(/^(jemalloc|glibc|system)/);
      if (process.platform === 'linux')
        expect((await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0')).toContain(
          '--max-semi-space-size=8',
        );

      const stop = await hearth(home, ['stop']);
      expect(stop).toMatchObject({ code: 0, stdout: `Hearth stopped (pid ${pid})\n` });
      expect(isProcessAlive(pid!)).toBe(false);
      await expect(access(join(home, 'gateway.pid'))).rejects.toThrow(/ENOENT/);

      const second = await hearth(home, ['stop']);
      expect(second).toMatchObject({ code: 0, stdout: 'Hearth is not running\n' });

      const log = await readFile(join(home, 'gateway.log'), 'utf8');
      expect(log).toContain('Hearth is ready at');
    },
  );

  it(
    'exits 1 with the end of the log when the gateway fails to start',
    { timeout: 60_000 },
    async () => {
      const port = await freePort();
      const configPath = join(home, 'config.toml');
      await writeFile(configPath, `[memory]\ndb_path = "${configPath}/memory.db"\n`);

      const start = await hearth(home, [
        'start',
        '--background',
        '--port',
        String(port),
        '-c',
        configPath,
      ]);

      expect(start.code).toBe(1);
      expect(start.stderr).toContain('the gateway exited during start-up (exit code 1)');
      expect(start.stderr).toContain('hearth: start-up failed: database:');
      expect(start.stderr).toContain(`Last lines of ${join(home, 'gateway.log')}`);
      await expect(access(join(home, 'gateway.pid'))).rejects.toThrow(/ENOENT/);
    },
  );
});
