/**
 * `/ws?events=tools`: the tool calls of a turn, what they returned (capped), the outcome of an
 * approval the turn waited on and the memories it recalled reach the socket that opted in —
 * through the real gateway, the fake LLM scripted to call tools. A socket that did not opt in
 * sees exactly the spec's frames.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { frameClient, type Frame } from '../testing/gateway/frame-client.ts';
import { TOOL_TEXT_CAP } from './rich-frames.ts';

/** The shared frame client, each wait as long as the test's own timeout allows. */
async function client(url: string) {
  const c = await frameClient(url);
  return {
    frames: c.frames,
    send: (frame: unknown) => c.send(frame),
    next: (match: (f: Frame) => boolean) => c.next(match, 60_000),
    close: () => c.socket.close(),
  };
}

describe('/ws?events=tools', () => {
  let bed: ChatTestBed;
  let base: string;
  beforeAll(async () => {
    bed = await startChatTestBed();
    base = `ws://127.0.0.1:${bed.gw.port}/ws`;
  });
  afterAll(() => bed.close());
  afterEach(() => bed.fake.reset());

  it('sends tool_call then tool_result for each call, in order, before message_done', async () => {
    bed.fake.reply(
      { toolCalls: [{ name: 'current_time', arguments: { timezone: 'UTC' } }] },
      { text: 'It is noon.' },
    );
    const c = await client(`${base}?events=tools`);
    c.send({ type: 'chat', message: 'what time is it?', session_id: 'rich-time' });
    const done = await c.next((f) => f.type === 'message_done');
    const kinds = c.frames.map((f) => f.type).filter((t) => t !== 'message_chunk');
    expect(kinds).toEqual(['tool_call', 'tool_result', 'message_done']);
    const call = c.frames.find((f) => f.type === 'tool_call')!;
    const result = c.frames.find((f) => f.type === 'tool_result')!;
    expect(call).toEqual({
      type: 'tool_call',
      call_id: expect.any(String),
      tool: 'current_time',
      arguments: { timezone: 'UTC' },
    });
    expect(result).toMatchObject({
      type: 'tool_result',
      call_id: call.call_id,
      tool: 'current_time',
      ok: true,
      truncated: false,
    });
    expect(String(result.output)).toMatch(/\d{2}:\d{2}/);
    expect(done.text).toBe('It is noon.');
    c.close();
  });

  it('events=session: message_done names the session it ran in', async () => {
    bed.fake.reply({ text: 'Named.' });
    const c = await client(`${base}?events=session`);
    c.send({ type: 'chat', message: 'which session?', session_id: 'rich-named' });
    expect(await c.next((f) => f.type === 'message_done')).toEqual({
      type: 'message_done',
      text: 'Named.',
      session_id: 'rich-named',
    });
    c.close();
  });

  it('without the opt-in (or with an unknown event name) the frames are exactly the spec’s', async () => {
    for (const query of ['', '?events=everything', '?events=tool', '?events=<script>']) {
      bed.fake.reply(
        { toolCalls: [{ name: 'current_time', arguments: { timezone: 'UTC' } }] },
        { text: 'Done.' },
      );
      const c = await client(`${base}${query}`);
      c.send({ type: 'chat', message: 'what time is it?', session_id: 'rich-plain' });
      const done = await c.next((f) => f.type === 'message_done');
      expect(done).toEqual({ type: 'message_done', text: 'Done.' });
      expect(c.frames.every((f) => f.type === 'message_chunk' || f.type === 'message_done')).toBe(
        true,
      );
      c.close();
    }
  });

  it('a failing call is ok: false; HTML in the arguments is carried as data, unchanged', async () => {
    const hostile = { query: '<img src=x onerror="alert(1)"><script>alert(2)</script>' };
    bed.fake.reply(
      { toolCalls: [{ name: 'no_such_tool', arguments: hostile }] },
      { text: 'Sorry.' },
    );
    const c = await client(`${base}?events=tools`);
    c.send({ type: 'chat', message: 'try it', session_id: 'rich-hostile' });
    await c.next((f) => f.type === 'message_done');
    expect(c.frames.find((f) => f.type === 'tool_call')?.arguments).toEqual(hostile);
    expect(c.frames.find((f) => f.type === 'tool_result')).toMatchObject({
      ok: false,
      output: 'Error: no tool named no_such_tool',
    });
    c.close();
  });

  it('huge arguments are cut to the cap as JSON text, flagged', async () => {
    const huge = { query: 'é'.repeat(20_000) };
    bed.fake.reply({ toolCalls: [{ name: 'memory_search', arguments: huge }] }, { text: 'Ok.' });
    const c = await client(`${base}?events=tools`);
    c.send({ type: 'chat', message: 'search', session_id: 'rich-huge-args' });
    await c.next((f) => f.type === 'message_done');
    const call = c.frames.find((f) => f.type === 'tool_call')!;
    expect(call.arguments_truncated).toBe(true);
    expect(typeof call.arguments).toBe('string');
    const bytes = Buffer.byteLength(String(call.arguments));
    expect(bytes).toBeLessThanOrEqual(TOOL_TEXT_CAP);
    expect(bytes).toBeGreaterThan(TOOL_TEXT_CAP - 4);
    expect(String(call.arguments)).not.toContain('\uFFFD');
    c.close();
  });

  it('an approval the turn waits on: approval_request, approval_resolved (decided over REST), the huge output capped', async () => {
    const command = 'yes hearth | head -c 50000';
    bed.fake.reply({ toolCalls: [{ name: 'shell', arguments: { command } }] }, { text: 'Ran.' });
    const c = await client(`${base}?events=tools`);
    c.send({ type: 'chat', message: 'run it', session_id: 'rich-approval' });
    const request = await c.next((f) => f.type === 'approval_request');
    expect(request.command).toBe(command);
    const approved = await bed.post(`/approvals/${String(request.id)}/approve`, {});
    expect(approved.status).toBe(200);
    const resolved = await c.next((f) => f.type === 'approval_resolved');
    expect(resolved).toEqual({
      type: 'approval_resolved',
      id: request.id,
      allowed: true,
      outcome: 'approved',
    });
    const result = await c.next((f) => f.type === 'tool_result');
    expect(result.ok).toBe(true);
    expect(result.truncated).toBe(true);
    expect(Buffer.byteLength(String(result.output))).toBeLessThanOrEqual(TOOL_TEXT_CAP);
    expect(String(result.output)).toContain('hearth\nhearth');
    expect((await c.next((f) => f.type === 'message_done')).text).toBe('Ran.');
    const order = c.frames.map((f) => f.type).filter((t) => t !== 'message_chunk');
    expect(order).toEqual([
      'tool_call',
      'approval_request',
      'approval_resolved',
      'tool_result',
      'message_done',
    ]);
    c.close();
  });

  it('a denied approval resolves allowed: false, and the turn still ends', async () => {
    bed.fake.reply(
      { toolCalls: [{ name: 'shell', arguments: { command: 'touch denied-marker' } }] },
      { text: 'Not run.' },
    );
    const c = await client(`${base}?events=tools`);
    c.send({ type: 'chat', message: 'run it', session_id: 'rich-deny' });
    const request = await c.next((f) => f.type === 'approval_request');
    expect((await bed.post(`/approvals/${String(request.id)}/deny`, {})).status).toBe(200);
    expect(await c.next((f) => f.type === 'approval_resolved')).toMatchObject({
      id: request.id,
      allowed: false,
      outcome: 'denied',
    });
    expect(await c.next((f) => f.type === 'tool_result')).toMatchObject({ ok: true });
    expect((await c.next((f) => f.type === 'message_done')).text).toBe('Not run.');
    c.close();
  });

  it('message_done carries the memories the turn recalled, with their tier and trust', async () => {
    const stored = await bed.post('/memory', {
      content: 'The allotment gate code is <b>4417</b>.',
      session_id: 'rich-memory',
    });
    expect(stored.status).toBeLessThan(300);
    bed.fake.reply({ text: 'It is 4417.' });
    const c = await client(`${base}?events=tools`);
    c.send({
      type: 'chat',
      message: 'What is the allotment gate code?',
      session_id: 'rich-memory',
    });
    const done = await c.next((f) => f.type === 'message_done');
    const memories = done.memories as Record<string, unknown>[];
    expect(memories.length).toBeGreaterThan(0);
    expect(memories[0]).toMatchObject({
      content: 'The allotment gate code is <b>4417</b>.',
      source: expect.stringMatching(/^(short-term|semantic|long-term)$/),
      score: expect.any(Number),
      untrusted: false,
    });
    // The same turn without the opt-in: no memories field.
    bed.fake.reply({ text: 'It is 4417.' });
    const plain = await client(base);
    plain.send({
      type: 'chat',
      message: 'What is the allotment gate code?',
      session_id: 'rich-memory',
    });
    expect(await plain.next((f) => f.type === 'message_done')).toEqual({
      type: 'message_done',
      text: 'It is 4417.',
    });
    c.close();
    plain.close();
  });
});

describe('/ws?events=tools: an approval that expires, and what other sockets see', () => {
  let bed: ChatTestBed;
  let base: string;
  beforeAll(async () => {
    bed = await startChatTestBed(undefined, { approvalExpiryMs: 400 });
    base = `ws://127.0.0.1:${bed.gw.port}/ws`;
  });
  afterAll(() => bed.close());

  it('resolves expired to the asking socket only; a client cannot forge the frame', async () => {
    bed.fake.reply(
      { toolCalls: [{ name: 'shell', arguments: { command: 'touch expired-marker' } }] },
      { text: 'Timed out.' },
    );
    const asking = await client(`${base}?events=tools`);
    const bystander = await client(`${base}?events=tools`);
    // A client sending the server's frame types is refused; nothing is decided by it.
    bystander.send({ type: 'approval_resolved', id: 'x', allowed: true, outcome: 'approved' });
    expect((await bystander.next((f) => f.type === 'error')).detail).toBe(
      "Unknown frame type 'approval_resolved'",
    );
    asking.send({ type: 'chat', message: 'run it', session_id: 'rich-expire' });
    const request = await asking.next((f) => f.type === 'approval_request');
    expect(await asking.next((f) => f.type === 'approval_resolved')).toEqual({
      type: 'approval_resolved',
      id: request.id,
      allowed: false,
      outcome: 'expired',
    });
    expect((await asking.next((f) => f.type === 'message_done')).text).toBe('Timed out.');
    expect(bystander.frames.map((f) => f.type)).toEqual(['error']);
    asking.close();
    bystander.close();
  });
});
