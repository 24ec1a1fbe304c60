/**
 * Foundation figures (npm run bench): cold start to /ready 200, idle RSS, and GET /health
 * throughput with 50 concurrent connections. Targets: ready ≤ 1.5 s, idle RSS ≤ 120 MB.
 * The built tree (npm run build) is measured, as `npm start` and the Docker image run it.
 * `hearth start` (the CLI, as the README and service managers run it) is measured against
 * `node dist/gateway/src/main.js`, cold starts interleaved: ready within 10 % and idle RSS
 * within 5 MB of it; and `hearth status` against a running gateway: ≤ 300 ms wall.
 * Results print as a table and are written to bench/results/foundation.json.
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { percentile, rssBytes, startGatewayProcess, type GatewayProcess } from './process.ts';

const COLD_STARTS = Number(process.env.BENCH_COLD_STARTS ?? 5);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);

const readyTimes: number[] = [];
for (let i = 0; i < COLD_STARTS; i += 1) {
  const gateway = await startGatewayProcess();
  readyTimes.push(gateway.readyMs);
  await gateway.stop();
}
readyTimes.sort((a, b) => a - b);

const HEARTH_BIN = 'cli-ink/bin/hearth.js';
const startCli = () => startGatewayProcess(HEARTH_BIN, {}, ['start']);

/** Ready time, then idle RSS 2 s later, of `start` runs of main.js and `hearth start`, alternating. */
const mainRuns: { readyMs: number; rss: number }[] = [];
const cliRuns: { readyMs: number; rss: number }[] = [];
let statusMs: number[] = [];
for (let i = 0; i < COLD_STARTS; i += 1) {
  for (const [runs, start] of [
    [mainRuns, () => startGatewayProcess()],
    [cliRuns, startCli],
  ] as const) {
    const started = await start();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    runs.push({ readyMs: started.readyMs, rss: await rssBytes(started.child.pid ?? 0) });
    if (runs === cliRuns && i === 0) statusMs = await timeStatus(started);
    await started.stop();
  }
}

/** Wall time of `hearth status` (a new process each time) against a running gateway, sorted. */
async function timeStatus(running: GatewayProcess): Promise<number[]> {
  const config = join(running.home, 'status-config.toml');
  await writeFile(config, `[gateway]\nport = ${new URL(running.url).port}\n`);
  const times: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      execFile(
        process.execPath,
        [HEARTH_BIN, '--config', config, 'status'],
        { env: { ...process.env, HEARTH_HOME: running.home } },
        (error) =>
          error === null ? resolve() : reject(new Error(`hearth status failed: ${error.message}`)),
      );
    });
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

const median = (values: readonly number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const mb = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10;
const mainReady = median(mainRuns.map((run) => run.readyMs));
const cliReady = median(cliRuns.map((run) => run.readyMs));
const mainRss = median(mainRuns.map((run) => run.rss));
const cliRss = median(cliRuns.map((run) => run.rss));

const gateway = await startGatewayProcess();
await new Promise((resolve) => setTimeout(resolve, 2_000));
const idleRss = await rssBytes(gateway.child.pid ?? 0);

const source = await startGatewayProcess('gateway/src/main.ts');
await new Promise((resolve) => setTimeout(resolve, 2_000));
const sourceRss = await rssBytes(source.child.pid ?? 0);
const sourceReadyMs = source.readyMs;
await source.stop();

const result = await autocannon({
  url: `${gateway.url}/health`,
  connections: 50,
  duration: DURATION_S,
});
const loadedRss = await rssBytes(gateway.child.pid ?? 0);
await gateway.stop();

const figures = {
  node: process.version,
  cold_start_to_ready_ms: {
    runs: COLD_STARTS,
    p50: Math.round(percentile(readyTimes, 50)),
    max: Math.round(readyTimes.at(-1) ?? 0),
  },
  idle_rss_mb: Math.round((idleRss / 1_048_576) * 10) / 10,
  hearth_cli: {
    runs: COLD_STARTS,
    main_js_ready_ms_p50: Math.round(mainReady),
    hearth_start_ready_ms_p50: Math.round(cliReady),
    main_js_idle_rss_mb_p50: mb(mainRss),
    hearth_start_idle_rss_mb_p50: mb(cliRss),
    hearth_status_wall_ms_p50: Math.round(percentile(statusMs, 50)),
    hearth_status_wall_ms_max: Math.round(statusMs.at(-1) ?? 0),
  },
  from_typescript_sources: {
    ready_ms: Math.round(sourceReadyMs),
    idle_rss_mb: Math.round((sourceRss / 1_048_576) * 10) / 10,
  },
  health_50_connections: {
    duration_s: DURATION_S,
    requests_per_s: Math.round(result.requests.average),
    latency_ms_p50: result.latency.p50,
    latency_ms_p99: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors,
    rss_after_load_mb: Math.round((loadedRss / 1_048_576) * 10) / 10,
  },
};

const out = process.stdout;
out.write(
  `cold start → /ready 200: p50 ${figures.cold_start_to_ready_ms.p50} ms, max ${figures.cold_start_to_ready_ms.max} ms (target ≤ 1500)\n`,
);
out.write(`idle RSS: ${figures.idle_rss_mb} MB (target ≤ 120)\n`);
const cli = figures.hearth_cli;
out.write(
  `hearth start vs node dist/gateway/src/main.js (p50 of ${COLD_STARTS}): ready ${cli.hearth_start_ready_ms_p50} ms vs ${cli.main_js_ready_ms_p50} ms ` +
    `(${signedPercent(cliReady / mainReady - 1)}, target ≤ +10 %), idle RSS ${cli.hearth_start_idle_rss_mb_p50} MB vs ${cli.main_js_idle_rss_mb_p50} MB ` +
    `(${signedMb(cli.hearth_start_idle_rss_mb_p50 - cli.main_js_idle_rss_mb_p50)}, target ≤ +5 MB)\n`,
);
out.write(
  `hearth status: p50 ${cli.hearth_status_wall_ms_p50} ms, max ${cli.hearth_status_wall_ms_max} ms wall (target ≤ 300)\n`,
);
out.write(
  `(running the .ts sources directly: ready ${figures.from_typescript_sources.ready_ms} ms, ` +
    `idle RSS ${figures.from_typescript_sources.idle_rss_mb} MB)\n`,
);
out.write(
  `GET /health, 50 connections, ${DURATION_S} s: ${figures.health_50_connections.requests_per_s} req/s, ` +
    `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}\n`,
);
await mkdir('bench/results', { recursive: true });
await writeFile('bench/results/foundation.json', `${JSON.stringify(figures, null, 2)}\n`);

function signedPercent(ratio: number): string {
  return `${ratio >= 0 ? '+' : ''}${Math.round(ratio * 1000) / 10} %`;
}

function signedMb(delta: number): string {
  return `${delta >= 0 ? '+' : ''}${Math.round(delta * 10) / 10} MB`;
}
