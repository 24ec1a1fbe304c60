/**
 * A chat turn whose web search the provider paused (`pause_turn`) reaches the user as one
 * reply, on REST and streamed over /ws; the searches it ran show up in GET /usage (count and
 * fees in the cost) and in the `web_searches_total` metric.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import type { ReplyScript, ScriptedWebSearch } from '../testing/fakes/fake-llm/script.ts';
import { arrayOf, bodyOf, isObject } from '../testing/fakes/fake-llm/wire.ts';

const RELEASES: ScriptedWebSearch = {
  query: 'hearth release',
  results: [{ url: 'https://example.org/hearth/releases', title: 'Hearth releases' }],
};
const NEWS: ScriptedWebSearch = {
  query: 'hearth news',
  results: [{ url: 'https://example.com/news/hearth', title: 'Hearth news' }],
};
const MODELS = { primary: 'claude-sonnet-4-5', fallback: '', fast: '', local: 'ollama/llama3.2' };
const WEB_SEARCH = { config: { models: { web_search_enabled: true } } };

/** A search, then the server pauses; the continuation searches again and answers. */
const PAUSED: ReplyScript[] = [
  {
    webSearch: RELEASES,
    chunks: ['Hearth 2.1 ', 'is out. '],
    text: 'Hearth 2.1 is out. ',
    pauseTurn: 'after-search',
    usage: { inputTokens: 1000, outputTokens: 100 },
  },
  {
    webSearch: NEWS,
    chunks: ['It adds ', 'web search.'],
    text: 'It adds web search.',
    usage: { inputTokens: 2000, outputTokens: 200 },
  },
];
const REPLY = 'Hearth 2.1 is out. It adds web search.';

/** Sends one chat frame on /ws; resolves with the streamed chunks and the message_done frame. */
async function streamOverWs(url: string, frame: unknown) {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const chunks: string[] = [];
  const done = new Promise<Record<string, unknown>>((resolve) =>
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as Record<string, unknown>;
      if (message.type === 'message_chunk') chunks.push(String(message.text));
      if (message.type === 'message_done') resolve(message);
    }),
  );
  socket.send(JSON.stringify(frame));
  const last = await done;
  socket.close();
  return { chunks, done: last };
}

describe('a paused web search turn in chat', () => {
  let bed: ChatTestBed;
  beforeAll(async () => {
    bed = await startChatTestBed(MODELS, WEB_SEARCH);
  });
  afterAll(() => bed.close());
  afterEach(() => bed.fake.reset());

  it('REST: one reply over the paused turn and its continuation', async () => {
    bed.fake.reply(...PAUSED);
    const chat = await bed.post('/chat', { message: 'what is new in hearth?' });
    expect(chat.status).toBe(200);
    expect(chat.body).toMatchObject({ reply: REPLY, tokens: { input: 3000, output: 300 } });
    expect((chat.body.sources as { url: string }[]).map((source) => source.url)).toEqual([
      RELEASES.results[0]!.url,
      NEWS.results[0]!.url,
    ]);
    expect(bed.fake.requests).toHaveLength(2);
    const continuation = arrayOf(bodyOf(bed.fake.requests[1]!).messages).filter(isObject);
    expect(continuation.at(-1)?.role).toBe('assistant');
  });

  it('/ws: the continuation streams on after the paused text', async () => {
    bed.fake.reply(...PAUSED);
    const { chunks, done } = await streamOverWs(`ws://127.0.0.1:${bed.gw.port}/ws`, {
      type: 'chat',
      message: 'what is new in hearth?',
      session_id: 'paused-ws',
    });
    expect(chunks).toEqual(['Hearth 2.1 ', 'is out. ', 'It adds ', 'web search.']);
    expect(done).toMatchObject({ type: 'message_done', text: REPLY });
    expect(bed.fake.requests).toHaveLength(2);
  });
});

describe('web search fees in GET /usage and /metrics', () => {
  let bed: ChatTestBed;
  beforeAll(async () => {
    bed = await startChatTestBed(MODELS, WEB_SEARCH);
  });
  afterAll(() => bed.close());

  it('a turn with 2 searches: counted per model, $10 per 1,000 added to the cost', async () => {
    bed.fake.reply(...PAUSED);
    expect((await bed.post('/chat', { message: 'what is new in hearth?' })).status).toBe(200);

    // Tokens at claude-sonnet-4-5's $3 / $15 per 1M (3,000 in, 300 out) + 2 searches × $0.01.
    const cost = (3000 * 3 + 300 * 15) / 1_000_000 + 2 * 0.01;
    const usage = await bed.get('/usage');
    expect(usage.status).toBe(200);
    const model = (usage.body.models as Record<string, Record<string, number>>)[
      'claude-sonnet-4-5'
    ];
    expect(model).toMatchObject({ input_tokens: 3000, output_tokens: 300, web_searches: 2 });
    expect(model?.cost_usd).toBeCloseTo(cost, 8);
    expect(usage.body.total_cost_usd).toBeCloseTo(cost, 8);

    const metrics = await (await fetch(`${bed.gw.url}/api/v1/metrics`)).text();
    expect(metrics).toContain('web_searches_total{provider="anthropic"} 2');
    const costLine = metrics
      .split('\n')
      .find((line) =>
        line.startsWith('cost_usd_total{provider="anthropic",model="claude-sonnet-4-5"}'),
      );
    expect(Number(costLine?.split(' ').at(-1))).toBeCloseTo(cost, 8);
  });
});
