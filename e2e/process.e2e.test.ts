/**
 * The real gateway as a user runs it: `node gateway/src/main.ts` in its own process, on a
 * temporary state directory and a free port, probed over HTTP only, stopped with SIGTERM.
 * Needs nothing but Node, so it always runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GatewayStatus, paths } from '@hearth/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type ReadyBody = paths['/ready']['get']['responses'][200]['content']['application/json'];

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const STARTUP_TIMEOUT_MS = 30_000;
const EXIT_TIMEOUT_MS = 5_000;

type StatusBody = GatewayStatus;

let child: ChildProcess | undefined;
let home = '';
let baseUrl = '';
let output = '';
let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port assigned');
  return address.port;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls /ready until 200; fails early with the process output if it exits. */
async function waitUntilReady(): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`gateway exited during start-up (code ${child?.exitCode}):\n${output}`);
    }
    try {
      const response = await fetch(`${baseUrl}/ready`, { signal: AbortSignal.timeout(2_000) });
      last = `${response.status} ${await response.text()}`;
      if (response.status === 200) return;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await sleep(100);
  }
  throw new Error(`gateway not ready after ${STARTUP_TIMEOUT_MS} ms (last: ${last}):\n${output}`);
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'hearth-e2e-process-'));
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HEARTH_HOME: join(home, 'state'),
    HEARTH_AUDIT_DB_PATH: join(home, 'state', 'privacy_audit.db'),
    HEARTH_LOG_LEVEL: 'info',
  };
  // A developer's own settings must not leak into the run.
  delete env.HEARTH_CONFIG;
  delete env.NODE_COMPILE_CACHE;
  delete env.HEARTH_COMPILE_CACHE;
  // A cache folder left readable by others: the gateway tightens it to 0700.
  await mkdir(join(home, 'state', 'cache'), { recursive: true, mode: 0o755 });
  child = spawn(process.execPath, ['gateway/src/main.ts', '--port', String(port)], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  exited = new Promise((resolve) => {
    child!.once('exit', (code, signal) => resolve({ code, signal }));
  });
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  await waitUntilReady();
}, STARTUP_TIMEOUT_MS + 5_000);

afterAll(async () => {
  // Whatever happened above: no gateway outlives the suite.
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited;
  }
  if (home !== '') await rm(home, { recursive: true, force: true });
});

describe('gateway process', () => {
  it('reports ready on /ready once start-up is done', async () => {
    const response = await fetch(`${baseUrl}/ready`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as ReadyBody;
    expect(body.ready).toBe(true);
    expect(body.checks).toMatchObject({ phase: true, runtime: true });
  });

  it('answers /health with status, version and agent', async () => {
    const manifest = JSON.parse(
      await readFile(join(repoRoot, 'gateway', 'package.json'), 'utf8'),
    ) as { version: string };
    const response = await fetch(`${baseUrl}/health`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 'ok', version: manifest.version });
    expect(typeof body.agent).toBe('string');
  });

  it('reports the gateway status on /api/v1/status', async () => {
    const response = await fetch(`${baseUrl}/api/v1/status`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as StatusBody;
    expect(body.status).toBe('ok');
    expect(typeof body.version).toBe('string');
    expect(typeof body.uptime_seconds).toBe('number');
    expect(Number.isInteger(body.active_sessions)).toBe(true);
    expect(body.runtime_available).toBe(true);
    expect(body.init_phase).toBe('ready');
    for (const key of ['stt_available', 'tts_available', 'wake_word_active'] as const) {
      expect(typeof body.voice[key]).toBe('boolean');
    }
    for (const key of [
      'cpu_percent',
      'memory_rss_bytes',
      'disk_usage_percent',
      'disk_free_bytes',
    ] as const) {
      expect(key in body.host).toBe(true);
      // null when unreadable, never a made-up 0 for memory
      expect(body.host[key] === null || typeof body.host[key] === 'number').toBe(true);
    }
    const rss = body.host.memory_rss_bytes;
    expect(rss === null || (typeof rss === 'number' && rss > 0)).toBe(true);
    expect([null, true, false]).toContain(body.memory.semantic_available);
    // The memory set-up main.ts re-executed itself with (config/runtime-tuning.ts).
    expect(body.backends.allocator).toMatch(/^(jemalloc|glibc|system)/);
    expect(body.backends.heap).toMatch(/semi-space|Node defaults/);
  });

  it.runIf(process.platform === 'linux')(
    'keeps the pid it was spawned with after re-executing itself',
    async () => {
      const cmdline = (await readFile(`/proc/${child!.pid}/cmdline`, 'utf8')).split('\0');
      expect(cmdline.some((arg) => arg.endsWith('gateway/src/main.ts'))).toBe(true);
      const status = (await (await fetch(`${baseUrl}/api/v1/status`)).json()) as StatusBody;
      if (status.backends.heap?.includes('semi-spaces'))
        expect(cmdline).toContain('--max-semi-space-size=8');
    },
  );

  it('keeps its compiled code in the state directory, 0700, written once it is ready', async () => {
    const cache = join(home, 'state', 'cache', 'compile');
    const status = (await (await fetch(`${baseUrl}/api/v1/status`)).json()) as StatusBody;
    expect(status.backends.compile_cache).toBe(cache);
    expect((await stat(join(home, 'state', 'cache'))).mode & 0o777).toBe(0o700);
    expect((await stat(cache)).mode & 0o777).toBe(0o700);
    // One folder per Node version, holding an entry per compiled module.
    const [version, ...others] = await readdir(cache);
    expect(others).toEqual([]);
    expect((await readdir(join(cache, version!))).length).toBeGreaterThan(100);
  });

  it('serves Prometheus text on /api/v1/metrics', async () => {
    const response = await fetch(`${baseUrl}/api/v1/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    for (const name of ['messages_total', 'generation_requests_total', 'tokens_total']) {
      expect(text).toContain(`# TYPE ${name} counter`);
    }
    expect(text).toMatch(/^process_memory_rss_bytes \d+(\.\d+)?$/m);
    // Every sample line is `name{labels} value` in the exposition format.
    const samples = text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
    expect(samples.length).toBeGreaterThan(0);
    for (const line of samples) {
      expect(line).toMatch(
        /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? (-?[0-9.]+(e[+-]?\d+)?|NaN|[+-]Inf)$/,
      );
    }
  });

  // Last: it stops the process the tests above use.
  it('exits 0 within 5 s of SIGTERM', async () => {
    const started = Date.now();
    child!.kill('SIGTERM');
    const result = await Promise.race([
      exited,
      sleep(EXIT_TIMEOUT_MS).then(() => 'timeout' as const),
    ]);
    expect(result, `no exit within ${EXIT_TIMEOUT_MS} ms of SIGTERM:\n${output}`).not.toBe(
      'timeout',
    );
    expect(result, output).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(EXIT_TIMEOUT_MS);
  });
});
