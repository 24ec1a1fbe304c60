/**
 * Exec overhead (node bench/exec.bench.ts): `true` run 200 times (after 20 warm-up runs)
 *   - by a bare spawn of `/bin/sh -c true` (the floor: fork + exec of the shell),
 *   - through the local executor (process group, output capture, timers),
 *   - through the sandbox-executor sidecar with its process backend, started as its own
 *     process (`node sidecars/sandbox-executor/src/main.ts`), over HTTP on loopback,
 *   - and, when BENCH_DOCKER_IMAGE names a local image and a Docker engine answers, through
 *     the sidecar's Docker backend (a throwaway container per call; BENCH_DOCKER_RUNS, 50).
 * Prints p50/p95 per path and writes bench/results/exec.json.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../gateway/src/observability/logger.ts';
import { createLocalExecutor } from '../gateway/src/tools/executors/local/local-executor.ts';
import type { Executor } from '../gateway/src/tools/executors/ports.ts';
import { createSidecarExecutor } from '../gateway/src/tools/executors/sidecar/sidecar-executor.ts';
import { freePort, percentile } from './process.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARM_UP = 20;
const DOCKER_IMAGE = process.env.BENCH_DOCKER_IMAGE ?? '';
const DOCKER_RUNS = Number(process.env.BENCH_DOCKER_RUNS ?? 50);
const env = { PATH: '/usr/local/bin:/usr/bin:/bin' };

async function time(runs: number, run: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < Math.min(WARM_UP, runs); i += 1) await run();
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b);
}

const bareSpawn = () =>
  new Promise<void>((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', 'true'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.once('error', reject);
    child.once('close', () => resolve());
  });

async function viaExecutor(executor: Executor): Promise<void> {
  const result = await executor.run({ command: 'true', timeoutSeconds: 30, env });
  if (result.exitCode !== 0) throw new Error(`true exited ${result.exitCode}: ${result.stderr}`);
}

/** The sidecar as its own process; resolves once /health answers. */
async function startSidecar(backend: 'process' | 'docker', extra: Record<string, string> = {}) {
  const port = await freePort();
  const token = randomBytes(24).toString('hex');
  const child = spawn(process.execPath, ['sidecars/sandbox-executor/src/main.ts'], {
    env: {
      PATH: process.env.PATH ?? env.PATH,
      SANDBOX_TOKEN: token,
      SANDBOX_PORT: String(port),
      SANDBOX_BACKEND: backend,
      SANDBOX_LOG_LEVEL: 'warn',
      ...extra,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the sidecar exited with ${child.exitCode}`);
    const up = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error('the sidecar did not answer within 20 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    url,
    token,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const figures: Record<string, { runs: number; p50_ms: number; p95_ms: number }> = {};
const record = (name: string, samples: number[]) => {
  figures[name] = {
    runs: samples.length,
    p50_ms: Number(percentile(samples, 50).toFixed(3)),
    p95_ms: Number(percentile(samples, 95).toFixed(3)),
  };
};

record('bare spawn /bin/sh -c true', await time(RUNS, bareSpawn));

const workdir = await mkdtemp(join(tmpdir(), 'hearth-exec-bench-'));
const local = createLocalExecutor({ defaultWorkdir: workdir, logger: silentLogger() });
record('local executor', await time(RUNS, () => viaExecutor(local)));
await local.close();

const processSidecar = await startSidecar('process');
const viaHttp = await createSidecarExecutor({
  url: processSidecar.url,
  token: processSidecar.token,
  fetch,
  logger: silentLogger(),
});
record('sidecar, process backend, HTTP', await time(RUNS, () => viaExecutor(viaHttp)));
await viaHttp.close();
await processSidecar.stop();

if (DOCKER_IMAGE !== '') {
  const dockerSidecar = await startSidecar('docker', { SANDBOX_IMAGE: DOCKER_IMAGE });
  const viaDocker = await createSidecarExecutor({
    url: dockerSidecar.url,
    token: dockerSidecar.token,
    fetch,
    logger: silentLogger(),
  });
  record('sidecar, docker backend, HTTP', await time(DOCKER_RUNS, () => viaExecutor(viaDocker)));
  await viaDocker.close();
  await dockerSidecar.stop();
}
await rm(workdir, { recursive: true, force: true });

const floor = figures['bare spawn /bin/sh -c true']?.p50_ms ?? 0;
for (const [name, { runs, p50_ms: p50, p95_ms: p95 }] of Object.entries(figures)) {
  const added = name.startsWith('bare')
    ? ''
    : `  (+${(p50 - floor).toFixed(3)} ms over bare spawn)`;
  process.stdout.write(
    `${name.padEnd(32)} ${String(runs).padStart(4)} runs  p50 ${p50.toFixed(3)} ms  p95 ${p95.toFixed(3)} ms${added}\n`,
  );
}
await mkdir('bench/results', { recursive: true });
await writeFile('bench/results/exec.json', `${JSON.stringify(figures, null, 2)}\n`);
