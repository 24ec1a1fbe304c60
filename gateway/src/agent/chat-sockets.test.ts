import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';

type Frame = Record<string, unknown> & { type: string };

/** A client that collects frames and can wait for one matching a predicate. */
async function client(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, { headers });
  const frames: Frame[] = [];
  const waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  socket.on('message', (data: Buffer) => {
    const frame = JSON.parse(data.toString()) as Frame;
    frames.push(frame);
    for (const waiter of [...waiters]) {
      if (waiter.match(frame)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(frame);
      }
    }
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    frames,
    closed,
    send: (frame: unknown) =>
      socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
    next: (match: (f: Frame) => boolean) =>
      new Promise<Frame>((resolve) => {
        const found = frames.find(match);
        if (found) resolve(found);
        else waiters.push({ match, resolve });
      }),
  };
}

describe('chat over WebSocket', () => {
  let bed: ChatTestBed;
  let base: string;
  beforeAll(async () => {
    bed = await startChatTestBed();
    base = `ws://127.0.0.1:${bed.gw.port}`;
  });
  afterAll(() => bed.close());
  afterEach(() => bed.fake.reset());

  describe('/ws (form A)', () => {
    it('streams message_chunk frames whose concatenation equals message_done', async () => {
      bed.fake.reply({
        text: 'The quick brown fox jumps.',
        usage: { inputTokens: 5, outputTokens: 6 },
      });
      const c = await client(`${base}/ws`);
      c.send({ type: 'chat', message: 'tell me', session_id: 'ws-a' });
      const done = await c.next((f) => f.type === 'message_done');
      const chunks = c.frames.filter((f) => f.type === 'message_chunk');
      expect(chunks.length).toBeGreaterThan(1);
      expect(chunks.map((f) => f.text).join('')).toBe(done.text);
      expect(done).toEqual({ type: 'message_done', text: 'The quick brown fox jumps.' });
      c.socket.close();
    });

    it('answers ping with pong and bad frames with an error, keeping the socket open', async () => {
      const c = await client(`${base}/ws`);
      c.send({ type: 'ping' });
      expect(await c.next((f) => f.type === 'pong')).toEqual({ type: 'pong' });
      c.send('not json');
      expect(await c.next((f) => f.type === 'error')).toEqual({
        type: 'error',
        detail: 'Frames must be JSON objects with a type',
      });
      c.send({ type: 'dance' });
      expect(await c.next((f) => f.detail === "Unknown frame type 'dance'")).toBeTruthy();
      c.send({ type: 'chat', message: '   ' });
      expect(await c.next((f) => f.detail === 'Empty message')).toBeTruthy();
      bed.fake.reply({ text: 'still here' });
      c.send({ type: 'chat', message: 'hello?' });
      expect(await c.next((f) => f.type === 'message_done')).toMatchObject({ text: 'still here' });
      c.socket.close();
    });

    it('uses the client id as the durable session when no session_id is sent', async () => {
      const c = await client(`${base}/ws?client_id=browser-123`);
      c.send({ type: 'chat', message: 'hi' });
      await c.next((f) => f.type === 'message_done');
      const sessions = (await bed.get('/sessions')).body.sessions as { id: string }[];
      expect(sessions.some((s) => /^web-[0-9a-f]{16}$/.test(s.id))).toBe(true);
      c.socket.close();
    });

    it('cancels the upstream generation when the client disconnects mid-stream', async () => {
      bed.fake.reply({ chunks: Array.from({ length: 40 }, (_, i) => `w${i} `), chunkDelayMs: 25 });
      const c = await client(`${base}/ws`);
      c.send({ type: 'chat', message: 'long story', session_id: 'cancel' });
      await c.next((f) => f.type === 'message_chunk');
      c.socket.terminate();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(bed.fake.requests.at(-1)?.abortedByClient).toBe(true);
    });

    it('is closed by DELETE /sessions/{id}', async () => {
      const c = await client(`${base}/ws`);
      c.send({ type: 'chat', message: 'hi', session_id: 'to-delete' });
      await c.next((f) => f.type === 'message_done');
      await fetch(`${bed.gw.url}/api/v1/sessions/to-delete`, { method: 'DELETE' });
      expect(await c.closed).toBe(4000);
    });

    it('closes a foreign Origin with 1008', async () => {
      const socket = new WebSocket(`${base}/ws`, { headers: { origin: 'https://evil.example' } });
      const code = await new Promise<number>((resolve) => socket.on('close', (c) => resolve(c)));
      expect(code).toBe(1008);
    });
  });

  describe('/ws/chat (form B)', () => {
    it('speaks hello, message → delta chunks → message_done with quality_score, ping → pong', async () => {
      bed.fake.reply({ text: 'Lima is the capital of Peru.' });
      const c = await client(`${base}/ws/chat`);
      c.send({ type: 'hello', session_id: 'ws-b' });
      expect(await c.next((f) => f.type === 'hello')).toEqual({
        type: 'hello',
        session_id: 'ws-b',
      });
      c.send({ type: 'message', content: 'What is the capital of Peru?' });
      const done = await c.next((f) => f.type === 'message_done');
      expect(done).toEqual({
        type: 'message_done',
        session_id: 'ws-b',
        quality_score: expect.any(Number),
      });
      expect((done.quality_score as number) > 0.5).toBe(true);
      expect(
        c.frames
          .filter((f) => f.type === 'message_chunk')
          .map((f) => f.delta)
          .join(''),
      ).toBe('Lima is the capital of Peru.');
      c.send({ type: 'ping' });
      expect(await c.next((f) => f.type === 'pong')).toEqual({ type: 'pong' });
      c.socket.close();
    });

    it('honours a per-message model', async () => {
      bed.fake.reply({ text: 'claude here' });
      const c = await client(`${base}/ws/chat`);
      c.send({ type: 'message', content: 'hi', model: 'claude-sonnet-4-5' });
      await c.next((f) => f.type === 'message_done');
      expect(bed.fake.requests[0]?.wire).toBe('anthropic-messages');
      c.socket.close();
    });
  });

  it('serves 100 concurrent WebSocket sessions', async () => {
    const clients = await Promise.all(Array.from({ length: 100 }, () => client(`${base}/ws/chat`)));
    clients.forEach((c, i) => {
      c.send({ type: 'hello', session_id: `many-${i}` });
      c.send({ type: 'message', content: `hello number ${i}` });
    });
    const done = await Promise.all(clients.map((c) => c.next((f) => f.type === 'message_done')));
    expect(new Set(done.map((f) => f.session_id)).size).toBe(100);
    for (const c of clients) c.socket.close();
  });
});
