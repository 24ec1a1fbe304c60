import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';

const systemOf = (bed: ChatTestBed, index: number) => {
  const request = bed.fake.requests[index]!;
  return INSPECTORS[request.wire as keyof typeof INSPECTORS].system(request);
};

async function eventually(check: () => Promise<boolean>, ms = 3_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('POST /api/v1/chat', () => {
  let bed: ChatTestBed;
  beforeAll(async () => {
    bed = await startChatTestBed();
  });
  afterAll(() => bed.close());
  afterEach(async () => {
    await bed.post('/settings/model', {
      provider: null,
      thinking: null,
      privacy_mode: false,
      model: null,
    });
    await bed.post('/settings/pipeline', { max_tool_steps: 5 });
    bed.fake.reset();
  });

  it('answers form A with the union of both response forms and the fake’s token counts', async () => {
    bed.fake.reply({ text: 'Hello, Ada.', usage: { inputTokens: 42, outputTokens: 4 } });
    const { status, body } = await bed.post('/chat', {
      message: 'hi, I am Ada',
      session_id: 'form-a',
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      reply: 'Hello, Ada.',
      response: 'Hello, Ada.',
      session_id: 'form-a',
      tokens_in: 42,
      tokens_out: 4,
      tokens: { input: 42, output: 4 },
      provider: 'openai',
      model: 'gpt-4o',
      model_used: 'gpt-4o',
      quality_score: expect.any(Number),
    });
  });

  it('accepts form B (model, channel) and honours the model override', async () => {
    bed.fake.reply({ text: 'From Claude.', usage: { inputTokens: 3, outputTokens: 3 } });
    const { body } = await bed.post('/chat', {
      message: 'hello',
      model: 'claude-sonnet-4-5',
      channel: 'telegram',
    });
    expect(body).toMatchObject({
      response: 'From Claude.',
      model_used: 'claude-sonnet-4-5',
      provider: 'anthropic',
      session_id: 'default',
    });
    expect(bed.fake.requests[0]?.wire).toBe('anthropic-messages');
    const metrics = (await bed.get('/metrics/snapshot')).body as Record<
      string,
      { values: Record<string, number> }
    >;
    expect(metrics.messages_total?.values['channel=telegram']).toBe(1);
    expect(metrics.messages_sent_total?.values['channel=telegram']).toBe(1);
  });

  it.each(['', '   ', '\n\t'])(
    'rejects the empty message %j with 422 "Empty message"',
    async (message) => {
      const { status, body } = await bed.post('/chat', { message });
      expect(status).toBe(422);
      expect(body).toEqual({ detail: 'Empty message' });
      expect(bed.fake.requests).toHaveLength(0);
    },
  );

  it('rejects an over-long message with 413 and a missing one with 422', async () => {
    expect((await bed.post('/chat', { message: 'x'.repeat(32_001) })).status).toBe(413);
    const missing = await bed.post('/chat', { session_id: 'x' });
    expect(missing).toEqual({ status: 422, body: { detail: 'body.message: is required' } });
  });

  it('uses a per-request system_prompt instead of the persona', async () => {
    await bed.post('/chat', {
      message: 'hello',
      system_prompt: 'You are a pirate.',
      session_id: 'pirate',
    });
    expect(systemOf(bed, 0)).toMatch(/^You are a pirate\./);
    await bed.post('/chat', { message: 'hello', session_id: 'persona' });
    expect(systemOf(bed, 1)).toContain('You are Hearth');
  });

  it('lists sessions and deletes them ({cleared: false}, 200, for an unknown one)', async () => {
    await bed.post('/chat', { message: 'hello', session_id: 'listed' });
    const { body } = await bed.get('/sessions');
    const listed = (
      body.sessions as { id: string; message_count: number; last_active: string }[]
    ).find((s) => s.id === 'listed');
    expect(listed).toEqual({
      id: 'listed',
      message_count: 1,
      last_active: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      // Beyond the spec: the title, by default the first message.
      title: 'hello',
    });
    const res = await fetch(`${bed.gw.url}/api/v1/sessions/listed`, { method: 'DELETE' });
    expect(await res.json()).toEqual({ cleared: true });
    // The spec's DELETE /sessions/{session_id} answers {cleared: bool}: an id that is not (or no
    // longer) live is not cleared, which is no error.
    for (const id of ['listed', 'never-used']) {
      const again = await fetch(`${bed.gw.url}/api/v1/sessions/${id}`, { method: 'DELETE' });
      expect(again.status, id).toBe(200);
      expect(await again.json(), id).toEqual({ cleared: false });
    }
  });

  it('remembers turn 1 in the prompt of turn 2, across a cleared session', async () => {
    await bed.post('/chat', {
      message: 'My name is Ada and I live in Leeds',
      session_id: 'memory',
    });
    await eventually(
      async () => ((await bed.get('/memory?session_id=memory')).body.count as number) > 0,
    );
    await fetch(`${bed.gw.url}/api/v1/sessions/memory`, { method: 'DELETE' });
    await bed.post('/chat', { message: 'Where do I live? Leeds or York?', session_id: 'memory' });
    const system = systemOf(bed, 1);
    expect(system).toContain('<memory>');
    expect(system).toContain('I live in Leeds');
  });

  it('passes the thinking level to the provider', async () => {
    await bed.post('/settings/model', { thinking: 'high', model: 'ollama/qwen3' });
    await bed.post('/chat', { message: 'hello' });
    expect(bed.fake.requests[0]).toMatchObject({ wire: 'ollama', body: { think: true } });
  });

  it('routes to the local runtime in privacy mode', async () => {
    await bed.post('/settings/privacy', { enabled: true });
    const { body } = await bed.post('/chat', {
      message: 'Compare two databases in depth',
      session_id: 'private',
    });
    expect(body).toMatchObject({ provider: 'ollama', model: 'ollama/llama3.2' });
    const report = await bed.get('/privacy/report?session_id=private');
    expect(report.body).toEqual({
      session_id: 'private',
      total: 0,
      unique_destinations: [],
      entries: [],
    });
  });

  it('runs a tool chain of 3 steps and feeds each result back', async () => {
    bed.fake.reply(
      { toolCalls: [{ name: 'current_time', arguments: { timezone: 'UTC' } }] },
      { toolCalls: [{ name: 'current_time', arguments: { timezone: 'Asia/Tokyo' } }] },
      { toolCalls: [{ name: 'memory_search', arguments: { query: 'birthday' } }] },
      { text: 'It is late in Tokyo.', usage: { inputTokens: 10, outputTokens: 5 } },
    );
    const { body } = await bed.post('/chat', {
      message: 'What time is it in Tokyo?',
      session_id: 'tools',
    });
    expect(body.reply).toBe('It is late in Tokyo.');
    expect(bed.fake.requests).toHaveLength(4);
    const lastMessages = (
      bed.fake.requests[3]?.body as { messages: { role: string; content: unknown }[] }
    ).messages;
    const toolResults = lastMessages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(toolResults).toHaveLength(3);
    expect(toolResults[1]).toMatch(/ISO \d{4}-/);
    expect(toolResults[2]).toBe('Nothing found in memory.');
  });

  it('stops at max_tool_steps with a clear message, not an error', async () => {
    expect((await bed.post('/settings/pipeline', { max_tool_steps: 2 })).body).toEqual({
      applied: true,
      updated_fields: ['max_tool_steps'],
      settings: { max_tool_steps: 2 },
    });
    const loop = { toolCalls: [{ name: 'current_time', arguments: {} }] };
    bed.fake.reply(loop, loop, loop);
    const { status, body } = await bed.post('/chat', {
      message: 'loop forever',
      session_id: 'cap',
    });
    expect(status).toBe(200);
    expect(body.reply).toContain(
      'I stopped after 2 tool steps, the limit for one turn (max_tool_steps = 2)',
    );
    expect(bed.fake.requests).toHaveLength(3);
  });

  it.each([0, 21, 2.5])('rejects max_tool_steps %s with 422', async (value) => {
    expect((await bed.post('/settings/pipeline', { max_tool_steps: value })).status).toBe(422);
  });

  it('streams over REST as server-sent events when stream is true and the client accepts text/event-stream', async () => {
    bed.fake.reply({ text: 'one two three', usage: { inputTokens: 2, outputTokens: 3 } });
    const res = await fetch(`${bed.gw.url}/api/v1/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ message: 'count', stream: true }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text();
    const events = [...text.matchAll(/event: (\w+)\ndata: (.*)\n\n/g)].map((m) => ({
      event: m[1],
      data: JSON.parse(m[2]!) as Record<string, unknown>,
    }));
    const chunks = events
      .filter((e) => e.event === 'message_chunk')
      .map((e) => e.data.text)
      .join('');
    const done = events.at(-1)!;
    expect(chunks).toBe('one two three');
    expect(done).toMatchObject({
      event: 'message_done',
      data: { text: 'one two three', tokens_out: 3 },
    });
  });

  it.each([
    ['no Accept header', undefined],
    ['Accept: application/json', 'application/json'],
    ['Accept: */* (no stream named)', '*/*'],
    ['Accept: text/*', 'text/*'],
    ['text/event-stream refused with q=0', 'text/event-stream;q=0, application/json'],
    ['text/event-stream only after 2 KiB of Accept', `${'x/y, '.repeat(500)}text/event-stream`],
  ])(
    '"stream: default false; streaming is delivered over WebSocket": stream: true with %s answers form A/B JSON',
    async (_label, accept) => {
      bed.fake.reply({ text: 'one two three', usage: { inputTokens: 2, outputTokens: 3 } });
      const res = await fetch(`${bed.gw.url}/api/v1/chat`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(accept === undefined ? {} : { accept }),
        },
        body: JSON.stringify({ message: 'count', stream: true }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toMatchObject({
        reply: 'one two three',
        response: 'one two three',
        session_id: 'default',
        tokens_in: 2,
        tokens_out: 3,
      });
    },
  );

  it('returns canvas_data only when the reply is chart-compatible', async () => {
    bed.fake.reply(
      { text: 'Sales:\n```json\n{"type":"bar","labels":["Q1","Q2"],"values":[10,12]}\n```' },
      { text: 'Paris is the capital of France.' },
    );
    const chart = await bed.post('/chat/canvas', {
      message: 'Chart my sales',
      session_id: 'canvas',
    });
    expect(chart.body.canvas_data).toEqual({ type: 'bar', labels: ['Q1', 'Q2'], values: [10, 12] });
    expect(systemOf(bed, 0)).toContain('"labels"');
    const plain = await bed.post('/chat/canvas', {
      message: 'Capital of France?',
      session_id: 'canvas',
    });
    expect(plain.body).toEqual({ reply: 'Paris is the capital of France.', session_id: 'canvas' });
  });

  it('answers 502 with the attempt chain when every provider fails', async () => {
    // The configured models, then Anthropic's default: the bed holds an Anthropic key that no
    // role names, and automatic routing tries keyed providers last.
    bed.fake.reply(
      { error: { status: 500, message: 'down' } },
      { error: { status: 500, message: 'down too' } },
      { error: { status: 500, message: 'down as well' } },
    );
    const { status, body } = await bed.post('/chat', { message: 'hello', session_id: 'fail' });
    expect(status).toBe(502);
    expect(body.detail).toMatch(
      /^Every provider failed: gpt-4o \(openai\): 500 .*ollama\/llama3\.2 \(ollama\): 500 .*claude-sonnet-4-5 \(anthropic\): 500/,
    );
  });
});
