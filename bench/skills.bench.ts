/**
 * Skill host overhead (npm run bench:skills): a tiny skill tool (`add(a, b)`) called
 *   - in-process (the floor: a direct function call, no isolation),
 *   - through the isolated host with the permission model only,
 *   - through the isolated host with bubblewrap + the permission model (when bwrap works here),
 *   - through the sandbox sidecar (`executor = "sandbox"`): its process backend over the
 *     `/skills/host` WebSocket, and its docker backend when an engine and the skill-host image
 *     (hearth-skillhost:local, scripts/build-images.sh) are here,
 * BENCH_RUNS times (500) after 50 warm-up calls: p50/p95 per path (target ≤ 5 ms p50 warm).
 * Also the cold start of a host (start → tool list; BENCH_COLD_RUNS, 10) and the resident
 * memory of a warm host: VmRSS of every process it consists of (bwrap and the child Node),
 * from /proc. Writes bench/results/skills.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { silentLogger } from '../gateway/src/observability/logger.ts';
import { createSkillIsolation } from '../gateway/src/skills/host/isolation.ts';
import { createSidecarSkillIsolation } from '../gateway/src/skills/host/sidecar-isolation.ts';
import {
  createDockerLauncher,
  createProcessBackend,
  createProcessLauncher,
  createSandboxServer,
  Docker,
  silentLogger as silentSidecarLogger,
  type SkillLauncher,
} from '../sidecars/sandbox-executor/src/index.ts';
import type { SkillHostOptions, SkillIsolation } from '../gateway/src/skills/ports.ts';
import { percentile, rssBytes } from './process.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 500);
const WARM_UP = 50;
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 10);

const SKILL = `
/**
 * Adds two numbers.
 * @param {number} a
 * @param {number} b
 */
export function add(a, b) {
  return a + b;
}
`;

const root = await mkdtemp(join(tmpdir(), 'hearth-skills-bench-'));
await mkdir(join(root, 'skills', 'bench'), { recursive: true });
await writeFile(join(root, 'skills', 'bench', 'skill.mjs'), SKILL);
const options: SkillHostOptions = {
  name: 'bench',
  kind: 'mjs',
  dir: join(root, 'skills', 'bench'),
  dataDir: join(root, 'skill-data', 'bench'),
  network: false,
};

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

/** Pids of this process's descendants (the host's bwrap and child Node), from /proc. */
async function descendants(): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (stat) parents.set(Number(entry), ppid);
  }
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const [child, parent] of parents) {
      if (parent === pid) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(process.pid);
  return found;
}

interface Figures {
  runs: number;
  p50_ms: number;
  p95_ms: number;
  cold_start_p50_ms?: number;
  host_rss_mb?: number;
}
const figures: Record<string, Figures> = {};
const summarise = (samples: number[]) => ({
  runs: samples.length,
  p50_ms: Number(percentile(samples, 50).toFixed(3)),
  p95_ms: Number(percentile(samples, 95).toFixed(3)),
});

const inProcess = (await import(pathToFileURL(join(options.dir, 'skill.mjs')).href)) as {
  add: (a: number, b: number) => number;
};
figures['in-process call'] = summarise(
  await time(RUNS, () => Promise.resolve(String(inProcess.add(2, 3)))),
);

async function measure(label: string, isolation: SkillIsolation): Promise<void> {
  const cold: number[] = [];
  for (let i = 0; i < COLD_RUNS; i += 1) {
    const started = performance.now();
    const host = await isolation.start(options);
    cold.push(performance.now() - started);
    await host.close();
  }
  cold.sort((a, b) => a - b);
  const host = await isolation.start(options);
  const samples = await time(RUNS, async () => {
    if ((await host.call('add', { a: 2, b: 3 })) !== '5') throw new Error('wrong answer');
  });
  let rss = 0;
  for (const pid of await descendants()) rss += await rssBytes(pid).catch(() => 0);
  await host.close();
  figures[label] = {
    ...summarise(samples),
    cold_start_p50_ms: Number(percentile(cold, 50).toFixed(1)),
    // A container's processes are the engine's, not this process's descendants.
    ...(rss > 0 ? { host_rss_mb: Number((rss / 1024 / 1024).toFixed(1)) } : {}),
  };
}

const logger = silentLogger();
await measure(
  'host: permission',
  createSkillIsolation({ executor: 'local', logger, bwrapPath: null }),
);
const withBwrap = createSkillIsolation({ executor: 'local', logger });
if (withBwrap.description === 'bubblewrap+permission') {
  await measure('host: bubblewrap+permission', withBwrap);
} else {
  process.stdout.write(
    'bubblewrap is not available here: only the permission-model host is measured\n',
  );
}

/** A sandbox sidecar in this process with `launcher`; its skill hosts are its descendants too. */
async function measureSidecar(
  label: string,
  launcher: SkillLauncher & { close?: () => Promise<void> },
): Promise<void> {
  const token = 'bench-sidecar-token-0123456789abcdef';
  const server = createSandboxServer({
    backend: createProcessBackend({ defaultWorkdir: root, logger: silentSidecarLogger() }),
    token,
    logger: silentSidecarLogger(),
    skills: { launcher },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    await measure(
      label,
      createSidecarSkillIsolation({
        url: `http://127.0.0.1:${port}`,
        token: () => token,
        logger,
        limits: { startTimeoutMs: 60_000 },
      }),
    );
  } finally {
    server.closeAllConnections();
    await launcher.close?.();
    await new Promise((resolve) => server.close(resolve));
  }
}

await measureSidecar(
  'sidecar: process',
  createProcessLauncher({ root: join(root, 'sidecar'), logger: silentSidecarLogger() }),
);
const SKILL_IMAGE = 'hearth-skillhost:local';
let dockerReady = false;
try {
  execFileSync('docker', ['image', 'inspect', SKILL_IMAGE], { stdio: 'ignore', timeout: 20_000 });
  dockerReady = true;
} catch {
  process.stdout.write(
    `no Docker engine or no ${SKILL_IMAGE}: the container host is not measured\n`,
  );
}
if (dockerReady) {
  await measureSidecar(
    'sidecar: container',
    createDockerLauncher({
      docker: new Docker(),
      image: SKILL_IMAGE,
      logger: silentSidecarLogger(),
    }),
  );
}
await rm(root, { recursive: true, force: true });

const floor = figures['in-process call']?.p50_ms ?? 0;
for (const [name, figure] of Object.entries(figures)) {
  const extra =
    figure.cold_start_p50_ms === undefined
      ? ''
      : `  (+${(figure.p50_ms - floor).toFixed(3)} ms over in-process)  cold start p50 ${figure.cold_start_p50_ms} ms  RSS ${figure.host_rss_mb === undefined ? 'n/a (in the engine)' : `${figure.host_rss_mb} MB`}`;
  process.stdout.write(
    `${name.padEnd(30)} ${String(figure.runs).padStart(4)} runs  p50 ${figure.p50_ms.toFixed(3)} ms  p95 ${figure.p95_ms.toFixed(3)} ms${extra}\n`,
  );
}
await mkdir('bench/results', { recursive: true });
await writeFile('bench/results/skills.json', `${JSON.stringify(figures, null, 2)}\n`);
