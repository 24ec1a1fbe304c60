/**
 * `node gateway/src/main.ts` as its own process: the port is bound and /health answers while
 * the gateway's modules still load (answers from the early listener carry `Connection: close`,
 * the gateway's own server keeps connections alive), the gateway then takes the socket over with
 * no connection refused or reset, and every way the early start can fail leaves the error to the
 * gateway, reported exactly as before.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { EARLY_STARTING_DETAIL } from './lifecycle/early-listener.ts';
import { runtimeFilePath } from './lifecycle/runtime-file.ts';
import { VERSION } from './version.ts';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const TIMEOUT_MS = 60_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

interface Gateway {
  child: ChildProcess;
  home: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

const started: Gateway[] = [];
afterEach(async () => {
  for (const gateway of started.splice(0)) {
    if (gateway.child.exitCode === null && gateway.child.signalCode === null)
      gateway.child.kill('SIGKILL');
    await gateway.exited;
    await rm(gateway.home, { recursive: true, force: true });
  }
});

async function startGateway(configToml: string | undefined, args: string[] = []): Promise<Gateway> {
  const home = await mkdtemp(join(tmpdir(), 'hearth-main-early-'));
  if (configToml !== undefined) await writeFile(join(home, 'config.toml'), configToml);
  const env: NodeJS.ProcessEnv = { ...process.env, HEARTH_HOME: home, HEARTH_LOG_LEVEL: 'warn' };
  delete env.HEARTH_CONFIG;
  const child = spawn(process.execPath, [MAIN, ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const gateway = { child, home, stderr: () => stderr, exited };
  started.push(gateway);
  return gateway;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A GET asking for keep-alive (through `agent`, else on a connection of its own, closed after):
 * the gateway's server keeps the connection, the early listener answers `Connection: close`.
 */
function get(port: number, path: string, agent?: Agent): Promise<Answer> {
  const own = agent ?? new Agent({ keepAlive: true, maxSockets: 1 });
  return new Promise<Answer>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: own }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  }).finally(() => {
    if (agent === undefined) own.destroy();
  });
}

const fromEarlyListener = (answer: Answer) => answer.headers.connection === 'close';
const fromGateway = (answer: Answer) => answer.headers.connection === 'keep-alive';
const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);

/** Polls `port` on new connections until it is refused no more. */
async function firstAnswer(gateway: Gateway, port: number, path: string): Promise<Answer> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    try {
      return await get(port, path);
    } catch (error) {
      if (errorCode(error) !== 'ECONNREFUSED') throw error;
    }
    if (gateway.child.exitCode !== null) throw new Error(`exited: ${gateway.stderr()}`);
    if (Date.now() > deadline) throw new Error('never answered');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('the gateway process binds its port before the gateway loads', () => {
  it(
    'answers /health 200 while /ready is 503, then hands over with no connection refused or reset',
    async () => {
      const port = await freePort();
      const gateway = await startGateway(`[gateway]\nport = ${port}\n`);
      const health = await firstAnswer(gateway, port, '/health');
      // The first answer: the early listener's, with the gateway's /health body.
      expect(health.status).toBe(200);
      expect(fromEarlyListener(health)).toBe(true);
      expect(JSON.parse(health.body)).toEqual({ status: 'ok', version: VERSION, agent: 'hearth' });
      // Whoever sees /health answer finds the runtime file.
      const record = JSON.parse(await readFile(runtimeFilePath(gateway.home), 'utf8')) as Record<
        string,
        unknown
      >;
      expect(record).toMatchObject({
        pid: gateway.child.pid,
        port,
        host: '127.0.0.1',
        url: `http://127.0.0.1:${port}`,
      });

      // From now until /ready is 200, on new connections: no failure of any kind.
      const failures: string[] = [];
      const early: Record<string, Answer[]> = {};
      const real: Record<string, Answer[]> = {};
      let ready = false;
      const loop = async (path: string) => {
        // Keep-alive, as a browser or probe would: connections the early listener closes are
        // replaced, those of the gateway's server kept.
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        while (!ready) {
          try {
            const answer = await get(port, path, agent);
            (fromEarlyListener(answer) ? early : real)[path] ??= [];
            (fromEarlyListener(answer) ? early : real)[path]!.push(answer);
            if (path === '/ready' && answer.status === 200) ready = true;
          } catch (error) {
            failures.push(`${path}: ${errorCode(error)}`);
          }
          if (gateway.child.exitCode !== null) throw new Error(`exited: ${gateway.stderr()}`);
        }
        agent.destroy();
      };
      await Promise.all([loop('/health'), loop('/ready'), loop('/api/v1/status'), loop('/health')]);
      expect(failures).toEqual([]);

      // While it loaded: /ready 503 with the readiness object, anything else 503 + Retry-After.
      expect(early['/ready']?.length).toBeGreaterThan(0);
      for (const answer of early['/ready'] ?? []) {
        expect(answer.status).toBe(503);
        expect(JSON.parse(answer.body)).toEqual({
          ready: false,
          checks: { phase: false, runtime: false },
        });
      }
      for (const answer of early['/api/v1/status'] ?? []) {
        expect(answer.status).toBe(503);
        expect(answer.headers['retry-after']).toBe('1');
        expect(JSON.parse(answer.body)).toEqual({ detail: EARLY_STARTING_DETAIL });
      }
      for (const answer of early['/health'] ?? []) expect(answer.body).toBe(health.body);
      // Then the gateway's own server, with the same /health body.
      expect(real['/health']?.length).toBeGreaterThan(0);
      for (const answer of Object.values(real).flat()) expect(fromGateway(answer)).toBe(true);
      for (const answer of real['/health'] ?? []) {
        expect(answer.status).toBe(200);
        expect(JSON.parse(answer.body)).toEqual(JSON.parse(health.body));
      }
      // The runtime file still names this gateway, unchanged, after the handover.
      expect(JSON.parse(await readFile(runtimeFilePath(gateway.home), 'utf8'))).toEqual(record);

      gateway.child.kill('SIGTERM');
      expect(await gateway.exited).toBe(0);
      await expect(access(runtimeFilePath(gateway.home))).rejects.toThrow(/ENOENT/);
    },
    TIMEOUT_MS,
  );

  it(
    'stopped while it loads (SIGTERM once /health answers): exits 0 and leaves no runtime file',
    async () => {
      const port = await freePort();
      const gateway = await startGateway(`[gateway]\nport = ${port}\n`);
      const health = await firstAnswer(gateway, port, '/health');
      expect(fromEarlyListener(health)).toBe(true);
      await access(runtimeFilePath(gateway.home));
      gateway.child.kill('SIGTERM');
      expect(await gateway.exited).toBe(0);
      await expect(access(runtimeFilePath(gateway.home))).rejects.toThrow(/ENOENT/);
      await expect(get(port, '/health')).rejects.toThrow(/ECONNREFUSED/);
    },
    TIMEOUT_MS,
  );

  it(
    '--port and --bind win over [gateway] port',
    async () => {
      const [configPort, flagPort] = [await freePort(), await freePort()];
      const gateway = await startGateway(`[gateway]\nport = ${configPort}\n`, [
        '--port',
        String(flagPort),
        '--bind',
        '127.0.0.1',
      ]);
      const health = await firstAnswer(gateway, flagPort, '/health');
      expect(health.status).toBe(200);
      expect(fromEarlyListener(health)).toBe(true);
      await expect(get(configPort, '/health')).rejects.toThrow(/ECONNREFUSED/);
    },
    TIMEOUT_MS,
  );

  it(
    'a config the early reader accepts but the gateway rejects: exits 1 with the loader’s message, runtime file removed',
    async () => {
      const port = await freePort();
      const gateway = await startGateway(`[gateway]\nport = ${port}\nno_such_key = 1\n`);
      const health = await firstAnswer(gateway, port, '/health');
      expect(fromEarlyListener(health)).toBe(true);
      expect(await gateway.exited).toBe(1);
      expect(gateway.stderr()).toMatch(/^hearth: .*no_such_key/m);
      await expect(access(runtimeFilePath(gateway.home))).rejects.toThrow(/ENOENT/);
      await expect(get(port, '/health')).rejects.toThrow(/ECONNREFUSED/);
    },
    TIMEOUT_MS,
  );

  it(
    'a config that is no TOML: nothing is bound early, the error is reported as always',
    async () => {
      const port = await freePort();
      const gateway = await startGateway('[gateway\nport = 1\n', ['--port', String(port)]);
      const refused: string[] = [];
      while (gateway.child.exitCode === null) {
        refused.push(await get(port, '/health').then((a) => `answered ${a.status}`, errorCode));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(await gateway.exited).toBe(1);
      expect(new Set(refused)).toEqual(new Set(['ECONNREFUSED']));
      expect(gateway.stderr()).toMatch(/^hearth: .*config\.toml/m);
      await expect(access(runtimeFilePath(gateway.home))).rejects.toThrow(/ENOENT/);
    },
    TIMEOUT_MS,
  );

  it(
    'a port in use: the same message and exit code as a gateway that binds it itself',
    async () => {
      const busy = createServer();
      await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
      const { port } = busy.address() as { port: number };
      try {
        const gateway = await startGateway(`[gateway]\nport = ${port}\n`);
        expect(await gateway.exited).toBe(1);
        expect(gateway.stderr()).toBe(
          `hearth: listen EADDRINUSE: address already in use 127.0.0.1:${port}\n`,
        );
        await expect(access(runtimeFilePath(gateway.home))).rejects.toThrow(/ENOENT/);
      } finally {
        busy.close();
      }
    },
    TIMEOUT_MS,
  );
});
