/**
 * The compose stack: builds the gateway image and starts `gateway` + `redis` (and the
 * one-shot `gateway-init` that seeds the config volume) from docker-compose.yml, then talks to
 * the published port like a user would.
 *
 * Runs only where a Docker engine and the compose plugin are reachable; elsewhere the suite is
 * skipped and its title says why. Set HEARTH_E2E_COMPOSE=0 to skip it on purpose.
 *
 * It drives the docker CLI directly because the `testcontainers` package is not a dependency.
 * testcontainers' `DockerComposeEnvironment` (withProjectName, withEnvironment, withBuild,
 * withWaitStrategy('gateway-1', Wait.forHttp('/ready', 7432)), up(['gateway-init', 'redis',
 * 'gateway']), down({ removeVolumes: true })) could replace the helpers below one for one.
 *
 * Isolation: its own compose project name (so `down -v` never touches a real `hearth` stack's
 * volumes), its own image tag (HEARTH_IMAGE), and a free host port (HEARTH_PUBLISH_PORT)
 * instead of 7432, which a developer's own gateway may be using.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const BUILD_AND_START_TIMEOUT_MS = 15 * 60_000; // a cold image build downloads the base image
const READY_TIMEOUT_MS = 120_000;
const DOWN_TIMEOUT_MS = 120_000;

/** Why the suite cannot run here, or null when it can. Checked once, synchronously. */
function composeUnavailableReason(): string | null {
  if (process.env.HEARTH_E2E_COMPOSE === '0') return 'HEARTH_E2E_COMPOSE=0';
  const info = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], {
    encoding: 'utf8',
    timeout: 10_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (info.error && 'code' in info.error && info.error.code === 'ENOENT') {
    return 'docker CLI not installed';
  }
  if (info.error || info.status !== 0) return 'no Docker engine reachable';
  const compose = spawnSync('docker', ['compose', 'version', '--short'], {
    encoding: 'utf8',
    timeout: 10_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (compose.error || compose.status !== 0) return 'docker compose plugin not installed';
  return null;
}

const unavailable = composeUnavailableReason();
const title = unavailable === null ? 'compose stack' : `compose stack (skipped: ${unavailable})`;
// Reporters list skipped suites only in verbose mode: say why once in any case.
if (unavailable !== null) process.stderr.write(`${title}\n`);

interface RunResult {
  code: number | null;
  output: string;
}

/** Runs a command to completion (killed after `timeoutMs`), collecting stdout and stderr. */
function run(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn('docker', args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const timer = setTimeout(() => {
      output += `\n[killed after ${timeoutMs} ms]`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, output: `${output}\n${error.message}` });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

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

describe.skipIf(unavailable !== null)(title, () => {
  const project = `hearth-e2e-${randomBytes(4).toString('hex')}`;
  const apiKey = randomBytes(24).toString('hex');
  let env: NodeJS.ProcessEnv = {};
  let baseUrl = '';
  let started = false;

  const compose = (args: readonly string[], timeoutMs: number) =>
    run(['compose', '-p', project, '-f', 'docker-compose.yml', ...args], env, timeoutMs);

  const logs = async () => (await compose(['logs', '--no-color', '--tail', '200'], 60_000)).output;

  /** Polls `path` on the published port until it answers 200. */
  async function waitFor200(path: string): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    let last = 'no answer';
    while (Date.now() < deadline) {
      try {
        const response = await fetch(`${baseUrl}${path}`, { signal: AbortSignal.timeout(3_000) });
        last = `${response.status} ${await response.text()}`;
        if (response.status === 200) return;
      } catch (error) {
        last = error instanceof Error ? error.message : String(error);
      }
      await sleep(1_000);
    }
    throw new Error(
      `${path} not 200 after ${READY_TIMEOUT_MS} ms (last: ${last})\n${await logs()}`,
    );
  }

  beforeAll(
    async () => {
      const port = await freePort();
      baseUrl = `http://127.0.0.1:${port}`;
      env = {
        ...process.env,
        HEARTH_API_KEY: apiKey,
        HEARTH_PUBLISH_PORT: String(port),
        HEARTH_IMAGE: 'hearth:e2e',
      };
      started = true; // from here on, afterAll cleans up even if `up` fails halfway
      // --no-deps: start exactly these three (redis is the only backing service under test);
      // the gateway's dependencies on qdrant and ollama are dropped for this run, and it falls
      // back to its embedded defaults for them.
      const up = await compose(
        ['up', '-d', '--build', '--no-deps', 'gateway-init', 'redis', 'gateway'],
        BUILD_AND_START_TIMEOUT_MS,
      );
      if (up.code !== 0)
        throw new Error(`docker compose up failed:\n${up.output}\n${await logs()}`);
      await waitFor200('/health');
      await waitFor200('/ready');
    },
    BUILD_AND_START_TIMEOUT_MS + 2 * READY_TIMEOUT_MS,
  );

  afterAll(async () => {
    if (!started) return;
    const down = await compose(['down', '-v', '--remove-orphans'], DOWN_TIMEOUT_MS);
    if (down.code !== 0) {
      process.stderr.write(`docker compose down failed for project ${project}:\n${down.output}\n`);
    }
  }, DOWN_TIMEOUT_MS + 10_000);

  it('answers /health and /ready without a key', async () => {
    const health = await fetch(`${baseUrl}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });
    expect((await fetch(`${baseUrl}/ready`)).status).toBe(200);
  });

  it('refuses /api/v1/status without X-API-Key', async () => {
    const response = await fetch(`${baseUrl}/api/v1/status`);
    expect(response.status).toBe(401);
    const body = (await response.json()) as { detail?: unknown };
    expect(typeof body.detail).toBe('string');
  });

  it('refuses a wrong X-API-Key', async () => {
    const response = await fetch(`${baseUrl}/api/v1/status`, {
      headers: { 'X-API-Key': `${apiKey}-wrong` },
    });
    expect(response.status).toBe(401);
  });

  it('serves /api/v1/status with the key', async () => {
    const response = await fetch(`${baseUrl}/api/v1/status`, { headers: { 'X-API-Key': apiKey } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { status?: unknown; version?: unknown };
    expect(body.status).toBe('ok');
    expect(typeof body.version).toBe('string');
  });
});
