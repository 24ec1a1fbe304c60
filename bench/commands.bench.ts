/**
 * Command figures (npm run bench:commands): how long what a user types takes, each run a new
 * process, as the README tells them to type it.
 *
 * - `./hearth status` with no gateway answering, and against a running gateway (target
 *   ≤ 300 ms on a quiet machine); `./hearth --help`; `./hearth stop` with nothing running.
 * - `npx hearth status` and `npx hearth --help` (what the README said before `./hearth`).
 * - `npm start` → first /health 200, with dist/ up to date (a second start: no build).
 *
 * All run with the shell's PATH (npm's additions for scripts taken off). Each is run BENCH_RUNS times (7; `npm start` BENCH_START_RUNS, 3); median, min and max wall
 * time are printed, and the median CPU time (user + system) of the process and everything it
 * started, which a busy machine changes much less than wall time (Linux; from /proc).
 * BENCH_BASELINE_ROOT names another checkout (e.g. the commit before, unpacked with
 * `git archive`, its node_modules in place and `npm run build` done): the same cases are timed
 * there too, side by side; a case its checkout lacks (`./hearth`) is shown as absent. There
 * `npm start` is whatever that checkout's script does (before the stamp, a full build).
 * Results are written to bench/results/commands.json.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, percentile, startGatewayProcess } from './process.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const START_RUNS = Number(process.env.BENCH_START_RUNS ?? 3);
const ROOT = process.cwd();
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT
  ? resolve(process.env.BENCH_BASELINE_ROOT)
  : undefined;
/** Linux's USER_HZ: /proc times are in 1/100 s. */
const TICKS_PER_S = 100;

interface Sample {
  wallMs: number;
  cpuMs: number | undefined;
}

interface Case {
  name: string;
  /** The file the case needs in the checkout (absent: the case is skipped there). */
  needs?: string;
  run: (root: string) => Promise<Sample>;
}

/** CPU time of this process's waited-for descendants (cutime + cstime), or undefined. */
function childrenCpuMs(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of proc(5); this slice starts at field 3.
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_S;
  } catch {
    return undefined;
  }
}

/** Runs `command args` in `root` to its end; fails when its exit code is not `expectCode`. */
function timeCommand(
  root: string,
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  expectCode: number,
): Promise<Sample> {
  return new Promise((resolvePromise, reject) => {
    const cpuBefore = childrenCpuMs();
    const started = performance.now();
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => {
      const wallMs = performance.now() - started;
      const cpuAfter = childrenCpuMs();
      if (code !== expectCode) {
        reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr.trim()}`));
        return;
      }
      const cpuMs =
        cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
      resolvePromise({ wallMs, cpuMs });
    });
  });
}

/** `npm start` in `root` on a fresh state directory: spawn → first /health 200; then stopped. */
async function timeNpmStart(root: string): Promise<Sample> {
  const home = await mkdtemp(join(tmpdir(), 'hearth-bench-start-'));
  const port = await freePort();
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent', '--', '--port', String(port)], {
    cwd: root,
    env: { ...process.env, PATH: userPath, HEARTH_HOME: home, HEARTH_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
    // Its own process group, so that npm, the shell and the gateway are stopped together.
    detached: true,
  });
  const exited = new Promise<void>((resolvePromise) => child.once('exit', () => resolvePromise()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}/health`)).status === 200) break;
      } catch {
        // not listening yet
      }
      await new Promise((resolvePromise) => setTimeout(resolvePromise, 10));
      if (performance.now() - started > 120_000) throw new Error('no /health after 120 s');
    }
    return { wallMs: performance.now() - started, cpuMs: undefined };
  } finally {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    await exited;
    // npm may exit before the gateway it started has finished with its state directory.
    if (child.pid !== undefined) await groupGone(child.pid);
    await rm(home, { recursive: true, force: true, maxRetries: 5 });
  }
}

/** Resolves once no process of the group is left (at most 10 s). */
async function groupGone(groupId: number): Promise<void> {
  for (const deadline = performance.now() + 10_000; performance.now() < deadline;) {
    try {
      process.kill(-groupId, 0);
    } catch {
      return;
    }
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 20));
  }
}

// ── Set-up: a gateway to ask, a config that points at it, one that points at nothing ─────────

const scratch = await mkdtemp(join(tmpdir(), 'hearth-bench-commands-'));
const home = join(scratch, 'home');
await mkdir(home, { recursive: true });
// An up-to-date dist/ here first, so that `./hearth` and `npm start` are timed without a build.
spawnSync(process.execPath, ['scripts/build.ts', '--if-changed'], { stdio: 'inherit' });
const gateway = await startGatewayProcess(join(ROOT, 'dist/gateway/src/main.js'));
const runningConfig = join(scratch, 'running.toml');
await writeFile(runningConfig, `[gateway]\nport = ${new URL(gateway.url).port}\n`);
const idleConfig = join(scratch, 'idle.toml');
await writeFile(idleConfig, `[gateway]\nport = ${await freePort()}\n`);
// The shell's PATH, as a user types these: without the folders npm puts first for a script
// (node_modules/.bin, with the project's Node 24), so `npx` and `npm` run on the machine's node.
const userPath = (process.env.PATH ?? '')
  .split(':')
  .filter((dir) => !dir.includes('/node_modules/.bin') && !dir.includes('node-gyp-bin'))
  .join(':');
const env = { HEARTH_HOME: home, PATH: userPath };

const CASES: Case[] = [
  {
    name: './hearth status (no gateway)',
    needs: 'hearth',
    run: (root) => timeCommand(root, './hearth', ['-c', idleConfig, 'status'], env, 1),
  },
  {
    name: './hearth status (gateway running)',
    needs: 'hearth',
    run: (root) => timeCommand(root, './hearth', ['-c', runningConfig, 'status'], env, 0),
  },
  {
    name: './hearth --help',
    needs: 'hearth',
    run: (root) => timeCommand(root, './hearth', ['--help'], env, 0),
  },
  {
    name: './hearth stop (nothing running)',
    needs: 'hearth',
    run: (root) => timeCommand(root, './hearth', ['stop'], env, 0),
  },
  {
    name: 'npx hearth status (gateway running)',
    run: (root) => timeCommand(root, 'npx', ['hearth', '-c', runningConfig, 'status'], env, 0),
  },
  {
    name: 'npx hearth --help',
    run: (root) => timeCommand(root, 'npx', ['hearth', '--help'], env, 0),
  },
  {
    name: 'npm start → /health (second start)',
    run: timeNpmStart,
  },
];

// ── Runs ────────────────────────────────────────────────────────────────────────────────────

interface Figures {
  runs: number;
  median_ms: number;
  min_ms: number;
  max_ms: number;
  cpu_median_ms: number | null;
}

const median = (values: readonly number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

async function measure(root: string, entry: Case): Promise<Figures | null> {
  if (entry.needs !== undefined && !existsSync(join(root, entry.needs))) return null;
  const runs = entry.run === timeNpmStart ? START_RUNS : RUNS;
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i += 1) samples.push(await entry.run(root));
  const walls = samples.map((sample) => sample.wallMs);
  const cpus = samples.flatMap((sample) => (sample.cpuMs === undefined ? [] : [sample.cpuMs]));
  return {
    runs,
    median_ms: Math.round(median(walls)),
    min_ms: Math.round(Math.min(...walls)),
    max_ms: Math.round(Math.max(...walls)),
    cpu_median_ms: cpus.length === 0 ? null : Math.round(median(cpus)),
  };
}

const results: Record<string, { current: Figures | null; baseline?: Figures | null }> = {};
try {
  for (const entry of CASES) {
    results[entry.name] = { current: await measure(ROOT, entry) };
    if (BASELINE_ROOT !== undefined) {
      results[entry.name]!.baseline = await measure(BASELINE_ROOT, entry);
    }
  }
} finally {
  await gateway.stop();
  await rm(scratch, { recursive: true, force: true });
}

// ── Report ──────────────────────────────────────────────────────────────────────────────────

const cell = (figures: Figures | null | undefined): string =>
  figures === null || figures === undefined
    ? 'absent'
    : `${figures.median_ms} (${figures.min_ms}–${figures.max_ms})` +
      (figures.cpu_median_ms === null ? '' : `, CPU ${figures.cpu_median_ms}`);
const header = ['case', 'ms median (min–max), CPU ms median'];
if (BASELINE_ROOT !== undefined) header.push('baseline');
const rows = Object.entries(results).map(([name, figures]) => {
  const row = [name, cell(figures.current)];
  if (BASELINE_ROOT !== undefined) row.push(cell(figures.baseline));
  return row;
});
const widths = header.map((title, c) => Math.max(title.length, ...rows.map((r) => r[c]!.length)));
const line = (cells: readonly string[]) =>
  cells
    .map((text, c) => text.padEnd(widths[c] ?? 0))
    .join('  ')
    .trimEnd();
const out = process.stdout;
out.write(
  `commands bench: ${RUNS} runs each (npm start ${START_RUNS}); target ./hearth status ≤ 300 ms ` +
    `on a quiet machine\n` +
    (BASELINE_ROOT === undefined ? '' : `baseline: ${BASELINE_ROOT}\n`) +
    '\n',
);
out.write(`${line(header)}\n`);
for (const row of rows) out.write(`${line(row)}\n`);
await mkdir('bench/results', { recursive: true });
await writeFile(
  'bench/results/commands.json',
  `${JSON.stringify({ runs: RUNS, start_runs: START_RUNS, baseline: BASELINE_ROOT ?? null, results }, null, 2)}\n`,
);
