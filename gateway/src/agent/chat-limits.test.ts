import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { metricsSnapshot } from '../observability/metrics.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { MAX_REPORTED_MODELS } from '../usage/usage-tracker.ts';
import { MAX_WAITING_TURNS } from './chat-sockets.ts';

type Frame = Record<string, unknown> & { type: string };

/** A client that keeps every frame it reads and the close code. */
async function client(url: string) {
  const socket = new WebSocket(url);
  const frames: Frame[] = [];
  socket.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString()) as Frame));
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    frames,
    closed,
    send: (frame: unknown) => socket.send(JSON.stringify(frame)),
    /** Waits (bounded) until `count` frames match. */
    async waitFor(match: (f: Frame) => boolean, count = 1): Promise<Frame[]> {
      const deadline = Date.now() + 10_000;
      while (frames.filter(match).length < count && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10));
      return frames.filter(match);
    },
  };
}

const tooLongId = 'x'.repeat(201);
const megabyteId = 'x'.repeat(1_000_000);

async function liveSessions(bed: ChatTestBed) {
  return (await bed.get('/sessions?limit=1000')).body as {
    sessions: { id: string }[];
    total: number;
  };
}

describe('a session id has one shape everywhere (1 to 200 characters, a small set)', () => {
  let bed: ChatTestBed;
  let base: string;
  beforeAll(async () => {
    bed = await startChatTestBed();
    base = `ws://127.0.0.1:${bed.gw.port}`;
  });
  afterAll(() => bed.close());

  it.each([
    ['/chat', { message: 'hi', session_id: tooLongId }],
    ['/chat', { message: 'hi', session_id: 'has space' }],
    ['/chat/canvas', { message: 'hi', session_id: megabyteId.slice(0, 5000) }],
    ['/memory', { content: 'a note', session_id: tooLongId }],
    ['/memory/compact', { session_id: 'bad\nid' }],
  ])('POST %s refuses a bad session_id with 422 naming it', async (path, body) => {
    const before = (await liveSessions(bed)).total;
    const res = await bed.post(path, body);
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body.detail)).toContain('session_id');
    expect((await liveSessions(bed)).total).toBe(before);
  });

  it('accepts an id of exactly 200 characters', async () => {
    const res = await bed.post('/chat', { message: '/help', session_id: 'a'.repeat(200) });
    expect(res.status).toBe(200);
  });

  it('/ws answers a chat frame with a 1 MB session_id with an error frame and keeps nothing', async () => {
    const before = (await liveSessions(bed)).total;
    const c = await client(`${base}/ws`);
    c.send({ type: 'chat', message: '/help', session_id: megabyteId });
    const [error] = await c.waitFor((f) => f.type === 'error');
    expect(error?.detail).toMatch(/^session_id: /);
    expect((await liveSessions(bed)).total).toBe(before);
    c.socket.close();
  });

  it('/ws/chat answers a hello with a bad session_id with an error frame and keeps its session', async () => {
    const c = await client(`${base}/ws/chat`);
    c.send({ type: 'hello', session_id: megabyteId });
    const [error] = await c.waitFor((f) => f.type === 'error');
    expect(error?.detail).toMatch(/^session_id: /);
    c.send({ type: 'hello' });
    const [hello] = await c.waitFor((f) => f.type === 'hello');
    expect(String(hello?.session_id).length).toBeLessThanOrEqual(200);
    c.socket.close();
  });

  it('GET /memory and DELETE /sessions/{id} refuse a bad id with 422', async () => {
    expect((await bed.get(`/memory?session_id=${tooLongId}`)).status).toBe(422);
    const res = await fetch(`${bed.gw.url}/api/v1/sessions/${tooLongId}`, { method: 'DELETE' });
    expect(res.status).toBe(422);
  });
});

describe('live sessions are capped (least recently active evicted) and listed a page at a time', () => {
  let bed: ChatTestBed;
  beforeAll(async () => {
    bed = await startChatTestBed(undefined, { maxLiveSessions: 5 });
  });
  afterAll(() => bed.close());

  it('keeps the 5 most recently active of 8 sessions', async () => {
    for (let i = 1; i <= 8; i += 1) {
      expect((await bed.post('/chat', { message: '/help', session_id: `s${i}` })).status).toBe(200);
    }
    // s4 becomes the most recent; the least recent left is s5.
    await bed.post('/chat', { message: '/help', session_id: 's4' });
    await bed.post('/chat', { message: '/help', session_id: 's9' });
    const { sessions, total } = await liveSessions(bed);
    expect(total).toBe(5);
    expect(sessions.map((s) => s.id).sort()).toEqual(['s4', 's6', 's7', 's8', 's9']);
  });

  it('pages with limit and offset, most recent first, and reports the total', async () => {
    const page = (await bed.get('/sessions?limit=2&offset=1')).body as {
      sessions: { id: string }[];
      total: number;
    };
    expect(page.total).toBe(5);
    expect(page.sessions.map((s) => s.id)).toEqual(['s4', 's8']);
    const all = (await bed.get('/sessions')).body as { sessions: unknown[] };
    expect(all.sessions).toHaveLength(5);
  });

  it.each(['limit=0', 'limit=1001', 'limit=ten', 'offset=-1'])(
    'refuses %s with 422 naming the field',
    async (query) => {
      const res = await bed.get(`/sessions?${query}`);
      expect(res.status).toBe(422);
      expect(JSON.stringify(res.body.detail)).toContain(query.split('=')[0]);
    },
  );
});

describe('metric labels and usage keys come from bounded sets', () => {
  let bed: ChatTestBed;
  beforeAll(async () => {
    bed = await startChatTestBed();
  });
  afterAll(() => bed.close());

  it('200 chats with made-up channels and models add a handful of label values, not 200', async () => {
    const before = (await (await fetch(`${bed.gw.url}/api/v1/metrics`)).text()).length;
    for (let i = 0; i < 200; i += 20) {
      const batch = Array.from({ length: 20 }, (_, j) =>
        bed.post('/chat', {
          message: 'hi',
          session_id: 'labels',
          channel: `made-up-${i + j}`,
          model: `gpt-4o-made-up-${i + j}`,
        }),
      );
      for (const res of await Promise.all(batch)) expect(res.status).toBe(200);
    }
    await bed.post('/chat', { message: 'hi', session_id: 'labels', channel: 'telegram' });

    const snapshot = await metricsSnapshot(bed.gw.gateway.metrics.registry);
    expect(Object.keys(snapshot.messages_total?.values ?? {}).sort()).toEqual([
      'channel=other',
      'channel=telegram',
    ]);
    expect(snapshot.messages_total?.values['channel=other']).toBe(200);
    const models = Object.keys(snapshot.generation_requests_total?.values ?? {});
    expect(models.sort()).toEqual(['model=gpt-4o', 'model=other']);
    expect(Object.keys(snapshot.tokens_total?.values ?? {})).toHaveLength(4);

    const after = (await (await fetch(`${bed.gw.url}/api/v1/metrics`)).text()).length;
    expect(after - before).toBeLessThan(8_000);

    const usage = (await bed.get('/usage')).body as { models: Record<string, unknown> };
    expect(Object.keys(usage.models).length).toBeLessThanOrEqual(MAX_REPORTED_MODELS + 1);
    expect(usage.models.other).toBeDefined();
  });

  it.each(['x'.repeat(201), 'gpt 4o', '../etc', 'gpt-4o\n'])(
    'POST /chat refuses the model id %j with 422 naming model',
    async (model) => {
      const res = await bed.post('/chat', { message: 'hi', model });
      expect(res.status).toBe(422);
      expect(JSON.stringify(res.body.detail)).toContain('model');
    },
  );

  it('/ws/chat answers a bad model id with an error frame naming model', async () => {
    const c = await client(`ws://127.0.0.1:${bed.gw.port}/ws/chat`);
    c.send({ type: 'message', content: 'hi', model: 'y'.repeat(5000) });
    const [error] = await c.waitFor((f) => f.type === 'error');
    expect(error?.detail).toMatch(/^model: /);
    c.socket.close();
  });
});

describe('a socket that does not read cannot grow the gateway', () => {
  let bed: ChatTestBed;
  let base: string;
  beforeAll(async () => {
    // The default stall before the close is 30 s; 2 s keeps the test short.
    bed = await startChatTestBed(undefined, { socketFrameLimits: { stallMs: 2_000 } });
    base = `ws://127.0.0.1:${bed.gw.port}`;
  });
  afterAll(() => bed.close());

  const counter = async (name: string) =>
    (await metricsSnapshot(bed.gw.gateway.metrics.registry))[name]?.values[''] ?? 0;

  it(`queues at most ${MAX_WAITING_TURNS} chat messages per socket and refuses the rest`, async () => {
    bed.fake.reply(
      ...Array.from({ length: MAX_WAITING_TURNS }, () => ({
        text: 'slow reply',
        chunkDelayMs: 50,
      })),
    );
    const c = await client(`${base}/ws/chat`);
    for (let i = 0; i < MAX_WAITING_TURNS + 12; i += 1) c.send({ type: 'message', content: 'hi' });
    const done = await c.waitFor((f) => f.type === 'message_done', MAX_WAITING_TURNS);
    expect(done).toHaveLength(MAX_WAITING_TURNS);
    const refused = c.frames.filter(
      (f) => f.type === 'error' && String(f.detail).startsWith('Too many messages waiting'),
    );
    expect(refused).toHaveLength(12);
    expect(await counter('ws_frames_rejected_total')).toBe(12);
    c.socket.close();
  });

  it('stops reading a client that floods one-byte frames without reading, then closes it with 1013, counted; memory and /health stay bounded', async () => {
    const rssBefore = process.memoryUsage().rss;
    const c = await client(`${base}/ws`);
    c.socket.pause(); // stops reading: every error reply stays undelivered
    let sent = 0;
    let slowestHealth = 0;
    const deadline = Date.now() + 30_000;
    while ((await counter('ws_closed_slow_total')) === 0 && Date.now() < deadline) {
      // Once the gateway stops reading, the client's own buffer fills instead.
      if (c.socket.bufferedAmount < 4 * 1_048_576) {
        for (let i = 0; i < 5_000; i += 1) c.socket.send('x');
        sent += 5_000;
      } else await new Promise((resolve) => setTimeout(resolve, 100));
      const started = Date.now();
      expect((await fetch(`${bed.gw.url}/health`)).status).toBe(200);
      slowestHealth = Math.max(slowestHealth, Date.now() - started);
      expect(sent).toBeLessThan(2_000_000); // ≤ 14 MB of frames
    }
    expect(await counter('ws_closed_slow_total')).toBe(1);
    const rssGrowth = process.memoryUsage().rss - rssBefore;
    c.socket.resume();
    expect(await c.closed).toBe(1013);
    // Generous: the client and the gateway share this process (it was 15 s and more before).
    expect(slowestHealth).toBeLessThan(5_000);
    expect(rssGrowth).toBeLessThan(150 * 1_048_576);
  }, 60_000);

  it('still streams a long reply to a client that reads', async () => {
    const long = 'word '.repeat(5_000);
    bed.fake.reply({ text: long });
    const c = await client(`${base}/ws`);
    c.send({ type: 'chat', message: 'long please', session_id: 'reader' });
    const [done] = await c.waitFor((f) => f.type === 'message_done');
    expect(done?.text).toBe(long);
    c.socket.close();
  });
});
