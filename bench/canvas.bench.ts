/**
 * Canvas `add` fan-out latency (npm run bench:canvas): a real gateway in this process (in-process
 * canvas store) with BENCH_VIEWERS (50) viewers on /ws/canvas. Each measured run renders one
 * markdown block with `POST /api/v1/canvas/render`; the clock runs from the request being sent
 * until the last viewer has received its `add` frame. BENCH_RUNS (100) runs after 5 warm-up
 * runs. Prints p50/p95/max.
 */
import WebSocket from 'ws';
import { startTestGateway } from '../gateway/src/testing/gateway/test-gateway.ts';
import { percentile } from './process.ts';

const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 50);
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const WARM_UP = 5;

const gw = await startTestGateway({ config: { canvas: { max_blocks: RUNS + WARM_UP + 10 } } });
await gw.gateway.whenReady();

/** Per viewer, the resolver waiting for its next `add`. */
const waiting = new Map<WebSocket, (at: number) => void>();
const viewers: WebSocket[] = [];
for (let i = 0; i < VIEWERS; i += 1) {
  const socket = new WebSocket(`ws://127.0.0.1:${gw.port}/ws/canvas`);
  socket.on('message', (data: Buffer) => {
    const frame = JSON.parse(data.toString()) as { type: string };
    if (frame.type !== 'add') return;
    const at = performance.now();
    waiting.get(socket)?.(at);
    waiting.delete(socket);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  viewers.push(socket);
}

async function run(i: number): Promise<number> {
  const arrivals = viewers.map(
    (socket) => new Promise<number>((resolve) => waiting.set(socket, resolve)),
  );
  const start = performance.now();
  const response = await fetch(`${gw.url}/api/v1/canvas/render`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'markdown', content: `block ${i}` }),
  });
  if (response.status !== 201) throw new Error(`render answered ${response.status}`);
  const last = Math.max(...(await Promise.all(arrivals)));
  return last - start;
}

for (let i = 0; i < WARM_UP; i += 1) await run(i);
const samples: number[] = [];
for (let i = 0; i < RUNS; i += 1) samples.push(await run(WARM_UP + i));
samples.sort((a, b) => a - b);
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
process.stdout.write(
  `canvas add fan-out to ${VIEWERS} viewers over ${RUNS} renders: ` +
    `p50 ${fmt(percentile(samples, 50))}, p95 ${fmt(percentile(samples, 95))}, max ${fmt(samples.at(-1) ?? 0)}\n`,
);
for (const socket of viewers) socket.close();
await gw.close();
