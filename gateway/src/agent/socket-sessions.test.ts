import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';

type Frame = Record<string, unknown> & { type: string };

/** A client that collects frames and waits (at most 5 s) for one matching a predicate. */
async function client(url: string) {
  const socket = new WebSocket(url);
  const frames: Frame[] = [];
  socket.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString()) as Frame));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    frames,
    send: (frame: unknown) => socket.send(JSON.stringify(frame)),
    async next(match: (f: Frame) => boolean): Promise<Frame> {
      const deadline = Date.now() + 5_000;
      for (;;) {
        const found = frames.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching frame: ${JSON.stringify(frames)}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}

const FOREIGN = /belongs to another connection/;

describe('a chat socket is bound to its own sessions', () => {
  let bed: ChatTestBed;
  let base: string;
  beforeAll(async () => {
    bed = await startChatTestBed();
    base = `ws://127.0.0.1:${bed.gw.port}`;
  });
  afterAll(() => bed.close());
  afterEach(() => bed.fake.reset());

  it('/ws: a session another client created cannot be named by a session_id', async () => {
    bed.fake.reply({ text: 'hello alice', usage: { inputTokens: 1, outputTokens: 1 } });
    const alice = await client(`${base}/ws?client_id=alice-1`);
    alice.send({ type: 'chat', message: 'hi', session_id: 'alice-work' });
    await alice.next((f) => f.type === 'message_done');
    const llmCalls = bed.fake.requests.length;

    const mallory = await client(`${base}/ws`);
    mallory.send({ type: 'chat', message: 'approve abcd1234', session_id: 'alice-work' });
    const refused = await mallory.next((f) => f.type === 'error');
    expect(refused.detail).toMatch(FOREIGN);
    expect(mallory.frames.some((f) => f.type === 'message_done')).toBe(false);
    expect(bed.fake.requests.length).toBe(llmCalls);
    alice.socket.close();
    mallory.socket.close();
  });

  it('/ws/chat: hello naming another client’s session is refused and the session stays', async () => {
    bed.fake.reply({ text: 'ok', usage: { inputTokens: 1, outputTokens: 1 } });
    const alice = await client(`${base}/ws?client_id=alice-2`);
    alice.send({ type: 'chat', message: 'hi', session_id: 'alice-private' });
    await alice.next((f) => f.type === 'message_done');

    const mallory = await client(`${base}/ws/chat`);
    mallory.send({ type: 'hello', session_id: 'alice-private' });
    expect((await mallory.next((f) => f.type === 'error')).detail).toMatch(FOREIGN);
    mallory.send({ type: 'hello' });
    const hello = await mallory.next((f) => f.type === 'hello');
    expect(hello.session_id).not.toBe('alice-private');
    alice.socket.close();
    mallory.socket.close();
  });

  it('a client that reconnects with its client id keeps its sessions', async () => {
    bed.fake.reply({ text: 'one', usage: { inputTokens: 1, outputTokens: 1 } });
    bed.fake.reply({ text: 'two', usage: { inputTokens: 1, outputTokens: 1 } });
    const first = await client(`${base}/ws?client_id=cli-7`);
    first.send({ type: 'chat', message: 'hi', session_id: 'cli-topic' });
    await first.next((f) => f.type === 'message_done');
    first.socket.close();
    const again = await client(`${base}/ws/chat?client_id=cli-7`);
    again.send({ type: 'hello', session_id: 'cli-topic' });
    expect(await again.next((f) => f.type === 'hello')).toEqual({
      type: 'hello',
      session_id: 'cli-topic',
    });
    again.socket.close();
  });

  it('a session started over REST cannot be joined from a socket', async () => {
    bed.fake.reply({ text: 'rest', usage: { inputTokens: 1, outputTokens: 1 } });
    expect((await bed.post('/chat', { message: 'hi', session_id: 'rest-only' })).status).toBe(200);
    const socket = await client(`${base}/ws/chat?client_id=someone`);
    socket.send({ type: 'hello', session_id: 'rest-only' });
    expect((await socket.next((f) => f.type === 'error')).detail).toMatch(FOREIGN);
    socket.socket.close();
  });

  it('without a client id each connection gets a fresh session of its own, not a shared one', async () => {
    const one = await client(`${base}/ws/chat`);
    const two = await client(`${base}/ws/chat`);
    one.send({ type: 'hello' });
    two.send({ type: 'hello' });
    const a = (await one.next((f) => f.type === 'hello')).session_id as string;
    const b = (await two.next((f) => f.type === 'hello')).session_id as string;
    expect(a).toMatch(/^ws-[0-9a-f-]{36}$/);
    expect(b).toMatch(/^ws-[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
    two.send({ type: 'hello', session_id: a });
    expect((await two.next((f) => f.type === 'error')).detail).toMatch(FOREIGN);
    one.socket.close();
    two.socket.close();
  });

  it('a new session id is created and owned by the connection that names it first', async () => {
    const owner = await client(`${base}/ws/chat`);
    owner.send({ type: 'hello', session_id: 'brand-new' });
    expect(await owner.next((f) => f.type === 'hello')).toEqual({
      type: 'hello',
      session_id: 'brand-new',
    });
    const other = await client(`${base}/ws/chat`);
    other.send({ type: 'hello', session_id: 'brand-new' });
    expect((await other.next((f) => f.type === 'error')).detail).toMatch(FOREIGN);
    owner.socket.close();
    other.socket.close();
  });
});
