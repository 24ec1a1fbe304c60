/**
 * Soak (npm run bench:soak): an hour of mixed use against the built gateway (`dist/`, as
 * `npm start` runs it) as a child process on a fresh state directory, everything on 127.0.0.1,
 * and whether it stays flat.
 *
 * The traffic, all at once, each operation checked end to end (bench/soak/traffic.ts):
 * - REST chat turns (`POST /api/v1/chat`) and streamed turns on `/ws/chat`, memory on (the
 *   default tiers: in-process short-term, in-memory vectors, SQLite long-term);
 * - a webhook channel (signed deliveries in, signed replies to a callback server) and a
 *   Telegram channel (grammY long polling against the fake Bot API);
 * - gated shell commands the model asks for, approved and denied over `/approvals`;
 * - a skill installed over `POST /skills` (behind bubblewrap; without it skills are refused and
 *   the soak fails), called by the model and over `POST /mcp/tools/soak_add/call`;
 * - an external stdio MCP server (`[[mcp.servers]] fx`, its `echo` allowlisted), called by the
 *   model and over `POST /mcp/tools/fx__echo/call`;
 * - canvas blocks rendered and cleared, watched by a viewer on `/ws/canvas`;
 * - `hearth backup create` + `verify` (the built CLI) every SOAK_BACKUP_EVERY_S.
 * The model is the fake LLM (bench/soak/far-ends.ts), answering at once.
 *
 * Every SOAK_SAMPLE_S (60) it prints a row (bench/soak/samples.ts): the gateway's RSS (the
 * median of samples every 5 s since the previous row; anonymous and file-backed), its V8 heap
 * (in use, reserved, old space and large objects reserved) and its workers', its ArrayBuffers and
 * V8's malloc'ed memory (/api/v1/metrics), descriptors (/proc), CPU, event-loop delay p99 and max
 * (`nodejs_eventloop_lag_*_seconds`: the gateway's last full minute) beside a control process's
 * (bench/soak/control-loop.ts: as much CPU as the gateway, measured the same way, so what a busy
 * process on this machine waits anyway shows apart), the load average, active sessions and
 * resources, and the operations of each kind. The verdict (bench/soak/verdict.ts): no failed
 * operation and no error in the gateway's log, every kind ran, a clean exit on SIGTERM; over the
 * last half of the run (the last 30 minutes of an hour) RSS within ±SOAK_RSS_BAND_PERCENT (10)
 * of its first reading there, descriptors at most SOAK_FD_SLACK (16) above it, and event-loop
 * delay p99 at most SOAK_MAX_LOOP_P99_MS (100) above the control's every minute. Exit code 1 on
 * FAIL. The first line says the allocator and heap flags in effect (`backends` of /status).
 *
 * Env: SOAK_MINUTES (60), SOAK_SAMPLE_S (60), SOAK_BACKUP_EVERY_S (300; the first one after
 * 30 s), SOAK_OUT (bench/results/soak.json), SOAK_GATEWAY_ENTRY (dist/gateway/src/main.js),
 * SOAK_CLI (cli-ink/bin/hearth.js), SOAK_RSS_BAND_PERCENT, SOAK_MAX_LOOP_P99_MS, SOAK_FD_SLACK,
 * SOAK_KINDS (some of rest,ws,webhook,telegram,approval,skill,mcp,canvas,backup: to find which
 * kind of traffic a growth comes with), SOAK_GATEWAY_NODE_OPTIONS (Node flags for the gateway,
 * e.g. --heapsnapshot-signal=SIGUSR2; none by default, as `npm start` runs it).
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIXTURE_STDIO_SERVER } from '../gateway/src/mcp/testing/mcp-test-bed.ts';
import { startFarEnds, TELEGRAM_TOKEN, WEBHOOK_SECRET } from './soak/far-ends.ts';
import { startGatewayChild } from './soak/gateway-child.ts';
import { createRecorder } from './soak/recorder.ts';
import { cpuSeconds, readProcess, rssMb, startControlLoop } from './soak/samples.ts';
import {
  backup,
  canvas,
  createApi,
  gatedCommand,
  mcpCall,
  restChat,
  runLoop,
  skillCall,
  telegramChannel,
  TELEGRAM_CHATS,
  webhookChannel,
  wsChat,
} from './soak/traffic.ts';
import { tableHeader, tableRow, verdict, type MinuteRow } from './soak/verdict.ts';

const number = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    process.stderr.write(`${name} must be a positive number, got '${raw}'\n`);
    process.exit(2);
  }
  return value;
};

const MINUTES = number('SOAK_MINUTES', 60);
const SAMPLE_S = number('SOAK_SAMPLE_S', 60);
const BACKUP_EVERY_S = number('SOAK_BACKUP_EVERY_S', 300);
const REPO = fileURLToPath(new URL('..', import.meta.url));
const OUT = resolve(process.env.SOAK_OUT || join(REPO, 'bench/results/soak.json'));
const ENTRY = resolve(process.env.SOAK_GATEWAY_ENTRY || join(REPO, 'dist/gateway/src/main.js'));
const CLI = resolve(process.env.SOAK_CLI || join(REPO, 'cli-ink/bin/hearth.js'));
const THRESHOLDS = {
  rssBandPercent: number('SOAK_RSS_BAND_PERCENT', 10),
  maxLoopP99Ms: number('SOAK_MAX_LOOP_P99_MS', 100),
  fdSlack: number('SOAK_FD_SLACK', 16),
};

/** Pause between two operations of one worker, ms (a steady, moderate load on 2 cores). */
const PACE = {
  rest: 200,
  ws: 250,
  webhook: 1_000,
  telegram: 1_000,
  approval: 3_000,
  skill: 1_500,
  mcp: 1_500,
  canvas: 500,
};
const ALL_KINDS = [
  'rest',
  'ws',
  'webhook',
  'telegram',
  'approval',
  'skill',
  'mcp',
  'canvas',
  'backup',
] as const;
type Kind = (typeof ALL_KINDS)[number];
/** SOAK_KINDS narrows the traffic to some kinds (comma-separated), to find which one grows. */
const KINDS: readonly Kind[] = (() => {
  const given = process.env.SOAK_KINDS?.split(',')
    .map((kind) => kind.trim())
    .filter(Boolean);
  if (!given) return ALL_KINDS;
  const unknown = given.filter((kind) => !(ALL_KINDS as readonly string[]).includes(kind));
  if (unknown.length > 0) {
    process.stderr.write(
      `SOAK_KINDS: unknown ${unknown.join(', ')} (known: ${ALL_KINDS.join(', ')})\n`,
    );
    process.exit(2);
  }
  return ALL_KINDS.filter((kind) => given.includes(kind));
})();
const GATEWAY_NODE_OPTIONS = process.env.SOAK_GATEWAY_NODE_OPTIONS ?? '';

const SKILL = `/**
 * Adds two numbers.
 * @param {number} a
 * @param {number} b
 */
export function add(a, b) {
  return a + b;
}
`;

const out = (text: string) => process.stdout.write(`${text}\n`);

if (!existsSync(ENTRY) || !existsSync(join(dirname(ENTRY), '..', '..', 'cli-ink'))) {
  process.stderr.write(`${ENTRY} or the built CLI is missing: run 'npm run build' first\n`);
  process.exit(2);
}

const root = await mkdtemp(join(tmpdir(), 'hearth-soak-'));
const home = join(root, 'home');
const backupsDir = join(root, 'backups');
await mkdir(home, { mode: 0o700 });
await mkdir(backupsDir, { mode: 0o700 });
const farEnds = await startFarEnds();

const toml = (value: string) => JSON.stringify(value);
await writeFile(
  join(home, 'config.toml'),
  [
    '[gateway]',
    'log_level = "warn"',
    '',
    '[models]',
    'primary = "custom/soak-model"',
    'fallback = ""',
    'fast = ""',
    'local = ""',
    'openai_api_key = "sk-soak"',
    `openai_compatible_base_url = ${toml(`${farEnds.llm.url}/v1`)}`,
    'openai_compatible_api_key = "sk-soak"',
    '',
    '[channels.hooks]',
    'type = "webhook"',
    `signing_secret = ${toml(WEBHOOK_SECRET)}`,
    `callback_url = ${toml(farEnds.callback.url)}`,
    'allow_from = ["soak"]',
    'rate_limit_per_minute = 10000',
    '',
    '[channels.tg]',
    'type = "telegram"',
    `bot_token = ${toml(TELEGRAM_TOKEN)}`,
    `api_root = ${toml(farEnds.telegram.apiRoot)}`,
    `allow_from = [${TELEGRAM_CHATS.map((chat) => toml(String(chat))).join(', ')}]`,
    'rate_limit_per_minute = 10000',
    '',
    '[[mcp.servers]]',
    'name = "fx"',
    `command = ${toml(process.execPath)}`,
    `args = [${toml(FIXTURE_STDIO_SERVER)}]`,
    'tools = ["echo"]',
    '',
  ].join('\n'),
  { mode: 0o600 },
);

const gateway = await startGatewayChild({ entry: ENTRY, home, nodeOptions: GATEWAY_NODE_OPTIONS });
const api = createApi(gateway.url);
const wsUrl = gateway.url.replace(/^http/, 'ws');
let gatewayDied: string | null = null;
let stopping = false;
void gateway.exited.then(({ code, signal }) => {
  if (!stopping) gatewayDied = `code ${code}, signal ${signal}`;
});

/** Polls the gateway until `check` holds, or fails the soak's set-up. */
async function setUp(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const end = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`set-up: ${what} not after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const setupProblems: string[] = [];
let backends: Record<string, string> = {};
try {
  const status = await api.call('GET', '/api/v1/status');
  backends = (status.json.backends ?? {}) as Record<string, string>;
  const allow = await api.call('POST', '/api/v1/approvals/allowlist', { pattern: 'mcp:fx/echo' });
  if (allow.status !== 200)
    throw new Error(`allowlist: ${allow.status} ${JSON.stringify(allow.json)}`);
  const skill = await api.call('POST', '/api/v1/skills', { name: 'soak', code: SKILL });
  if (skill.status !== 201 || skill.json.state !== 'active')
    throw new Error(
      `the skill was not installed and loaded (skills: ${backends.skills ?? 'unknown'}): ${skill.status} ${JSON.stringify(skill.json).slice(0, 500)}`,
    );
  await setUp('MCP server fx connected', async () => {
    const res = await api.call('GET', '/api/v1/mcp/servers/fx');
    return res.json.state === 'connected';
  });
  await setUp('Telegram channel connected', async () => {
    const res = await api.call('GET', '/api/v1/channels/tg');
    return res.json.status === 'connected';
  });
} catch (error) {
  setupProblems.push(error instanceof Error ? error.message : String(error));
}

const started = performance.now();
const recorder = createRecorder(started);
const rows: MinuteRow[] = [];
const elapsedS = () => (performance.now() - started) / 1000;
const durationS = MINUTES * 60;
const stopped = () => stopping || gatewayDied !== null || elapsedS() >= durationS;

out(
  `soak: ${MINUTES} min against ${ENTRY} (pid ${gateway.pid}), readings every ${SAMPLE_S} s; ` +
    `skills: ${backends.skills ?? 'unknown'}; allocator: ${backends.allocator ?? 'unknown'}; ` +
    `heap: ${backends.heap ?? 'unknown'}; node ${process.version}`,
);
if (setupProblems.length > 0) {
  out(`set-up failed: ${setupProblems.join('; ')}`);
}

const control = startControlLoop();
let lastCpu: { at: number; seconds: number } | undefined;
/** RSS every RSS_EVERY_S between readings: a reading's RSS is the median of its interval. */
const RSS_EVERY_S = Math.min(5, SAMPLE_S);
let rssSamples: number[] = [];
const rssSampler = setInterval(() => {
  rssMb(gateway.pid).then(
    (rss) => rssSamples.push(rss.total),
    () => undefined,
  );
}, RSS_EVERY_S * 1000);

async function reading(minute: number): Promise<void> {
  try {
    const at = performance.now();
    const cpu = await cpuSeconds(gateway.pid);
    const cpuPercent = lastCpu
      ? Math.round(((cpu - lastCpu.seconds) / ((at - lastCpu.at) / 1000)) * 100)
      : null;
    lastCpu = { at, seconds: cpu };
    const [figures, controlFigures] = await Promise.all([
      readProcess(gateway.pid, api),
      control.read(cpuPercent === null ? null : cpuPercent / 100),
    ]);
    const samples = [...rssSamples, figures.rss_mb].sort((a, b) => a - b);
    rssSamples = [];
    const row: MinuteRow = {
      minute,
      at_s: Math.round(elapsedS()),
      ...figures,
      rss_now_mb: figures.rss_mb,
      rss_mb: samples[Math.floor((samples.length - 1) / 2)]!,
      rss_min_mb: samples[0]!,
      rss_max_mb: samples.at(-1)!,
      rss_samples: samples.length,
      cpu_percent: cpuPercent,
      control_p99_ms: controlFigures?.p99 ?? null,
      control_max_ms: controlFigures?.max ?? null,
      load: Math.round(loadavg()[0]! * 10) / 10,
      traffic: recorder.takeInterval(),
    };
    rows.push(row);
    out(tableRow(row, KINDS));
  } catch (error) {
    recorder.fail('reading', error);
  }
  farEnds.trim();
}

const workers: Promise<void>[] = [];
if (setupProblems.length === 0) {
  out(tableHeader(KINDS));
  await reading(0);
  const ws = wsChat(wsUrl);
  const board = canvas(api, wsUrl);
  const backupOnce = backup({ cli: CLI, home, dir: backupsDir });
  const loops: Record<Kind, () => Promise<void>[]> = {
    rest: () => [
      runLoop('rest', PACE.rest, restChat(api), recorder, stopped),
      runLoop('rest', PACE.rest, restChat(api), recorder, stopped),
    ],
    ws: () => [
      runLoop('ws', PACE.ws, (n) => ws.turn(n), recorder, stopped).finally(() => ws.close()),
    ],
    webhook: () => [
      runLoop('webhook', PACE.webhook, webhookChannel(gateway.url, farEnds), recorder, stopped),
    ],
    telegram: () => [
      runLoop('telegram', PACE.telegram, telegramChannel(farEnds), recorder, stopped),
    ],
    approval: () => [runLoop('approval', PACE.approval, gatedCommand(api), recorder, stopped)],
    skill: () => [runLoop('skill', PACE.skill, skillCall(api), recorder, stopped)],
    mcp: () => [runLoop('mcp', PACE.mcp, mcpCall(api), recorder, stopped)],
    canvas: () => [
      runLoop('canvas', PACE.canvas, (n) => board.step(n), recorder, stopped).finally(() =>
        board.close(),
      ),
    ],
    backup: () => [
      (async () => {
        await new Promise((r) => setTimeout(r, Math.min(30_000, (durationS * 1000) / 4)));
        await runLoop('backup', BACKUP_EVERY_S * 1000, backupOnce, recorder, stopped);
      })(),
    ],
  };
  for (const kind of KINDS) workers.push(...loops[kind]());
  // The readings, on a fixed schedule from the start.
  for (let next = 1; next * SAMPLE_S <= durationS + 1e-9; next += 1) {
    const wait = next * SAMPLE_S * 1000 - (performance.now() - started);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (gatewayDied !== null) break;
    await reading(Math.round(((next * SAMPLE_S) / 60) * 100) / 100);
  }
}

stopping = true;
clearInterval(rssSampler);
const drained = await Promise.race([
  Promise.allSettled(workers).then(() => true),
  new Promise<false>((r) => setTimeout(() => r(false), 120_000)),
]);
if (!drained)
  recorder.fail('soak', new Error('some operations were still running 120 s after the end'));
const shutdown = gatewayDied === null ? await gateway.stop() : null;
control.close();
await farEnds.close();
await rm(root, { recursive: true, force: true });

const totals = recorder.totals();
if (setupProblems.length > 0)
  for (const problem of setupProblems) recorder.fail('set-up', new Error(problem));
const result = verdict({
  rows,
  minutes: MINUTES,
  thresholds: THRESHOLDS,
  kinds: setupProblems.length > 0 ? [] : KINDS,
  totals,
  failedOperations: recorder.failed(),
  gatewayLogErrors: gateway.logs.errors,
  gatewayDied,
  shutdown,
});

out('');
out('totals (ok / failed, latency p50 / p95 ms):');
for (const [kind, figures] of Object.entries(totals))
  out(
    `  ${kind.padEnd(9)} ${String(figures.ok).padStart(7)} / ${figures.failed}   ${figures.p50_ms ?? '–'} / ${figures.p95_ms ?? '–'}`,
  );
out(
  `gateway log: ${gateway.logs.errors} errors, ${gateway.logs.warnings} warnings` +
    (shutdown ? `; SIGTERM → exit ${shutdown.code ?? shutdown.signal} in ${shutdown.ms} ms` : ''),
);
for (const line of gateway.logs.firstErrors.slice(0, 10))
  out(`  error ${line.at} ${line.msg}${line.detail ? ` (${line.detail})` : ''}`);
for (const line of gateway.logs.firstWarnings.slice(0, 10))
  out(`  warning ${line.at} ${line.msg}${line.detail ? ` (${line.detail})` : ''}`);
for (const failure of recorder.failures().slice(0, 20))
  out(`  failed ${failure.kind} at ${failure.at_s} s: ${failure.detail}`);
const w = result.window;
out(
  `last half (from minute ${w.from_minute}, ${w.readings} readings): RSS ${w.rss_min_mb}–${w.rss_max_mb} MB ` +
    `(drift ${w.rss_drift_percent} %, spread ${w.rss_spread_percent} %, band ±${THRESHOLDS.rssBandPercent} % of ${w.rss_reference_mb} MB); ` +
    `event-loop p99 max ${w.loop_p99_max_ms} ms, at most ${w.loop_p99_excess_max_ms} ms above the control's (limit ${THRESHOLDS.maxLoopP99Ms}); ` +
    `descriptors ${w.fds_reference} → max ${w.fds_max} (slack ${THRESHOLDS.fdSlack})`,
);
out(
  result.pass
    ? 'VERDICT: PASS'
    : `VERDICT: FAIL\n${result.reasons.map((r) => `  - ${r}`).join('\n')}`,
);

await mkdir(dirname(OUT), { recursive: true });
await writeFile(
  OUT,
  `${JSON.stringify(
    {
      node: process.version,
      gateway: ENTRY,
      minutes: MINUTES,
      sample_s: SAMPLE_S,
      backup_every_s: BACKUP_EVERY_S,
      pace_ms: PACE,
      thresholds: THRESHOLDS,
      backends,
      verdict: result.pass ? 'PASS' : 'FAIL',
      reasons: result.reasons,
      last_half: result.window,
      totals,
      failures: recorder.failures(),
      gateway_log: gateway.logs,
      shutdown,
      readings: rows,
    },
    null,
    2,
  )}\n`,
);
out(`results: ${OUT}`);
process.exit(result.pass ? 0 : 1);
