/**
 * Foundation figures (npm run bench): cold start to /ready 200, idle RSS, and GET /health
 * throughput with 50 concurrent connections. Targets: ready ≤ 1.5 s, idle RSS ≤ 120 MB.
 * The built tree (npm run build) is measured, as `npm start` and the Docker image run it.
 * Results print as a table and are written to bench/results/foundation.json.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import autocannon from 'autocannon';
import { percentile, rssBytes, startGatewayProcess } from './process.ts';

const COLD_STARTS = Number(process.env.BENCH_COLD_STARTS ?? 5);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);

const readyTimes: number[] = [];
for (let i = 0; i < COLD_STARTS; i += 1) {
  const gateway = await startGatewayProcess();
  readyTimes.push(gateway.readyMs);
  await gateway.stop();
}
readyTimes.sort((a, b) => a - b);

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
