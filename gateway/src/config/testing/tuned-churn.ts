/**
 * A process that takes the gateway's first step (config/runtime-tuning.ts), then holds a steady
 * set of live objects while allocating request-like garbage that lives long enough to reach the
 * old generation, and prints, as one JSON line, its live data (the lowest heap in use) and the
 * largest old space it reserved;
 * runtime-tuning.test.ts spawns it.
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { applyAfterReady, tuneThisProcess } from '../runtime-tuning.ts';

// What the gateway sets once ready applies to the load below.
const report = tuneThisProcess();
applyAfterReady(report);

const item = (i: number) => ({
  id: i,
  text: `message ${i} `.repeat(8),
  parts: Array.from({ length: 12 }, (_, k) => ({ k, s: `part ${k} of ${i}` })),
});
const batch = () => Array.from({ length: 100 }, (_, i) => item(i));

/** ~60 MB that stays: what sessions and indexes hold. */
const live = new Map<number, unknown[]>();
for (let i = 0; i < 300; i += 1) live.set(i, batch());
/** Requests in flight: each batch outlives a few young-generation collections. */
const inflight: unknown[][] = [];
let peak = 0;
let liveBytes = Number.POSITIVE_INFINITY;
for (let n = 0; n < 4_000; n += 1) {
  inflight.push(batch());
  if (inflight.length > 40) inflight.shift();
  if (n % 50 === 0) live.set(n % 300, batch());
  if (n % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
  const oldSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'old_space');
  peak = Math.max(peak, oldSpace?.space_size ?? 0);
  liveBytes = Math.min(liveBytes, process.memoryUsage().heapUsed);
}
process.stdout.write(
  `${JSON.stringify({
    execArgv: process.execArgv,
    afterReady: report.afterReady ?? [],
    peakOldSpace: peak,
    minHeapUsed: liveBytes,
  })}\n`,
);
