/**
 * `npm run bench`: every figure of the "lean" table in one run, this checkout against a pinned
 * baseline built beside it, printed as ratios (this / baseline). The machines are shared and
 * noisy, so the two builds are measured in the same run, alternating where a bench allows it;
 * a ratio is the figure to read, not an absolute time.
 *
 * It runs the benches that measure each figure and reads their JSON results:
 *   chat turn overhead p50, 8-client throughput, idle RSS   bench/chat.bench.ts (twice each build)
 *   hearth start → /ready; main.js → /ready, idle RSS          bench/start.bench.ts (both builds)
 *   upstream bytes of "hello" with 0, 50, 500 tools          bench/tools.bench.ts (`all` = before)
 *   ./hearth status, --help, npx hearth status, npm start     bench/commands.bench.ts (both)
 *   node_modules size (default install)                      bench/install.bench.ts (both)
 *   npm install on a clean clone, empty npm cache            bench/install.bench.ts (both)
 *   node_modules of each checkout as it is (features added)  du of both checkouts
 *   gateway image size                                       docker image inspect (when present)
 *
 * Env: BENCH_BASELINE_ROOT (required): a checkout of the pinned baseline (BASELINE_COMMIT below)
 * with `npm ci` run in it, e.g.
 *   git worktree add ../hearth-baseline 2ebbd77 && (cd ../hearth-baseline && npm ci)
 * BENCH_IMAGE (hearth:local) and BENCH_BASELINE_IMAGE (unset: no image ratio); the sub-benches'
 * own variables pass through (BENCH_TURNS…). BENCH_QUICK=1 shortens every sub-bench.
 * BENCH_INSTALL=0 leaves out the clean installs (~2 min for both checkouts; they download every
 * package).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The baseline the figures are compared with (the "last round" of the lean issue). */
const BASELINE_COMMIT = '2ebbd77';
const ROOT = resolve('.');
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT
  ? resolve(process.env.BENCH_BASELINE_ROOT)
  : undefined;
if (BASELINE_ROOT === undefined || !existsSync(join(BASELINE_ROOT, 'dist/gateway/src/main.js'))) {
  process.stderr.write(
    `npm run bench compares this checkout with the pinned baseline ${BASELINE_COMMIT}: set ` +
      'BENCH_BASELINE_ROOT to a built checkout of it, e.g.\n' +
      `  git worktree add ../hearth-baseline ${BASELINE_COMMIT} && (cd ../hearth-baseline && npm ci)\n` +
      '  BENCH_BASELINE_ROOT=../hearth-baseline npm run bench\n',
  );
  process.exit(2);
}
const HEAD_ENTRY = join(ROOT, 'dist/gateway/src/main.js');
const BASE_ENTRY = join(BASELINE_ROOT, 'dist/gateway/src/main.js');
const QUICK =
  process.env.BENCH_QUICK === '1'
    ? {
        BENCH_TURNS: '300',
        BENCH_WARMUP: '30',
        BENCH_DURATION_S: '5',
        BENCH_MAX_TURNS: '2000',
        BENCH_WS_TURNS: '100',
        BENCH_RSS_TURNS: '2000',
        BENCH_SETTLE_S: '3',
        BENCH_RUNS: '3',
        BENCH_START_RUNS: '2',
        BENCH_IDLE_S: '5',
      }
    : {};

/** Runs one sub-bench with extra environment; its output goes to stderr (progress). */
function run(script: string, env: Record<string, string> = {}): void {
  process.stderr.write(`\n== ${script} ${Object.keys(env).length ? JSON.stringify(env) : ''}\n`);
  execFileSync(process.execPath, [script], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, ...QUICK, ...env },
  });
}

const results = (name: string): unknown =>
  JSON.parse(readFileSync(join(ROOT, 'bench/results', name), 'utf8'));

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

interface Row {
  figure: string;
  head: number;
  base: number;
  unit: string;
  /** The target, as a ratio bound or an absolute one; lower is better unless `higher`. */
  target: string;
  met?: boolean;
}
const rows: Row[] = [];

// ── Chat turns: alternate the builds, twice each ─────────────────────────────────────────────
interface ChatFigures {
  sequential: { overhead_ms: { p50: number } };
  throughput: { messages_per_s: number; gateway_cpu_ms_per_turn: number };
  rss: { idle_mb: number };
}
const chat: Record<'head' | 'base', ChatFigures[]> = { head: [], base: [] };
for (let round = 0; round < 2; round += 1) {
  for (const [key, entry] of [
    ['head', HEAD_ENTRY],
    ['base', BASE_ENTRY],
  ] as const) {
    run('bench/chat.bench.ts', { BENCH_GATEWAY_ENTRY: entry });
    chat[key].push(results('chat.json') as ChatFigures);
  }
}
const chatFigure = (pick: (figures: ChatFigures) => number) => ({
  head: median(chat.head.map(pick)),
  base: median(chat.base.map(pick)),
});
{
  const overhead = chatFigure((f) => f.sequential.overhead_ms.p50);
  const throughput = chatFigure((f) => f.throughput.messages_per_s);
  const cpu = chatFigure((f) => f.throughput.gateway_cpu_ms_per_turn);
  const idle = chatFigure((f) => f.rss.idle_mb);
  rows.push(
    {
      figure: 'chat turn overhead p50 (REST)',
      ...overhead,
      unit: 'ms',
      target: '≤ 0.6×',
      met: overhead.head <= 0.6 * overhead.base,
    },
    { figure: 'gateway CPU per turn', ...cpu, unit: 'ms', target: '—' },
    {
      figure: '8-client throughput',
      ...throughput,
      unit: 'msg/s',
      target: '≥ 2×',
      met: throughput.head >= 2 * throughput.base,
    },
    {
      figure: 'idle RSS (chat bench)',
      ...idle,
      unit: 'MB',
      target: '≤ 90 MB',
      met: idle.head <= 90,
    },
  );
}

// ── Start-up: both builds in one run (the bench interleaves them) ───────────────────────────
// `hearth start` as each README has users type it, short of npx: `./hearth start` here, the
// baseline's bin (its README's `npx hearth start` costs it ~1 s more). The gateway entry point
// on its own (`npm start` without the build check) is the stricter figure beside it.
const HEAD_START = `${join(ROOT, 'hearth')} start`;
const BASE_START = `node ${join(BASELINE_ROOT, 'cli-ink/bin/hearth.js')} start`;
run('bench/start.bench.ts', {
  BENCH_GATEWAY_ENTRY: `${HEAD_ENTRY},${BASE_ENTRY}`,
  BENCH_START_COMMANDS: `${HEAD_START},${BASE_START}`,
});
{
  const start = results('start.json') as {
    results: Record<string, Record<string, Record<string, number>>>;
  };
  for (const config of ['default', 'configured']) {
    const headCli = start.results[HEAD_START]?.[config];
    const baseCli = start.results[BASE_START]?.[config];
    if (headCli && baseCli)
      rows.push({
        figure: `hearth start → /ready (${config} config)`,
        head: headCli.ready_ms ?? Number.NaN,
        base: baseCli.ready_ms ?? Number.NaN,
        unit: 'ms',
        target: '≤ 0.4×',
        met: (headCli.ready_ms ?? Infinity) <= 0.4 * (baseCli.ready_ms ?? 0),
      });
    const head = start.results[HEAD_ENTRY]?.[config];
    const base = start.results[BASE_ENTRY]?.[config];
    if (!head || !base) continue;
    rows.push(
      {
        figure: `main.js → /ready (${config} config)`,
        head: head.ready_ms ?? Number.NaN,
        base: base.ready_ms ?? Number.NaN,
        unit: 'ms',
        target: '≤ 0.4×',
        met: (head.ready_ms ?? Infinity) <= 0.4 * (base.ready_ms ?? 0),
      },
      {
        figure: `CPU to /ready (${config} config)`,
        head: head.ready_cpu_ms ?? Number.NaN,
        base: base.ready_cpu_ms ?? Number.NaN,
        unit: 'ms',
        target: '—',
      },
      {
        figure: `idle RSS after start (${config} config)`,
        head: head.idle_rss_mb ?? Number.NaN,
        base: base.idle_rss_mb ?? Number.NaN,
        unit: 'MB',
        target: config === 'default' ? '≤ 90 MB' : '—',
        ...(config === 'default' ? { met: (head.idle_rss_mb ?? Infinity) <= 90 } : {}),
      },
    );
  }
}

// ── Upstream bytes: offering every tool (`all`) is what the baseline does ───────────────────
run('bench/tools.bench.ts');
{
  const tools = results('tools.json') as {
    installed: number;
    relevant_bytes: number;
    all_bytes: number;
  }[];
  for (const row of tools) {
    const bound = row.installed === 0 ? 3_000 : 4_000;
    rows.push({
      figure: `upstream "hello", ${row.installed} installed tools`,
      head: row.relevant_bytes,
      base: row.all_bytes,
      unit: 'bytes',
      target: `≤ ${bound} bytes`,
      met: row.relevant_bytes <= bound,
    });
  }
}

// ── The commands a user types ────────────────────────────────────────────────────────────────
run('bench/commands.bench.ts', { BENCH_BASELINE_ROOT: BASELINE_ROOT });
{
  const commands = results('commands.json') as {
    results: Record<
      string,
      { current: { median_ms: number } | null; baseline?: { median_ms: number } | null }
    >;
  };
  for (const [name, figures] of Object.entries(commands.results)) {
    rows.push({
      figure: name,
      head: figures.current?.median_ms ?? Number.NaN,
      base: figures.baseline?.median_ms ?? Number.NaN,
      unit: 'ms',
      target: name === './hearth status (gateway running)' ? '≤ 300 ms quiet' : '—',
    });
  }
}

// ── Install and image size ───────────────────────────────────────────────────────────────────
const duMb = (path: string): number =>
  Number(execFileSync('du', ['-sb', path], { encoding: 'utf8' }).split('\t')[0]) / 1e6;
// This checkout's node_modules holds what was added to it (`hearth features add`, which CI and
// a developer's checkout have): the target is for the default install, which the clean
// installs below measure.
rows.push({
  figure: 'node_modules (this checkout, as it is)',
  head: duMb(join(ROOT, 'node_modules')),
  base: duMb(join(BASELINE_ROOT, 'node_modules')),
  unit: 'MB',
  target: '—',
});
if (process.env.BENCH_INSTALL !== '0') {
  run('bench/install.bench.ts', { BENCH_BASELINE_ROOT: BASELINE_ROOT });
  const install = results('install.json') as {
    results: Record<
      'current' | 'baseline',
      { wall_s: number; cpu_s: number; node_modules_mb: number }
    >;
  };
  const { current, baseline } = install.results;
  rows.push(
    {
      figure: 'npm install (clean clone, empty cache)',
      head: current.wall_s,
      base: baseline.wall_s,
      unit: 's',
      target: '≤ 35 s',
      met: current.wall_s <= 35,
    },
    {
      figure: 'CPU of that install',
      head: current.cpu_s,
      base: baseline.cpu_s,
      unit: 's',
      target: '—',
    },
    {
      figure: 'node_modules of that install (default)',
      head: current.node_modules_mb,
      base: baseline.node_modules_mb,
      unit: 'MB',
      target: '≤ 600 MB',
      met: current.node_modules_mb <= 600,
    },
  );
}
const imageMb = (ref: string | undefined): number => {
  if (ref === undefined) return Number.NaN;
  try {
    return (
      Number(
        execFileSync('docker', ['image', 'inspect', '-f', '{{.Size}}', ref], { encoding: 'utf8' }),
      ) / 1e6
    );
  } catch {
    return Number.NaN;
  }
};
{
  const head = imageMb(process.env.BENCH_IMAGE ?? 'hearth:local');
  rows.push({
    figure: 'gateway image',
    head,
    base: imageMb(process.env.BENCH_BASELINE_IMAGE),
    unit: 'MB',
    target: '≤ 450 MB',
    met: head <= 450,
  });
}

// ── The table ────────────────────────────────────────────────────────────────────────────────
const show = (value: number) =>
  Number.isFinite(value) ? (value >= 100 ? value.toFixed(0) : value.toFixed(2)) : '–';
const cells = rows.map((row) => [
  row.figure,
  `${show(row.head)} ${row.unit}`,
  `${show(row.base)} ${row.unit}`,
  Number.isFinite(row.head / row.base) ? `${(row.head / row.base).toFixed(2)}×` : '–',
  row.target,
  row.met === undefined ? '' : row.met ? 'met' : 'MISSED',
]);
const header = ['figure', 'this checkout', `baseline ${BASELINE_COMMIT}`, 'ratio', 'target', ''];
const widths = header.map((title, c) =>
  Math.max(title.length, ...cells.map((row) => row[c]!.length)),
);
const line = (row: readonly string[]) =>
  row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
process.stdout.write(`\nlean figures: ${ROOT} against ${BASELINE_ROOT}\n${line(header)}\n`);
for (const row of cells) process.stdout.write(`${line(row)}\n`);
