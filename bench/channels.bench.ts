/**
 * Channel figures (node bench/channels.bench.ts): a real gateway in this process (the chat test
 * bed: SQLite, hash embedder, every model on the fake LLM server, which answers "ok").
 *
 * - Added latency of the channel path over a REST turn (p50): a REST turn is `POST /chat` →
 *   response; a channel turn is a signed `POST /channels/webhook/{name}` delivery → the reply
 *   arriving at the channel's callback URL (verification, storage, pairing and rate checks, the
 *   same pipeline turn, storage of the reply, the signed callback POST). BENCH_RUNS (200) each,
 *   after 20 warm-up turns, alternating.
 * - Messages/s through the Telegram adapter: grammY long polling against the fake Bot API on
 *   127.0.0.1, 50 chats sending BENCH_PER_CHAT (20) messages each; the clock runs from the first
 *   update queued to the last reply received by the fake's sendMessage.
 */
import { channelSchema } from '../gateway/src/config/schema.ts';
import { signedHeaders } from '../gateway/src/channels/webhook/signature.ts';
import { startCallbackServer } from '../gateway/src/channels/testing/callback-server.ts';
import { startFakeTelegram } from '../gateway/src/channels/testing/fake-telegram.ts';
import { startChatTestBed } from '../gateway/src/testing/gateway/chat-gateway.ts';
import { percentile } from './process.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARM_UP = 20;
const CHATS = 50;
const PER_CHAT = Number(process.env.BENCH_PER_CHAT ?? 20);
const SECRET = 'bench-secret';
const TOKEN = '1:bench';

const callback = await startCallbackServer(SECRET);
const telegram = await startFakeTelegram(TOKEN);
const chats = Array.from({ length: CHATS }, (_, i) => 10_000 + i);
const bed = await startChatTestBed(undefined, {
  config: {
    channels: {
      hooks: channelSchema.parse({
        type: 'webhook',
        signing_secret: SECRET,
        callback_url: callback.url,
        allow_from: ['bench'],
        rate_limit_per_minute: 10_000,
      }),
      tg: channelSchema.parse({
        type: 'telegram',
        bot_token: TOKEN,
        api_root: telegram.apiRoot,
        allow_from: chats.map(String),
        rate_limit_per_minute: 10_000,
      }),
    },
  },
});

async function restTurn(): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${bed.gw.url}/api/v1/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'hello', session_id: 'bench-rest' }),
  });
  await res.json();
  return performance.now() - started;
}

let seq = 0;
async function channelTurn(): Promise<number> {
  const body = JSON.stringify({ id: `b-${(seq += 1)}`, sender: 'bench', text: 'hello' });
  const started = performance.now();
  const reply = callback.next();
  const res = await fetch(`${bed.gw.url}/api/v1/channels/webhook/hooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...signedHeaders(SECRET, Date.now(), body) },
    body,
  });
  await res.json();
  await reply;
  return performance.now() - started;
}

for (let i = 0; i < WARM_UP; i += 1) {
  await restTurn();
  await channelTurn();
}
const rest: number[] = [];
const channel: number[] = [];
for (let i = 0; i < RUNS; i += 1) {
  rest.push(await restTurn());
  channel.push(await channelTurn());
}
rest.sort((a, b) => a - b);
channel.sort((a, b) => a - b);
const p50Rest = percentile(rest, 50);
const p50Channel = percentile(channel, 50);
process.stdout.write(
  `REST turn p50 ${p50Rest.toFixed(2)} ms; webhook channel turn p50 ${p50Channel.toFixed(2)} ms; ` +
    `added by the channel path: ${(p50Channel - p50Rest).toFixed(2)} ms (p95 ${percentile(channel, 95).toFixed(2)} vs ${percentile(rest, 95).toFixed(2)} ms, ${RUNS} runs each)\n`,
);

// Telegram throughput: wait for the poller, then 50 chats × PER_CHAT messages.
for (;;) {
  const res = await fetch(`${bed.gw.url}/api/v1/channels/tg`);
  if (((await res.json()) as { status: string }).status === 'connected') break;
  await new Promise((resolve) => setTimeout(resolve, 50));
}
const total = CHATS * PER_CHAT;
telegram.skipSent();
const started = performance.now();
for (let round = 0; round < PER_CHAT; round += 1)
  for (const chat of chats) telegram.message({ from: chat, text: `message ${round}` });
await telegram.nextSent(total, 300_000);
const seconds = (performance.now() - started) / 1000;
process.stdout.write(
  `Telegram adapter (grammY, fake Bot API): ${total} messages from ${CHATS} chats answered in ${seconds.toFixed(2)} s = ${(total / seconds).toFixed(1)} messages/s\n`,
);

await bed.close();
await telegram.close();
await callback.close();
