/**
 * The control for the gateway's event-loop figures: a child process that spends about as much
 * CPU as the gateway does (in 10 ms periods: busy for `duty` of each, like a server handling
 * short requests) and measures its own event-loop delay the same way (10 ms resolution, the
 * period not counted). On a shared machine a process that waits for a core is late too; what
 * the gateway shows above this is its own (long tasks, synchronous work). Each message
 * `{duty}` (0–0.9, the gateway's CPU share over the last interval) is answered with the delay
 * since the previous one, in milliseconds, and sets the duty from then on.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

const RESOLUTION_MS = 10;
const PERIOD_MS = 10;
const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
histogram.enable();
const ms = (ns: number) => Math.round((Math.max(0, ns - RESOLUTION_MS * 1e6) / 1e6) * 100) / 100;

let duty = 0.15;
setInterval(() => {
  const end = performance.now() + duty * PERIOD_MS;
  while (performance.now() < end) {
    // busy, as a request handler would be
  }
}, PERIOD_MS);

process.on('message', (message: { duty?: unknown }) => {
  const figures =
    histogram.count === 0
      ? null
      : {
          p50: ms(histogram.percentile(50)),
          p99: ms(histogram.percentile(99)),
          max: ms(histogram.max),
        };
  histogram.reset();
  if (typeof message.duty === 'number' && Number.isFinite(message.duty))
    duty = Math.min(0.9, Math.max(0, message.duty));
  process.send?.(figures);
});
process.on('disconnect', () => process.exit(0));
