/**
 * Install figures (npm run bench:install): how long `npm install` takes on a clean checkout
 * with an empty npm cache, and how large node_modules is after it. Each checkout is cloned
 * afresh into a temporary folder (its committed HEAD: uncommitted changes are not in it) and
 * `npm ci --cache <new empty folder>` is timed there, prepare step (the build) included: every
 * package is downloaded, nothing comes from a cache. With BENCH_BASELINE_ROOT the baseline is
 * installed the same way, alternating with this checkout, BENCH_INSTALL_RUNS times each (1).
 *
 * Wall time depends on the network and on the machine's load; the CPU time (user + system of
 * npm and everything it ran, from /proc) depends much less on either.
 * Results are written to bench/results/install.json.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const RUNS = Number(process.env.BENCH_INSTALL_RUNS ?? 1);
const ROOT = process.cwd();
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT
  ? resolve(process.env.BENCH_BASELINE_ROOT)
  : undefined;
/** Linux's USER_HZ: /proc times are in 1/100 s. */
const TICKS_PER_S = 100;

interface Install {
  wall_s: number;
  cpu_s: number;
  node_modules_mb: number;
}

/** CPU seconds of this process's waited-for children (cutime + cstime). */
function childrenCpuS(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  // After the ") ": field 3 (state) is index 0, so cutime (16) and cstime (17) are 13 and 14.
  return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_S;
}

/**
 * The environment of a user's shell: `npm run` adds its own variables (npm_config_…, the
 * package's) and node_modules/.bin folders to PATH, which the install must not see.
 */
const SHELL_ENV = Object.fromEntries(
  Object.entries(process.env)
    .filter(([name]) => !name.toLowerCase().startsWith('npm_'))
    .map(([name, value]) => [
      name,
      name === 'PATH'
        ? value
            ?.split(':')
            .filter((folder) => !folder.includes('node_modules'))
            .join(':')
        : value,
    ]),
);

function sh(command: string, args: string[], cwd: string): void {
  const run = spawnSync(command, args, {
    cwd,
    env: SHELL_ENV,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (run.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}: ${run.stderr.toString()}`);
}

/** A fresh clone of `checkout`'s HEAD, installed with an empty cache. */
async function install(checkout: string): Promise<Install> {
  const scratch = await mkdtemp(join(tmpdir(), 'hearth-install-'));
  try {
    const clone = join(scratch, 'checkout');
    const cache = join(scratch, 'npm-cache');
    await mkdir(cache);
    const commit = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: checkout, encoding: 'utf8' });
    sh('git', ['clone', '--quiet', '--no-checkout', checkout, clone], scratch);
    sh('git', ['checkout', '--quiet', '--detach', commit.stdout.trim()], clone);
    const cpuBefore = childrenCpuS();
    const started = performance.now();
    sh('npm', ['ci', '--cache', cache, '--no-audit', '--no-fund'], clone);
    const wall = (performance.now() - started) / 1000;
    const cpu = childrenCpuS() - cpuBefore;
    const du = spawnSync('du', ['-sb', join(clone, 'node_modules')], { encoding: 'utf8' });
    return { wall_s: wall, cpu_s: cpu, node_modules_mb: Number(du.stdout.split('\t')[0]) / 1e6 };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

const checkouts: Record<string, string> = { current: ROOT };
if (BASELINE_ROOT !== undefined) checkouts.baseline = BASELINE_ROOT;
const samples: Record<string, Install[]> = {};
for (let round = 0; round < RUNS; round += 1) {
  for (const [name, checkout] of Object.entries(checkouts)) {
    process.stderr.write(`install ${name} (${checkout}), run ${round + 1}/${RUNS}\n`);
    const sample = await install(checkout);
    process.stderr.write(
      `  ${sample.wall_s.toFixed(1)} s wall, ${sample.cpu_s.toFixed(1)} s CPU, ` +
        `node_modules ${sample.node_modules_mb.toFixed(0)} MB\n`,
    );
    (samples[name] ??= []).push(sample);
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
const results = Object.fromEntries(
  Object.entries(samples).map(([name, runs]) => [
    name,
    {
      wall_s: median(runs.map((run) => run.wall_s)),
      cpu_s: median(runs.map((run) => run.cpu_s)),
      node_modules_mb: median(runs.map((run) => run.node_modules_mb)),
      runs,
    },
  ]),
);
await mkdir(join(ROOT, 'bench/results'), { recursive: true });
await writeFile(
  join(ROOT, 'bench/results/install.json'),
  `${JSON.stringify({ runs: RUNS, results }, null, 2)}\n`,
);
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
