/**
 * Start-up figures (npm run bench:start): the built gateway (`dist/`, as `npm start` runs it)
 * started in its own process, N times per configuration, on a state directory a first
 * (untimed) start has set up, as `hearth start` usually finds it; the first start (database
 * created, migrations run) is reported on its own line.
 *
 * - start → /health: spawn to the first `GET /health` 200 (the port is bound and answering).
 * - start → /ready: spawn to the first `GET /ready` 200 (every configured area is up).
 * - CPU to /ready: the gateway process's user + system CPU time at that moment (/proc), a
 *   figure that a busy machine does not stretch as it does the wall-clock ones.
 * - idle RSS: VmRSS of the gateway process BENCH_IDLE_S seconds after /ready, untouched.
 * Each figure is the median of the runs. Targets (default config): /ready ≤ 500 ms, idle RSS
 * ≤ 90 MB.
 *
 * Configurations: `default` (the config.toml a first start writes) and `configured` (several
 * areas configured: a signed-webhook channel and canvas limits, keys every build knows; nothing
 * that needs the network or another program).
 *
 * Env: BENCH_RUNS (5), BENCH_IDLE_S (10), BENCH_GATEWAY_ENTRY (default
 * dist/gateway/src/main.js; another build, e.g. an older commit's, to compare; a comma list
 * compares several, their starts interleaved run by run so that a machine's load falls on
 * each alike), BENCH_START_COMMANDS (a comma list of commands measured the same way, interleaved
 * with the entries, e.g. `./hearth start` of two checkouts: the figure the lean issue names;
 * a command is its words separated by spaces, `node` meaning this Node, and gets `--port N`;
 * its config is the state directory's, HEARTH_HOME), BENCH_CONFIGS (comma list, default
 * "default,configured").
 * Results print as a table and are written to bench/results/start.json.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, rssBytes } from './process.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 10);
const GATEWAY_ENTRIES = (process.env.BENCH_GATEWAY_ENTRY ?? 'dist/gateway/src/main.js').split(',');
const COMMANDS = (process.env.BENCH_START_COMMANDS ?? '').split(',').filter(Boolean);
/** What is started, by name: a gateway entry (run with this Node) or a command line. */
const ENTRIES = [...GATEWAY_ENTRIES, ...COMMANDS];
const argvOf = (entry: string, port: number, configPath: string): string[] =>
  COMMANDS.includes(entry)
    ? [
        ...entry.split(' ').map((word) => (word === 'node' ? process.execPath : word)),
        '--port',
        String(port),
      ]
    : [process.execPath, entry, '--port', String(port), '--config', configPath];
const CONFIGS = (process.env.BENCH_CONFIGS ?? 'default,configured').split(',');

const TARGETS = { ready_ms: 500, idle_rss_mb: 90 };

/** config.toml per configuration; `undefined`: the gateway writes its default on first start. */
const CONFIG_FILES: Record<string, string | undefined> = {
  default: undefined,
  configured: `
[channels.hook]
type = "webhook"
signing_secret = "bench-webhook-secret-0123456789abcdef"

[canvas]
max_blocks = 100
`,
};

interface RunFigures {
  healthMs: number;
  readyMs: number;
  readyCpuMs: number;
  idleRssMb: number;
}

/** User + system CPU time of a process so far, in ms (/proc/<pid>/stat, 100 ticks a second). */
async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function waitFor(url: string, started: number, exited: () => boolean): Promise<number> {
  for (;;) {
    if (exited()) throw new Error(`gateway exited before ${url} answered 200`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === 200) return performance.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
    if (performance.now() - started > 30_000) throw new Error(`${url} not 200 after 30 s`);
  }
}

async function runOnce(entry: string, home: string, idleS: number): Promise<RunFigures> {
  const configPath = join(home, 'config.toml');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const [file, ...args] = argvOf(entry, port, configPath);
  const child = spawn(file!, args, {
    env: { ...process.env, HEARTH_HOME: home, HEARTH_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  try {
    const healthMs = await waitFor(`${base}/health`, started, hasExited);
    const readyMs = await waitFor(`${base}/ready`, started, hasExited);
    const readyCpuMs = await cpuMs(child.pid ?? 0);
    await new Promise((resolve) => setTimeout(resolve, idleS * 1000));
    const idleRssMb = (await rssBytes(child.pid ?? 0)) / 1024 / 1024;
    return { healthMs, readyMs, readyCpuMs, idleRssMb };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

const out = process.stdout;
/** Figures by entry, then by config. */
const results: Record<string, Record<string, Record<string, number>>> = {};
out.write(`${RUNS} runs per config and build; idle RSS after ${IDLE_S} s\n`);
for (const name of CONFIGS) {
  if (!(name in CONFIG_FILES)) throw new Error(`unknown config ${name}`);
  const configToml = CONFIG_FILES[name];
  const homes: string[] = [];
  const runs: RunFigures[][] = ENTRIES.map(() => []);
  for (const entry of ENTRIES) {
    const home = await mkdtemp(join(tmpdir(), 'hearth-bench-start-'));
    if (configToml !== undefined) await writeFile(join(home, 'config.toml'), configToml);
    homes.push(home);
    const first = await runOnce(entry, home, 0);
    (results[entry] ??= {})[`${name} (first start)`] = {
      health_ms: first.healthMs,
      ready_ms: first.readyMs,
      ready_cpu_ms: first.readyCpuMs,
    };
  }
  for (let run = 0; run < RUNS; run += 1)
    for (const [index, entry] of ENTRIES.entries())
      runs[index]!.push(await runOnce(entry, homes[index]!, IDLE_S));
  for (const home of homes) await rm(home, { recursive: true, force: true });
  for (const [index, entry] of ENTRIES.entries()) {
    const mine = runs[index]!;
    results[entry]![name] = {
      health_ms: median(mine.map((run) => run.healthMs)),
      ready_ms: median(mine.map((run) => run.readyMs)),
      ready_cpu_ms: median(mine.map((run) => run.readyCpuMs)),
      idle_rss_mb: median(mine.map((run) => run.idleRssMb)),
    };
  }
}

const line = (cells: readonly string[]) =>
  cells.map((cell, index) => (index === 0 ? cell.padEnd(26) : cell.padStart(16))).join('');
for (const [entry, byConfig] of Object.entries(results)) {
  out.write(`\ngateway: ${entry}\n`);
  out.write(
    `${line(['config', '→ /health ms', '→ /ready ms', 'CPU to ready ms', 'idle RSS MB'])}\n`,
  );
  for (const [config, figures] of Object.entries(byConfig))
    out.write(
      `${line([
        config,
        figures.health_ms?.toFixed(0) ?? '',
        figures.ready_ms?.toFixed(0) ?? '',
        figures.ready_cpu_ms?.toFixed(0) ?? '',
        figures.idle_rss_mb?.toFixed(1) ?? '',
      ])}\n`,
    );
  const defaults = byConfig.default;
  if (defaults) {
    const met = (value: number | undefined, target: number) =>
      (value ?? Infinity) <= target ? 'met' : 'missed';
    out.write(
      `default config: /ready ≤ ${TARGETS.ready_ms} ms ${met(defaults.ready_ms, TARGETS.ready_ms)}; ` +
        `idle RSS ≤ ${TARGETS.idle_rss_mb} MB ${met(defaults.idle_rss_mb, TARGETS.idle_rss_mb)}\n`,
    );
  }
}

const outDir = resolve('bench/results');
await mkdir(outDir, { recursive: true });
await writeFile(
  join(outDir, 'start.json'),
  `${JSON.stringify({ entries: ENTRIES, runs: RUNS, idle_s: IDLE_S, targets: TARGETS, results }, null, 2)}\n`,
);
