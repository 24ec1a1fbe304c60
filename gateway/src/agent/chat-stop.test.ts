/**
 * Beyond the spec, on `/ws` and `/ws/chat`: `{type: "stop"}` stops the turn in flight (the
 * upstream request is aborted, the partial reply kept, the done frame says `stopped: true`), and
 * `replace_last: true` on a chat frame replaces the session's last exchange (edit and resend).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { frameClient, type FrameClient } from '../testing/gateway/frame-client.ts';

let bed: ChatTestBed;
let base: string;
beforeAll(async () => {
  bed = await startChatTestBed();
  base = `ws://127.0.0.1:${bed.gw.port}`;
});
afterAll(() => bed.close());
afterEach(() => bed.fake.reset());

const slowReply = () =>
  bed.fake.reply({ chunks: Array.from({ length: 60 }, (_, i) => `w${i} `), chunkDelayMs: 30 });

const stored = async (sessionId: string) =>
  ((await bed.get(`/sessions/${sessionId}/messages`)).body.messages ?? []) as {
    role: string;
    text: string;
  }[];

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  const until = Date.now() + 5_000;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The socket still answers: ping → pong. */
async function alive(c: FrameClient): Promise<void> {
  const pongs = c.frames.filter((f) => f.type === 'pong').length;
  c.send({ type: 'ping' });
  await c.next(
    (f) => f.type === 'pong' && c.frames.filter((g) => g.type === 'pong').length > pongs,
  );
}

describe('stop on /ws (form A)', () => {
  it('aborts the upstream request, keeps the partial reply and ends with stopped: true', async () => {
    slowReply();
    const c = await frameClient(`${base}/ws`);
    c.send({ type: 'chat', message: 'tell me a long story', session_id: 'stop-a' });
    await c.next((f) => f.type === 'message_chunk' && String(f.text).includes('w2'));
    c.send({ type: 'stop' });
    const done = await c.next((f) => f.type === 'message_done');
    expect(done.stopped).toBe(true);
    const streamed = c.frames
      .filter((f) => f.type === 'message_chunk')
      .map((f) => f.text)
      .join('');
    expect(done.text).toBe(streamed);
    expect(String(done.text)).toMatch(/^w0 w1 w2 /);
    expect(String(done.text)).not.toContain('w59');
    await eventually(
      () => Promise.resolve(bed.fake.requests.at(-1)?.abortedByClient),
      (aborted) => aborted === true,
    );
    expect(bed.fake.requests.at(-1)?.abortedByClient).toBe(true);
    const history = await eventually(
      () => stored('stop-a'),
      (messages) => messages.length === 2,
    );
    expect(history).toEqual([
      { role: 'user', text: 'tell me a long story', created_at: expect.any(String) },
      { role: 'assistant', text: done.text, created_at: expect.any(String) },
    ]);
    // A second stop finds nothing to stop: an error frame, and the socket stays open.
    c.send({ type: 'stop' });
    expect(await c.next((f) => f.type === 'error')).toEqual({
      type: 'error',
      detail: 'No reply is being generated to stop',
    });
    expect(c.frames.filter((f) => f.type === 'message_done')).toHaveLength(1);
    await alive(c);
    // The conversation goes on, the partial reply in what the model is sent.
    bed.fake.reply({ text: 'Where was I?' });
    c.send({ type: 'chat', message: 'go on', session_id: 'stop-a' });
    const next = await c.next((f) => f.type === 'message_done' && f.text === 'Where was I?');
    expect(next.stopped).toBeUndefined();
    expect(JSON.stringify(bed.fake.requests.at(-1)?.body)).toContain('w0 w1 w2');
    c.socket.close();
  });

  it('answers a stop with no turn running with an error, and the socket stays open', async () => {
    const c = await frameClient(`${base}/ws`);
    c.send({ type: 'stop' });
    expect(await c.next((f) => f.type === 'error')).toMatchObject({
      detail: 'No reply is being generated to stop',
    });
    await alive(c);
    c.socket.close();
  });

  it('a stop racing the done frame ends the turn once, either way', async () => {
    const c = await frameClient(`${base}/ws`);
    for (let i = 0; i < 5; i += 1) {
      bed.fake.reply({ text: `quick ${i}` });
      c.send({ type: 'chat', message: `race ${i}`, session_id: 'stop-race' });
      c.send({ type: 'stop' });
      // A stopped turn may leave its scripted reply unread: which text comes back varies.
      await c.next(() => c.frames.filter((f) => f.type === 'message_done').length === i + 1);
      await alive(c);
      expect(c.frames.filter((f) => f.type === 'message_done')).toHaveLength(i + 1);
    }
    // After the race the socket chats normally: no stop left over.
    bed.fake.reset();
    bed.fake.reply({ text: 'all good' });
    c.send({ type: 'chat', message: 'still there?', session_id: 'stop-race' });
    const done = await c.next((f) => f.type === 'message_done' && f.text === 'all good');
    expect(done.stopped).toBeUndefined();
    c.socket.close();
  });

  it('a stop after the done frame is an error; a stop before any text keeps nothing', async () => {
    bed.fake.reply({ text: 'done already' });
    const c = await frameClient(`${base}/ws`);
    c.send({ type: 'chat', message: 'hi', session_id: 'stop-late' });
    await c.next((f) => f.type === 'message_done');
    c.send({ type: 'stop' });
    expect(await c.next((f) => f.type === 'error')).toMatchObject({
      detail: 'No reply is being generated to stop',
    });
    // Stopped while the first chunk is still on its way: nothing of the turn is kept.
    bed.fake.reply({ text: 'too late', chunkDelayMs: 400 });
    c.send({ type: 'chat', message: 'never mind', session_id: 'stop-late' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    c.send({ type: 'stop' });
    const stopped = await c.next((f) => f.type === 'message_done' && f.stopped === true);
    expect(stopped.text).toBe('');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await stored('stop-late')).map((m) => m.text)).toEqual(['hi', 'done already']);
    c.socket.close();
  });

  it('stops every turn the socket has waiting, each with its own done frame', async () => {
    slowReply();
    bed.fake.reply({ text: 'second' });
    const c = await frameClient(`${base}/ws`);
    c.send({ type: 'chat', message: 'first', session_id: 'stop-queue' });
    c.send({ type: 'chat', message: 'second', session_id: 'stop-queue' });
    await c.next((f) => f.type === 'message_chunk');
    c.send({ type: 'stop' });
    await c.next(() => c.frames.filter((f) => f.type === 'message_done').length === 2);
    const dones = c.frames.filter((f) => f.type === 'message_done');
    expect(dones.every((f) => f.stopped === true)).toBe(true);
    await alive(c);
    c.socket.close();
  });
});

describe('stop on /ws/chat (form B)', () => {
  it('ends the turn with message_done {session_id, quality_score, stopped: true}', async () => {
    slowReply();
    const c = await frameClient(`${base}/ws/chat`);
    c.send({ type: 'hello', session_id: 'stop-b' });
    await c.next((f) => f.type === 'hello');
    c.send({ type: 'message', content: 'a long one please' });
    await c.next((f) => f.type === 'message_chunk');
    c.send({ type: 'stop' });
    const done = await c.next((f) => f.type === 'message_done');
    expect(done).toEqual({
      type: 'message_done',
      session_id: 'stop-b',
      quality_score: expect.any(Number),
      stopped: true,
    });
    c.send({ type: 'stop' });
    expect(await c.next((f) => f.type === 'error')).toMatchObject({
      detail: 'No reply is being generated to stop',
    });
    await alive(c);
    const history = await eventually(
      () => stored('stop-b'),
      (messages) => messages.length === 2,
    );
    expect(history[1]?.text).toMatch(/^w0 /);
    c.socket.close();
  });
});

describe('replace_last: edit and resend', () => {
  it('replaces the last exchange on /ws: in the history, and in what the model is sent', async () => {
    const c = await frameClient(`${base}/ws`);
    bed.fake.reply({ text: 'Paris is in France.' });
    c.send({ type: 'chat', message: 'Where is Paris?', session_id: 'edit-a' });
    await c.next((f) => f.type === 'message_done');
    bed.fake.reply({ text: 'Tokyo is in Japan.' });
    c.send({ type: 'chat', message: 'Where is Tokio?', session_id: 'edit-a' });
    await c.next((f) => f.type === 'message_done' && f.text === 'Tokyo is in Japan.');
    bed.fake.reply({ text: 'Tokyo is the capital of Japan.' });
    c.send({
      type: 'chat',
      message: 'Where is Tokyo exactly?',
      session_id: 'edit-a',
      replace_last: true,
    });
    await c.next((f) => f.type === 'message_done' && f.text === 'Tokyo is the capital of Japan.');
    // The conversation sent (memory of the replaced turn: chat-replace-memory.test.ts).
    const { messages } = bed.fake.requests.at(-1)?.body as { messages: { role: string }[] };
    const sent = JSON.stringify(messages.filter((m) => m.role !== 'system'));
    expect(sent).toContain('Where is Paris?');
    expect(sent).not.toContain('Where is Tokio?');
    expect(sent).not.toContain('Tokyo is in Japan.');
    const history = await eventually(
      () => stored('edit-a'),
      (messages) => messages.at(-1)?.text === 'Tokyo is the capital of Japan.',
    );
    expect(history.map((m) => m.text)).toEqual([
      'Where is Paris?',
      'Paris is in France.',
      'Where is Tokyo exactly?',
      'Tokyo is the capital of Japan.',
    ]);
    c.socket.close();
  });

  it('works on /ws/chat; a session with nothing to replace is an error, the socket stays', async () => {
    const c = await frameClient(`${base}/ws/chat`);
    c.send({ type: 'hello', session_id: 'edit-b' });
    await c.next((f) => f.type === 'hello');
    c.send({ type: 'message', content: 'first try', replace_last: true });
    expect(await c.next((f) => f.type === 'error')).toMatchObject({
      detail: 'There is no earlier message to replace',
    });
    bed.fake.reply({ text: 'one' });
    c.send({ type: 'message', content: 'first try' });
    await c.next((f) => f.type === 'message_done');
    bed.fake.reply({ text: 'two' });
    c.send({ type: 'message', content: 'second try', replace_last: true });
    await c.next(() => c.frames.filter((f) => f.type === 'message_done').length === 2);
    const history = await eventually(
      () => stored('edit-b'),
      (messages) => messages.at(-1)?.text === 'two',
    );
    expect(history.map((m) => m.text)).toEqual(['second try', 'two']);
    c.socket.close();
  });

  it('refuses a replace_last that is not a boolean, keeping the socket', async () => {
    const c = await frameClient(`${base}/ws`);
    for (const bad of ['yes', 1, null, {}])
      c.send({ type: 'chat', message: 'x', session_id: 'edit-bad', replace_last: bad });
    await c.next(() => c.frames.filter((f) => f.type === 'error').length === 4);
    expect(c.frames.map((f) => f.detail)).toEqual(
      Array.from({ length: 4 }, () => 'replace_last: must be a boolean'),
    );
    expect((await bed.get('/sessions/edit-bad/messages')).status).toBe(404);
    await alive(c);
    c.socket.close();
  });
});
