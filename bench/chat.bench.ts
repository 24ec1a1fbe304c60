/**
 * Chat turn figures (npm run bench:chat): the built gateway (`dist/`, as `npm start` runs it)
 * in its own process, talking over real HTTP to the fake LLM server running in this process
 * (OpenAI-compatible provider, `[models] primary = "custom/bench-model"`), memory on (in-process
 * short-term, in-memory vectors, SQLite long-term; no embedding model, so semantic search is
 * skipped).
 *
 * - overhead: REST round trip (client) minus the fake LLM's own time for that request (inside the
 *   fake: request received → response finished, via node:http's diagnostics channels), 500
 *   sequential turns after 50 warm-up turns. Target ≤ 5 ms p50.
 * - throughput: 8 clients, each on its own session, for 10 s or 4,000 turns. Target ≥ 300/s.
 * - WebSocket first chunk: the fake's first text frame written → the client's first
 *   `message_chunk` on /ws, 200 streamed turns. Target ≤ 2 ms p50.
 * - RSS (VmRSS of the gateway process): idle; after 10,000 more turns once the gateway has been
 *   idle BENCH_SETTLE_S seconds (what it holds afterwards; target ≤ 150 MB); and at the moment
 *   the load stops (a transient: garbage V8 has not collected yet), with the peak.
 *   The gateway runs with its own memory set-up (config/runtime-tuning.ts: jemalloc when
 *   installed, else one glibc arena; 8 MB semi-spaces), as `npm start` does; the header prints it.
 *
 * Env: BENCH_TURNS (500), BENCH_WARMUP (50), BENCH_CLIENTS (8), BENCH_DURATION_S (10),
 * BENCH_MAX_TURNS (4000), BENCH_WS_TURNS (200), BENCH_RSS_TURNS (10000), BENCH_SETTLE_S (15, idle
 * time before the settled RSS reading), BENCH_GATEWAY_NODE_OPTIONS (Node flags for the gateway,
 * e.g. heap limits; none by default, as `npm start` runs it), BENCH_GATEWAY_ENTRY (default
 * dist/gateway/src/main.js),
 * BENCH_CPU_PROF=<dir> (run the gateway with --cpu-prof, sampling every
 * BENCH_CPU_PROF_INTERVAL_US µs, default 250; the profile is written to <dir> when it exits).
 * Results print as a table and are written to bench/results/chat.json.
 */
import { subscribe } from 'node:diagnostics_channel';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import {
  Agent,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createFakeLlmServer } from '../gateway/src/testing/fakes/fake-llm/server.ts';
import type { ReplyScript } from '../gateway/src/testing/fakes/fake-llm/script.ts';
import { percentile, rssBytes, startGatewayProcess } from './process.ts';

const TURNS = Number(process.env.BENCH_TURNS ?? 500);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 50);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const MAX_TURNS = Number(process.env.BENCH_MAX_TURNS ?? 4_000);
const WS_TURNS = Number(process.env.BENCH_WS_TURNS ?? 200);
const RSS_TURNS = Number(process.env.BENCH_RSS_TURNS ?? 10_000);
const SETTLE_S = Number(process.env.BENCH_SETTLE_S ?? 15);
const CPU_PROF = process.env.BENCH_CPU_PROF;
const GATEWAY_NODE_OPTIONS = process.env.BENCH_GATEWAY_NODE_OPTIONS ?? '';
const GATEWAY_ENTRY = process.env.BENCH_GATEWAY_ENTRY ?? 'dist/gateway/src/main.js';

const TARGETS = {
  overhead_p50_ms: 5,
  messages_per_s: 300,
  ws_first_chunk_p50_ms: 2,
  rss_after_turns_mb: 150,
};

// ── The fake LLM, instant, with usage; streamed replies come in several chunks ─────────────────

const REPLY_CHUNKS = ['Here', ' is', ' a', ' short', ' streamed', ' answer', ' for', ' you.'];
const defaultReply: ReplyScript = {
  text: REPLY_CHUNKS.join(''),
  chunks: REPLY_CHUNKS,
  usage: { inputTokens: 42, outputTokens: 8 },
  // Only streamed replies wait between frames; a non-streamed (REST) reply is instant.
  chunkDelayMs: 2,
};
const fake = await createFakeLlmServer({ defaultReply });

/** When the fake handled one request, by this process's clock (performance.now()). */
interface FakeTiming {
  start: number;
  firstByte?: number;
  firstText?: number;
  end?: number;
}

/**
 * Timing inside the fake without touching its code: node:http publishes request start and
 * response finish on diagnostics channels. Each request is tagged with a header so that, once it
 * has finished, its recorded body (the fake's `requests`) tells which chat turn it served. The
 * only HTTP server in this process is the fake.
 */
const inFlight = new WeakMap<IncomingMessage, { tag: string; timing: FakeTiming }>();
const byMessage = new Map<string, FakeTiming>();
let backgroundRequests = 0;
let sequence = 0;

type WriteFn = (chunk: unknown, ...rest: unknown[]) => boolean;

subscribe('http.server.request.start', (message) => {
  const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
  const timing: FakeTiming = { start: performance.now() };
  sequence += 1;
  const tag = String(sequence);
  request.headers['x-bench-seq'] = tag;
  inFlight.set(request, { tag, timing });
  const write = response.write.bind(response) as WriteFn;
  const timedWrite: WriteFn = (chunk, ...rest) => {
    const at = performance.now();
    timing.firstByte ??= at;
    if (
      timing.firstText === undefined &&
      typeof chunk === 'string' &&
      /"content":"[^"]/.test(chunk)
    )
      timing.firstText = at;
    return write(chunk, ...rest);
  };
  response.write = timedWrite;
});

subscribe('http.server.response.finish', (message) => {
  const { request } = message as { request: IncomingMessage };
  const entry = inFlight.get(request);
  if (!entry) return;
  entry.timing.end = performance.now();
  inFlight.delete(request);
  // The fake pushed its record before answering; drop it (keeps this process small) once read.
  const index = fake.requests.findLastIndex((r) => r.headers['x-bench-seq'] === entry.tag);
  if (index < 0) return;
  const [recorded] = fake.requests.splice(index, 1);
  const messages = (recorded?.body as { messages?: { role: string; content: unknown }[] })
    ?.messages;
  const last = messages?.at(-1);
  if (last?.role === 'user' && typeof last.content === 'string' && turnMessages.has(last.content))
    byMessage.set(last.content, entry.timing);
  else backgroundRequests += 1; // compaction summaries and the like
});

/** Messages this bench sent; the fake's requests are matched to turns by their last user message. */
const turnMessages = new Set<string>();
let turnCounter = 0;
function nextMessage(label: string): string {
  turnCounter += 1;
  // One turn in ten states a preference: important enough for the long-term store.
  const text =
    turnCounter % 10 === 0
      ? `Please remember that I prefer green tea in the afternoon (${label} #${turnCounter}).`
      : `What should I focus on next in the garden project? (${label} #${turnCounter})`;
  turnMessages.add(text);
  return text;
}
function takeFakeTiming(message: string): FakeTiming | undefined {
  const timing = byMessage.get(message);
  byMessage.delete(message);
  turnMessages.delete(message);
  return timing;
}

// ── The gateway process ─────────────────────────────────────────────────────────────────────

const configDir = await mkdtemp(join(tmpdir(), 'hearth-bench-chat-'));
const configPath = join(configDir, 'config.toml');
await writeFile(
  configPath,
  [
    '[gateway]',
    'log_level = "warn"',
    '',
    '[models]',
    'primary = "custom/bench-model"',
    'fallback = ""',
    'fast = ""',
    'local = ""',
    'openai_api_key = "sk-bench"',
    `openai_compatible_base_url = "${fake.url}/v1"`,
    'openai_compatible_api_key = "sk-bench"',
    '',
  ].join('\n'),
);
const nodeOptions = [GATEWAY_NODE_OPTIONS];
if (CPU_PROF) {
  await mkdir(CPU_PROF, { recursive: true });
  nodeOptions.push(
    `--cpu-prof --cpu-prof-interval=${process.env.BENCH_CPU_PROF_INTERVAL_US ?? 250}`,
    `--cpu-prof-dir=${resolve(CPU_PROF)}`,
  );
}
// NODE_OPTIONS of this process must not reach the gateway unless asked for.
const extraEnv: Record<string, string> = {
  HEARTH_CONFIG: configPath,
  NODE_OPTIONS: nodeOptions.filter(Boolean).join(' '),
};
const gateway = await startGatewayProcess(GATEWAY_ENTRY, extraEnv);
const pid = gateway.child.pid ?? 0;
const port = Number(new URL(gateway.url).port);
const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS * 2 });

function call(
  method: string,
  path: string,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolvePromise, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        agent,
        headers:
          body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolvePromise({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

interface TurnSample {
  roundTripMs: number;
  fakeMs: number | undefined;
}

let errors = 0;
async function restTurn(sessionId: string, label: string): Promise<TurnSample> {
  const message = nextMessage(label);
  const body = JSON.stringify({ message, session_id: sessionId });
  const started = performance.now();
  const res = await call('POST', '/api/v1/chat', body);
  const roundTripMs = performance.now() - started;
  if (res.status !== 200) {
    errors += 1;
    if (errors <= 3) process.stderr.write(`chat turn failed: ${res.status} ${res.text}\n`);
  }
  let timing = takeFakeTiming(message);
  if (timing === undefined) {
    await new Promise((r) => setImmediate(r));
    timing = takeFakeTiming(message);
  }
  const fakeMs = timing?.end === undefined ? undefined : Math.max(0, timing.end - timing.start);
  return { roundTripMs, fakeMs };
}

/** utime + stime of a process, in milliseconds (from /proc, Linux). */
async function cpuMs(processId: number): Promise<number> {
  const stat = await readFile(`/proc/${processId}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command: state is field 3, utime 14 and stime 15 (1-based over the whole line).
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function peakRss(processId: number): Promise<number> {
  const status = await readFile(`/proc/${processId}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) * 1024;
}

const mb = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10;
const ms = (value: number) => Math.round(value * 1000) / 1000;
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: ms(percentile(sorted, 50)),
    p95: ms(percentile(sorted, 95)),
    p99: ms(percentile(sorted, 99)),
  };
};

// ── Idle ───────────────────────────────────────────────────────────────────────────────────

await new Promise((r) => setTimeout(r, 2_000));
const idleRss = await rssBytes(pid);

// ── Sequential turns: overhead ─────────────────────────────────────────────────────────────

for (let i = 0; i < WARMUP; i += 1) await restTurn('bench-sequential', 'warm-up');
const roundTrips: number[] = [];
const fakeTimes: number[] = [];
const overheads: number[] = [];
let unmatched = 0;
for (let i = 0; i < TURNS; i += 1) {
  const sample = await restTurn('bench-sequential', 'sequential');
  roundTrips.push(sample.roundTripMs);
  if (sample.fakeMs === undefined) {
    unmatched += 1;
    continue;
  }
  fakeTimes.push(sample.fakeMs);
  overheads.push(sample.roundTripMs - sample.fakeMs);
}

// The memory tiers as the gateway reports them (semantic search needs the embedder).
const status = JSON.parse((await call('GET', '/api/v1/status')).text) as {
  memory?: { semantic_available?: boolean | null };
  backends?: Record<string, string>;
};

// ── Throughput: N clients, each on its own session ──────────────────────────────────────────

async function concurrentTurns(
  label: string,
  clients: number,
  limit: { turns: number; seconds: number },
): Promise<{ turns: number; seconds: number; overheads: number[]; gatewayCpuMs: number }> {
  let started = 0;
  let completed = 0;
  const loadedOverheads: number[] = [];
  const cpuBefore = await cpuMs(pid);
  const begin = performance.now();
  const deadline = begin + limit.seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (started < limit.turns && performance.now() < deadline) {
        started += 1;
        const sample = await restTurn(`bench-${label}-${client}`, label);
        completed += 1;
        if (sample.fakeMs !== undefined) loadedOverheads.push(sample.roundTripMs - sample.fakeMs);
      }
    }),
  );
  const seconds = (performance.now() - begin) / 1000;
  return {
    turns: completed,
    seconds,
    overheads: loadedOverheads,
    gatewayCpuMs: (await cpuMs(pid)) - cpuBefore,
  };
}

const benchCpuBefore = process.cpuUsage();
const throughput = await concurrentTurns('throughput', CLIENTS, {
  turns: MAX_TURNS,
  seconds: DURATION_S,
});
const benchCpu = process.cpuUsage(benchCpuBefore);

// ── WebSocket: the fake's first text frame → the client's first message_chunk ─────────────

interface WsSample {
  firstChunk: number;
  done: number;
  message: string;
}

const socket = new WebSocket(`${gateway.url.replace(/^http/, 'ws')}/ws`);
await new Promise<void>((resolvePromise, reject) => {
  socket.addEventListener('open', () => resolvePromise(), { once: true });
  socket.addEventListener('error', () => reject(new Error('WebSocket connect failed')), {
    once: true,
  });
});
let pendingWs:
  | { sample: Partial<WsSample>; resolve: (sample: WsSample) => void; reject: (e: Error) => void }
  | undefined;
socket.addEventListener('message', (event) => {
  const at = performance.now();
  const frame = JSON.parse(String(event.data)) as { type: string; text?: string; detail?: string };
  if (!pendingWs) return;
  if (frame.type === 'message_chunk' && frame.text) pendingWs.sample.firstChunk ??= at;
  else if (frame.type === 'message_done') {
    pendingWs.sample.done = at;
    pendingWs.resolve(pendingWs.sample as WsSample);
    pendingWs = undefined;
  } else if (frame.type === 'error') {
    pendingWs.reject(new Error(frame.detail ?? 'error frame'));
    pendingWs = undefined;
  }
});
function wsTurn(sessionId: string): Promise<WsSample> {
  const message = nextMessage('ws');
  return new Promise<WsSample>((resolvePromise, reject) => {
    pendingWs = { sample: { message }, resolve: resolvePromise, reject };
    socket.send(JSON.stringify({ type: 'chat', message, session_id: sessionId }));
  });
}

for (let i = 0; i < 20; i += 1) takeFakeTiming((await wsTurn('bench-ws')).message);
const firstChunkGaps: number[] = [];
const firstByteGaps: number[] = [];
const wsTurnTimes: number[] = [];
for (let i = 0; i < WS_TURNS; i += 1) {
  const sample = await wsTurn('bench-ws');
  const timing = takeFakeTiming(sample.message);
  if (timing?.firstText === undefined || timing.firstByte === undefined) {
    unmatched += 1;
    continue;
  }
  firstChunkGaps.push(sample.firstChunk - timing.firstText);
  firstByteGaps.push(sample.firstChunk - timing.firstByte);
  if (timing.end !== undefined) wsTurnTimes.push(sample.done - timing.end);
}
socket.close();

// ── RSS after many turns ───────────────────────────────────────────────────────────────────

const soak = await concurrentTurns('soak', CLIENTS, { turns: RSS_TURNS, seconds: 3_600 });
const rssAfter = await rssBytes(pid);
// V8's memory reducer shrinks an idle heap after several seconds without allocation.
await new Promise((r) => setTimeout(r, SETTLE_S * 1000));
const rssSettled = await rssBytes(pid);
const rssPeak = await peakRss(pid);

await gateway.stop();
agent.destroy();
await fake.close();
await rm(configDir, { recursive: true, force: true });

// ── Report ─────────────────────────────────────────────────────────────────────────────────

const overhead = stats(overheads);
const messagesPerS = Math.round(throughput.turns / throughput.seconds);
const firstChunk = stats(firstChunkGaps);
const totalTurns = WARMUP + TURNS + throughput.turns + 20 + WS_TURNS + soak.turns;
const figures = {
  node: process.version,
  gateway: `${GATEWAY_ENTRY} (separate process)`,
  gateway_node_options: GATEWAY_NODE_OPTIONS,
  model: 'custom/bench-model (OpenAI-compatible provider) → in-process fake LLM, instant replies',
  runtime: {
    allocator: status.backends?.allocator ?? 'unknown',
    heap: status.backends?.heap ?? 'unknown',
  },
  memory: {
    short_term: status.backends?.short_term ?? 'unknown',
    vectors: status.backends?.vectors ?? 'unknown',
    database: status.backends?.database ?? 'unknown',
    embedder: status.backends?.embedder ?? 'unknown',
    semantic_available: status.memory?.semantic_available ?? null,
    note: 'no local embedding model in the bench home: semantic search is skipped each turn',
  },
  sequential: {
    warmup_turns: WARMUP,
    turns: TURNS,
    unmatched_fake_timings: unmatched,
    overhead_ms: overhead,
    round_trip_ms: stats(roundTrips),
    fake_llm_ms: stats(fakeTimes),
    target_overhead_p50_ms: TARGETS.overhead_p50_ms,
  },
  throughput: {
    clients: CLIENTS,
    turns: throughput.turns,
    seconds: Math.round(throughput.seconds * 100) / 100,
    messages_per_s: messagesPerS,
    overhead_under_load_ms: stats(throughput.overheads),
    gateway_cpu_ms_per_turn: ms(throughput.gatewayCpuMs / throughput.turns),
    bench_process_cpu_ms_per_turn: ms((benchCpu.user + benchCpu.system) / 1000 / throughput.turns),
    target_messages_per_s: TARGETS.messages_per_s,
  },
  websocket: {
    turns: WS_TURNS,
    chunk_delay_ms: defaultReply.chunkDelayMs,
    first_text_frame_to_first_chunk_ms: firstChunk,
    first_byte_to_first_chunk_ms: stats(firstByteGaps),
    fake_end_to_message_done_ms: stats(wsTurnTimes),
    target_first_chunk_p50_ms: TARGETS.ws_first_chunk_p50_ms,
  },
  rss: {
    idle_mb: mb(idleRss),
    soak_turns: soak.turns,
    soak_messages_per_s: Math.round(soak.turns / soak.seconds),
    total_turns: totalTurns,
    after_turns_mb: mb(rssAfter),
    settle_s: SETTLE_S,
    after_idle_mb: mb(rssSettled),
    peak_mb: mb(rssPeak),
    target_mb: TARGETS.rss_after_turns_mb,
  },
  background_llm_requests: backgroundRequests,
  errors,
};

const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED');
const rows: [string, string, string, string][] = [
  [
    'turn overhead p50 / p95',
    `${overhead.p50} / ${overhead.p95} ms`,
    `≤ ${TARGETS.overhead_p50_ms} ms p50`,
    verdict(overhead.p50 <= TARGETS.overhead_p50_ms),
  ],
  [
    'REST round trip p50 / p95',
    `${figures.sequential.round_trip_ms.p50} / ${figures.sequential.round_trip_ms.p95} ms`,
    '',
    '',
  ],
  [
    'fake LLM own time p50 / p95',
    `${figures.sequential.fake_llm_ms.p50} / ${figures.sequential.fake_llm_ms.p95} ms`,
    '',
    '',
  ],
  [
    `throughput, ${CLIENTS} clients`,
    `${messagesPerS} msg/s (${throughput.turns} turns)`,
    `≥ ${TARGETS.messages_per_s}/s`,
    verdict(messagesPerS >= TARGETS.messages_per_s),
  ],
  [
    'WS first chunk p50 / p95',
    `${firstChunk.p50} / ${firstChunk.p95} ms`,
    `≤ ${TARGETS.ws_first_chunk_p50_ms} ms p50`,
    verdict(firstChunk.p50 <= TARGETS.ws_first_chunk_p50_ms),
  ],
  ['idle RSS', `${figures.rss.idle_mb} MB`, '', ''],
  [
    `RSS after ${totalTurns} turns, ${SETTLE_S} s idle`,
    `${figures.rss.after_idle_mb} MB`,
    `≤ ${TARGETS.rss_after_turns_mb} MB`,
    verdict(figures.rss.after_idle_mb <= TARGETS.rss_after_turns_mb),
  ],
  [
    'RSS as the load stops / peak',
    `${figures.rss.after_turns_mb} / ${figures.rss.peak_mb} MB`,
    '',
    '',
  ],
];
const widths = [0, 1, 2, 3].map((c) =>
  Math.max(...rows.map((r) => r[c]?.length ?? 0), ['figure', 'value', 'target', ''][c]!.length),
);
const line = (cells: readonly string[]) =>
  cells
    .map((cell, c) => cell.padEnd(widths[c] ?? 0))
    .join('  ')
    .trimEnd();
const out = process.stdout;
out.write(
  `chat bench: ${figures.model}\n` +
    `memory: short-term ${figures.memory.short_term}, vectors ${figures.memory.vectors}, ` +
    `database ${figures.memory.database}, embedder ${figures.memory.embedder} ` +
    `(semantic search skipped: no local embedding model)\n` +
    `gateway process: allocator ${figures.runtime.allocator}; heap ${figures.runtime.heap}\n\n`,
);
out.write(`${line(['figure', 'value', 'target', ''])}\n`);
for (const row of rows) out.write(`${line(row)}\n`);
out.write(
  `\nunder load: overhead p50 ${figures.throughput.overhead_under_load_ms.p50} ms, gateway CPU ` +
    `${figures.throughput.gateway_cpu_ms_per_turn} ms/turn, bench process (client + fake) CPU ` +
    `${figures.throughput.bench_process_cpu_ms_per_turn} ms/turn\n` +
    `WS: first byte (role frame) → first chunk p50 ${figures.websocket.first_byte_to_first_chunk_ms.p50} ms ` +
    `(includes one ${defaultReply.chunkDelayMs} ms frame delay); fake end → message_done p50 ` +
    `${figures.websocket.fake_end_to_message_done_ms.p50} ms\n` +
    `soak: ${soak.turns} turns at ${figures.rss.soak_messages_per_s} msg/s; background LLM requests (compaction) ` +
    `${backgroundRequests}; errors ${errors}; unmatched timings ${unmatched}\n` +
    'OpenClaw, same kind of machine, instant fake LLM: ~450–570 ms p50 per message, ~2 msg/s ' +
    'with 8 clients, ~1.1 GB RSS idle\n',
);
await mkdir('bench/results', { recursive: true });
await writeFile('bench/results/chat.json', `${JSON.stringify(figures, null, 2)}\n`);
