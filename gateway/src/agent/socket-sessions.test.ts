/**
 * Rule 8: "Session identity ... survives restarts and idle timeouts." A named session is a name:
 * a client that reconnects, a REST client and a socket client, or two sockets at once, continue
 * the same session; its frames reach every socket on it. With `gateway.api_key` set, sockets
 * need the key like every REST call (Hearth's stricter reading of the spec's WebSocket rule).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ReplyScript } from '../testing/fakes/fake-llm/script.ts';
import type { RecordedRequest } from '../testing/fakes/fake-llm/wire.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';

type Frame = Record<string, unknown> & { type: string };

/** A client that collects frames and waits (at most 5 s) for one matching a predicate. */
async function client(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, { headers });
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
    close: () => socket.close(),
  };
}

/** The user messages a model request carried, as text: the conversation history it was given. */
function userTexts(request: RecordedRequest | undefined): string[] {
  const messages = (request?.body as { messages?: { role: string; content: unknown }[] })?.messages;
  return (messages ?? [])
    .filter((message) => message.role === 'user')
    .map((message) =>
      typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
    );
}

const ok = (text: string): ReplyScript => ({ text, usage: { inputTokens: 1, outputTokens: 1 } });

describe('a named session survives reconnecting, and is shared by REST and sockets', () => {
  let bed: ChatTestBed;
  let base: string;
  beforeAll(async () => {
    bed = await startChatTestBed();
    base = `ws://127.0.0.1:${bed.gw.port}`;
  });
  afterAll(() => bed.close());
  afterEach(() => bed.fake.reset());

  it('/ws: a session_id another connection used is continued, with its history', async () => {
    bed.fake.reply(ok('noted'), ok('you are Ada'));
    const first = await client(`${base}/ws?client_id=alice-1`);
    first.send({ type: 'chat', message: 'My name is Ada', session_id: 'topic-a' });
    await first.next((f) => f.type === 'message_done');
    first.close();

    const again = await client(`${base}/ws`);
    again.send({ type: 'chat', message: 'What is my name?', session_id: 'topic-a' });
    expect(await again.next((f) => f.type === 'message_done' || f.type === 'error')).toEqual({
      type: 'message_done',
      text: 'you are Ada',
    });
    expect(userTexts(bed.fake.requests[1])).toEqual(['My name is Ada', 'What is my name?']);
    again.close();
  });

  it('/ws/chat: hello naming a session a REST client used (`default`) continues it, and the next message runs there', async () => {
    bed.fake.reply(ok('hello over REST'), ok('hello over the socket'));
    expect((await bed.post('/chat', { message: 'I like tea' })).body.session_id).toBe('default');
    const socket = await client(`${base}/ws/chat`);
    socket.send({ type: 'hello', session_id: 'default' });
    expect(await socket.next((f) => f.type === 'hello' || f.type === 'error')).toEqual({
      type: 'hello',
      session_id: 'default',
    });
    socket.send({ type: 'message', content: 'What do I like?' });
    const done = await socket.next((f) => f.type === 'message_done');
    expect(done.session_id).toBe('default');
    expect(userTexts(bed.fake.requests[1])).toEqual(['I like tea', 'What do I like?']);
    // And back: REST continues what the socket said.
    bed.fake.reply(ok('still default'));
    await bed.post('/chat', { message: 'and now?', session_id: 'default' });
    expect(userTexts(bed.fake.requests[2])).toEqual(['I like tea', 'What do I like?', 'and now?']);
    socket.close();
  });

  it('a connection’s own ws-<uuid> session is continued by the next connection that names it', async () => {
    bed.fake.reply(ok('one'), ok('two'));
    const first = await client(`${base}/ws/chat`);
    first.send({ type: 'hello' });
    const given = (await first.next((f) => f.type === 'hello')).session_id as string;
    expect(given).toMatch(/^ws-[0-9a-f-]{36}$/);
    first.send({ type: 'message', content: 'remember the blue door' });
    await first.next((f) => f.type === 'message_done');
    first.close();

    const second = await client(`${base}/ws/chat`);
    second.send({ type: 'hello', session_id: given });
    expect(await second.next((f) => f.type === 'hello' || f.type === 'error')).toEqual({
      type: 'hello',
      session_id: given,
    });
    second.send({ type: 'message', content: 'which door?' });
    expect((await second.next((f) => f.type === 'message_done')).session_id).toBe(given);
    expect(userTexts(bed.fake.requests[1])).toEqual(['remember the blue door', 'which door?']);
    second.close();
  });

  it('a session that is not live (evicted, or from before a restart) can be named again', async () => {
    const id = `ws-${randomUUID()}`;
    const socket = await client(`${base}/ws/chat`);
    socket.send({ type: 'hello', session_id: id });
    expect(await socket.next((f) => f.type === 'hello' || f.type === 'error')).toEqual({
      type: 'hello',
      session_id: id,
    });
    socket.close();
  });

  it('concurrent sockets on one session both receive its frames (an approval request)', async () => {
    const a = await client(`${base}/ws`);
    const b = await client(`${base}/ws/chat?client_id=tablet`);
    b.send({ type: 'hello', session_id: 'shared' });
    await b.next((f) => f.type === 'hello');
    bed.fake.reply(
      { toolCalls: [{ name: 'shell', arguments: { command: 'touch shared-marker' } }] },
      ok('done'),
    );
    a.send({ type: 'chat', message: 'make the marker', session_id: 'shared' });
    const onA = await a.next((f) => f.type === 'approval_request');
    const onB = await b.next((f) => f.type === 'approval_request');
    expect(onB).toEqual(onA);
    // The other socket decides it, as a chat reply in the same session.
    b.send({ type: 'message', content: `deny ${String(onA.short_id)}` });
    expect(await a.next((f) => f.type === 'message_done')).toEqual({
      type: 'message_done',
      text: 'done',
    });
    a.close();
    b.close();
  });

  it('DELETE /sessions/{id} disconnects every socket on the session', async () => {
    const a = await client(`${base}/ws/chat`);
    const b = await client(`${base}/ws/chat`);
    const closed = (socket: WebSocket) =>
      new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    for (const socket of [a, b]) {
      socket.send({ type: 'hello', session_id: 'to-clear' });
      await socket.next((f) => f.type === 'hello');
    }
    const codes = Promise.all([closed(a.socket), closed(b.socket)]);
    expect(
      await (await fetch(`${bed.gw.url}/api/v1/sessions/to-clear`, { method: 'DELETE' })).json(),
    ).toEqual({ cleared: true });
    expect(await codes).toEqual([4000, 4000]);
  });

  it('an invalid session_id is still refused with an error frame, and the session stays', async () => {
    const socket = await client(`${base}/ws/chat`);
    socket.send({ type: 'hello', session_id: '../etc' });
    expect((await socket.next((f) => f.type === 'error')).detail).toMatch(/^session_id: /);
    socket.send({ type: 'hello' });
    expect((await socket.next((f) => f.type === 'hello')).session_id).toMatch(/^ws-/);
    socket.close();
  });
});

describe('with gateway.api_key set, the key continues a session on a socket', () => {
  const KEY = 'sessions-key-0123456789';
  let bed: ChatTestBed;
  beforeAll(async () => {
    bed = await startChatTestBed(undefined, { config: { gateway: { api_key: KEY } } });
  });
  afterAll(() => bed.close());

  it('a REST client with the key and a socket with the key share the session; without it the socket is refused', async () => {
    bed.fake.reply(ok('stored'), ok('recalled'));
    const rest = await fetch(`${bed.gw.url}/api/v1/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY },
      body: JSON.stringify({ message: 'The code word is heron', session_id: 'keyed' }),
    });
    expect(rest.status).toBe(200);

    const refused = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${bed.gw.port}/ws/chat`);
      socket.on('unexpected-response', (_request, response) => {
        resolve(response.statusCode ?? 0);
        socket.terminate();
      });
      socket.on('open', () => resolve(101));
      socket.on('error', () => undefined);
    });
    expect(refused).toBe(401);

    const socket = await client(`ws://127.0.0.1:${bed.gw.port}/ws/chat`, { 'x-api-key': KEY });
    socket.send({ type: 'hello', session_id: 'keyed' });
    await socket.next((f) => f.type === 'hello');
    socket.send({ type: 'message', content: 'What is the code word?' });
    expect((await socket.next((f) => f.type === 'message_done')).session_id).toBe('keyed');
    expect(userTexts(bed.fake.requests[1])).toEqual([
      'The code word is heron',
      'What is the code word?',
    ]);
    socket.close();
  });
});
