import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createFakeLlmServer,
  type FakeLlmServer,
} from '../../../gateway/src/testing/fakes/fake-llm/server.ts';
import { createHarness, freePort, type Harness } from '../testing/cli-harness.ts';

/** The gateway's own entry (what `npm start` runs, from dist/ once built). */
const GATEWAY_MAIN = fileURLToPath(new URL('../../../gateway/src/main.ts', import.meta.url));

interface RuntimeRecord {
  pid: number;
  port: number;
  host: string;
  url: string;
  started_at: string;
  config_path: string;
}

/** Starts the gateway in the foreground as its own process, like `npm start -- --port N`. */
function startForeground(home: string, args: string[]): ChildProcess {
  return spawn(process.execPath, [GATEWAY_MAIN, ...args], {
    env: {
      ...process.env,
      HEARTH_HOME: home,
      HEARTH_RUNTIME_TUNING: 'off',
      HEARTH_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

async function waitFor<T>(
  read: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

/**
 * A gateway started in the foreground on a port the config does not name is found by
 * `hearth status`, `chat` and `stop` through the runtime file it writes in the state directory.
 */
describe('a foreground gateway on another port', () => {
  let h: Harness;
  let fake: FakeLlmServer;
  let child: ChildProcess | undefined;
  let configPort: number;
  beforeEach(async () => {
    h = await createHarness();
    fake = await createFakeLlmServer({ models: ['llama3.2:latest'] });
    configPort = await freePort();
    // The config names one port (nothing listens there); the gateway is started on another.
    await writeFile(
      join(h.home, 'config.toml'),
      `[gateway]\nport = ${configPort}\n[models]\nollama_base_url = "${fake.url}"\n`,
    );
  });
  afterEach(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGKILL');
      await exited(child);
    }
    child = undefined;
    await fake.close();
    await h.cleanup();
  });

  it('writes a runtime file; status, chat and stop find it; a clean exit removes it', async () => {
    const port = await freePort();
    child = startForeground(h.home, ['--port', String(port)]);
    const runtimePath = join(h.home, 'gateway.runtime.json');
    const record = await waitFor(
      async () => JSON.parse(await readFile(runtimePath, 'utf8')) as RuntimeRecord,
    );
    expect(record).toEqual({
      pid: child.pid,
      port,
      host: '127.0.0.1',
      url: `http://127.0.0.1:${port}`,
      started_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      config_path: join(h.home, 'config.toml'),
    });

    const status = await h.run(['status']);
    expect(status.stderr).toBe('');
    expect(status.stdout).toMatch(new RegExp(`^Hearth at http://127\\.0\\.0\\.1:${port}\\n`));
    expect(status.stdout).toContain('model     ready: ollama/llama3.2 on the local runtime');

    // The runtime file is written when the port is bound, before the agent is up (status above
    // answers either way); a message before /ready would be told the agent is starting.
    await waitFor(async () =>
      (await fetch(`http://127.0.0.1:${port}/ready`)).status === 200 ? true : undefined,
    );
    fake.reply({ text: 'Found you on the other port.' });
    const chat = await h.run(['chat', '-m', 'hello', '--session', 'foreground']);
    expect(chat.stderr).toBe('');
    expect(chat.stdout).toContain('Found you on the other port.');

    const stop = await h.run(['stop']);
    expect(stop).toEqual({ code: 0, stdout: `Hearth stopped (pid ${child.pid})\n`, stderr: '' });
    expect(await exited(child)).toBe(0);
    await expect(access(runtimePath)).rejects.toThrow(/ENOENT/);
    expect((await h.run(['stop'])).stdout).toBe('Hearth is not running\n');
  });

  it('has written the runtime file by the time /health first answers', async () => {
    // A script that runs `hearth status` the moment /health answers must find this gateway.
    const port = await freePort();
    child = startForeground(h.home, ['--port', String(port)]);
    const runtimePath = join(h.home, 'gateway.runtime.json');
    await waitFor(
      async () => {
        const health = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
        if (!health?.ok) return undefined;
        return true;
      },
      30_000,
      2,
    );
    const record = JSON.parse(await readFile(runtimePath, 'utf8')) as RuntimeRecord;
    expect(record.port).toBe(port);
    expect((await h.run(['status'])).stdout).toMatch(
      new RegExp(`^Hearth at http://127\\.0\\.0\\.1:${port}\\n`),
    );
  });

  it('treats a runtime file whose process is gone as stale', async () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    const runtimePath = join(h.home, 'gateway.runtime.json');
    const stale = { pid: gone, port: 1, host: '127.0.0.1', url: 'http://127.0.0.1:1' };
    await writeFile(runtimePath, JSON.stringify({ ...stale, started_at: '', config_path: '' }));
    const status = await h.run(['status']);
    expect(status.code).toBe(1);
    // The config's address was tried, not the stale file's.
    expect(status.stderr).toContain(`127.0.0.1:${configPort}`);
    expect(await h.run(['stop'])).toEqual({
      code: 0,
      stdout: 'Hearth is not running\n',
      stderr: '',
    });
    await expect(access(runtimePath)).rejects.toThrow(/ENOENT/);
  });

  it('never says "not running" while a gateway answers at the configured address', async () => {
    // Started with another state directory: no file here names it, but it listens where the
    // config says.
    const elsewhere = await mkdtemp(join(tmpdir(), 'hearth-elsewhere-'));
    try {
      await writeFile(join(elsewhere, 'config.toml'), `[gateway]\nport = ${configPort}\n`);
      child = startForeground(elsewhere, []);
      await waitFor(() => access(join(elsewhere, 'gateway.runtime.json')).then(() => true));
      const stop = await h.run(['stop']);
      expect(stop.code).toBe(1);
      expect(stop.stdout).toBe('');
      expect(stop.stderr).toContain(
        `a Hearth gateway answers at http://127.0.0.1:${configPort}, but no pid file or runtime file`,
      );
      expect(child.exitCode).toBeNull();
    } finally {
      child?.kill('SIGTERM');
      if (child) await exited(child);
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('refuses a forged runtime file: a live pid where no Hearth answers is not signalled', async () => {
    const victim = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    try {
      await writeFile(
        join(h.home, 'gateway.runtime.json'),
        JSON.stringify({
          pid: victim.pid,
          port: configPort,
          host: '127.0.0.1',
          url: `http://127.0.0.1:${configPort}`,
          started_at: '',
          config_path: '',
        }),
      );
      const stop = await h.run(['stop']);
      expect(stop.code).toBe(1);
      expect(stop.stderr).toContain('nothing was stopped');
      expect(victim.exitCode).toBeNull();
      expect(victim.signalCode).toBeNull();
    } finally {
      victim.kill('SIGKILL');
      await exited(victim);
    }
  });
});

describe('hearth chat on a first run', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
    // Nothing listens at the local runtime's address, and no provider key is set.
    await writeFile(
      join(h.home, 'config.toml'),
      `[gateway]\nport = 0\n[models]\nollama_base_url = "http://127.0.0.1:${await freePort()}"\n`,
    );
  });
  afterEach(() => h.cleanup());

  it('says before the first message that no model can answer, and names hearth setup', async () => {
    expect((await h.run(['start'])).code).toBe(0);
    const chat = await h.run(['chat'], {}, ['/exit\n']);
    expect(chat.code).toBe(0);
    expect(chat.stderr).toMatch(/^note: no model can answer yet: .*is not reachable\. /);
    expect(chat.stderr).toContain('`hearth setup`');
    expect(chat.stderr).toContain("the web client's set-up page (/#setup)");
  });
});
