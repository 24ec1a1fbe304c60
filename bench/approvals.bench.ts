/**
 * Approval decision-to-execution latency (node bench/approvals.bench.ts): a real gateway in this
 * process (the chat test bed: SQLite, hash embedder, every model on the fake LLM server) runs a
 * turn whose `shell` call (`echo hearth-bench`) is prompted under the default policy. Once it is
 * pending, the decision is sent and the clock runs until the fake LLM receives the follow-up
 * request carrying the command's output: the decision is applied, the waiting tool call
 * continues, the local executor runs the command, and the pipeline calls the model again.
 *
 * - REST: `POST /approvals/{id}/approve` sent → follow-up request received by the fake.
 * - chat reply: `{type: "chat", message: "approve <short id>"}` sent on the session's /ws → the
 *   same.
 *
 * The follow-up's arrival is taken from node:http's `http.server.request.start` diagnostics
 * channel (no change to the fake). BENCH_RUNS (20) measured runs per path after 3 warm-up runs.
 * Prints p50/p95/max per path.
 */
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { startChatTestBed } from '../gateway/src/testing/gateway/chat-gateway.ts';
import { percentile } from './process.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const WARM_UP = 3;
const COMMAND = 'echo hearth-bench';

const bed = await startChatTestBed();

/** Resolvers waiting for the fake's next model request (performance.now() at its start). */
const modelRequests: ((at: number) => void)[] = [];
subscribe('http.server.request.start', (message) => {
  const { request } = message as { request: IncomingMessage };
  if (request.url?.startsWith('/v1/chat/completions')) modelRequests.shift()?.(performance.now());
});
const nextModelRequest = () =>
  new Promise<number>((resolve) => {
    modelRequests.push(resolve);
  });

interface Pending {
  id: string;
  command: string;
}

async function waitForPending(): Promise<Pending> {
  for (;;) {
    const res = await fetch(`${bed.gw.url}/api/v1/approvals/pending`);
    const { pending } = (await res.json()) as { pending: Pending[] };
    const found = pending.find((p) => p.command === COMMAND);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** One gated turn over REST, approved over REST; returns decision → follow-up in ms. */
async function viaRest(run: number): Promise<number> {
  bed.fake.reply(
    { toolCalls: [{ name: 'shell', arguments: { command: COMMAND } }] },
    { text: 'done' },
  );
  const first = nextModelRequest();
  const turn = bed.post('/chat', { message: 'run it', session_id: `bench-rest-${run}` });
  await first;
  const { id } = await waitForPending();
  const followUp = nextModelRequest();
  const sent = performance.now();
  const approve = fetch(`${bed.gw.url}/api/v1/approvals/${id}/approve`, { method: 'POST' });
  const arrived = await followUp;
  await approve;
  const { body } = await turn;
  if (body.reply !== 'done') throw new Error(`unexpected reply ${JSON.stringify(body)}`);
  return arrived - sent;
}

/**
 * One gated turn on /ws, approved by a chat reply on the same session (one session for every
 * run: the socket joins a session once).
 */
async function viaChatReply(socket: WebSocket): Promise<number> {
  const sessionId = 'bench-ws';
  bed.fake.reply(
    { toolCalls: [{ name: 'shell', arguments: { command: COMMAND } }] },
    { text: 'done' },
  );
  const frames: Record<string, unknown>[] = [];
  let onFrame: () => void = () => undefined;
  const listener = (data: Buffer) => {
    frames.push(JSON.parse(data.toString()) as Record<string, unknown>);
    onFrame();
  };
  socket.on('message', listener);
  const until = (match: (frame: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const check = () => {
        const found = frames.find(match);
        if (found) resolve(found);
      };
      onFrame = check;
      check();
    });
  socket.send(JSON.stringify({ type: 'chat', message: 'run it', session_id: sessionId }));
  const request = await until((f) => f.type === 'approval_request');
  const followUp = nextModelRequest();
  const sent = performance.now();
  socket.send(
    JSON.stringify({
      type: 'chat',
      message: `approve ${String(request.short_id)}`,
      session_id: sessionId,
    }),
  );
  const arrived = await followUp;
  await until((f) => f.type === 'message_done' && f.text === 'done');
  socket.off('message', listener);
  return arrived - sent;
}

async function measure(run: (index: number) => Promise<number>): Promise<number[]> {
  for (let i = 0; i < WARM_UP; i += 1) await run(-1 - i);
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i += 1) samples.push(await run(i));
  return samples.sort((a, b) => a - b);
}

const socket = new WebSocket(`ws://127.0.0.1:${bed.gw.port}/ws`);
await new Promise<void>((resolve, reject) => {
  socket.once('open', () => resolve());
  socket.once('error', reject);
});

const figures: Record<string, { runs: number; p50_ms: number; p95_ms: number; max_ms: number }> =
  {};
const round = (ms: number) => Math.round(ms * 1000) / 1000;
for (const [name, run] of [
  ['REST approve → follow-up model request', viaRest],
  ['chat reply "approve <id>" on /ws → follow-up model request', () => viaChatReply(socket)],
] as const) {
  const samples = await measure(run);
  figures[name] = {
    runs: samples.length,
    p50_ms: round(percentile(samples, 50)),
    p95_ms: round(percentile(samples, 95)),
    max_ms: round(samples.at(-1) ?? Number.NaN),
  };
}

socket.close();
await bed.close();

process.stdout.write(
  `Approval decision-to-execution latency (${RUNS} runs per path, command: ${COMMAND})\n`,
);
for (const [name, figure] of Object.entries(figures)) {
  process.stdout.write(
    `  ${name}: p50 ${figure.p50_ms} ms, p95 ${figure.p95_ms} ms, max ${figure.max_ms} ms\n`,
  );
}
