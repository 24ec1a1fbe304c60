import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { encodeEvent } from './aws-event-stream.ts';
import { createFakeLlmServer, type FakeLlmServer } from './server.ts';

let server: FakeLlmServer;

beforeAll(async () => {
  server = await createFakeLlmServer({ models: ['llama3.2:latest', 'qwen3:8b'] });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.reset();
});

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

const chat = (extra: Record<string, unknown> = {}) => ({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'hi' }],
  ...extra,
});

describe('fake LLM server', () => {
  it('records every request with its wire, path, query, headers and parsed body', async () => {
    await post(
      '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
      { contents: [{ parts: [{ text: 'hi' }] }] },
      {
        'x-goog-api-key': 'k',
      },
    );
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({
      wire: 'gemini',
      method: 'POST',
      path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent',
      query: { alt: 'sse' },
      headers: { 'x-goog-api-key': 'k' },
      body: { contents: [{ parts: [{ text: 'hi' }] }] },
    });
  });

  it('answers scripted replies in order, then the default reply', async () => {
    server.reply({ text: 'first' }, { text: 'second' });
    expect(server.pending()).toBe(2);
    const texts: unknown[] = [];
    for (let i = 0; i < 3; i += 1) {
      const body = (await (await post('/v1/chat/completions', chat())).json()) as {
        choices: { message: { content: string } }[];
      };
      texts.push(body.choices[0]?.message.content);
    }
    expect(texts).toEqual(['first', 'second', 'ok']);
    expect(server.pending()).toBe(0);
  });

  it('answers an unknown path with 404 and records it as unmatched', async () => {
    const res = await post('/v9/unknown', {});
    expect(res.status).toBe(404);
    expect(server.requests[0]?.wire).toBe('unmatched');
  });

  it("scripts an HTTP error in the provider's own error shape", async () => {
    server.reply({ error: { status: 429, message: 'slow down' } });
    const res = await post('/v1/messages', {
      model: 'claude-sonnet-4-5',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'slow down' },
    });
  });

  it('lists models for GET /v1/models and /api/tags without consuming a script', async () => {
    server.reply({ text: 'kept' });
    const openai = (await (await fetch(`${server.url}/v1/models`)).json()) as {
      data: { id: string }[];
    };
    const tags = (await (await fetch(`${server.url}/api/tags`)).json()) as {
      models: { name: string }[];
    };
    expect(openai.data.map((m) => m.id)).toEqual(['llama3.2:latest', 'qwen3:8b']);
    expect(tags.models.map((m) => m.name)).toEqual(['llama3.2:latest', 'qwen3:8b']);
    expect(server.pending()).toBe(1);
  });

  it('spaces streamed frames by the scripted delay', async () => {
    server.reply({ text: 'a b c', chunkDelayMs: 25 });
    const started = Date.now();
    const body = await (await post('/v1/chat/completions', chat({ stream: true }))).text();
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect(body.trim().endsWith('data: [DONE]')).toBe(true);
  });

  it('streams OpenAI usage only when stream_options.include_usage asks for it', async () => {
    server.reply(
      { text: 'x', usage: { inputTokens: 3, outputTokens: 2 } },
      { text: 'x', usage: { inputTokens: 3, outputTokens: 2 } },
    );
    const plain = await (await post('/v1/chat/completions', chat({ stream: true }))).text();
    const asked = await (
      await post(
        '/v1/chat/completions',
        chat({ stream: true, stream_options: { include_usage: true } }),
      )
    ).text();
    expect(plain).not.toContain('"usage"');
    expect(asked).toContain('"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}');
  });

  it('rejects, as Ollama does, tool-call arguments sent as a string', async () => {
    const res = await post('/api/chat', {
      model: 'llama3.2',
      messages: [
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ function: { name: 'f', arguments: '{"a":1}' } }],
        },
      ],
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/cannot unmarshal string/);
  });

  it('rejects, as Anthropic does, a thinking budget not below max_tokens', async () => {
    const res = await post('/v1/messages', {
      model: 'claude-sonnet-4-5',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(res.status).toBe(400);
  });

  it('streams Ollama NDJSON unless stream is false', async () => {
    server.reply({ text: 'a b' }, { text: 'a b' });
    const streamed = await post('/api/chat', {
      model: 'llama3.2',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(streamed.headers.get('content-type')).toBe('application/x-ndjson');
    const lines = (await streamed.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { done: boolean });
    expect(lines.at(-1)?.done).toBe(true);
    const whole = await post('/api/chat', {
      model: 'llama3.2',
      stream: false,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(((await whole.json()) as { message: { content: string } }).message.content).toBe('a b');
  });
});

describe('AWS event-stream framing', () => {
  it('writes the prelude, string headers, payload and both CRC32s', () => {
    const frame = Buffer.from(encodeEvent('messageStop', { stopReason: 'end_turn' }));
    const total = frame.readUInt32BE(0);
    const headersLength = frame.readUInt32BE(4);
    expect(total).toBe(frame.length);
    expect(frame.readUInt32BE(8)).toBe(crc32(frame.subarray(0, 8)));
    expect(frame.readUInt32BE(total - 4)).toBe(crc32(frame.subarray(0, total - 4)));
    const headers: Record<string, string> = {};
    for (let at = 12; at < 12 + headersLength;) {
      const nameLength = frame.readUInt8(at);
      const name = frame.toString('utf8', at + 1, at + 1 + nameLength);
      expect(frame.readUInt8(at + 1 + nameLength)).toBe(7);
      const valueLength = frame.readUInt16BE(at + 2 + nameLength);
      headers[name] = frame.toString(
        'utf8',
        at + 4 + nameLength,
        at + 4 + nameLength + valueLength,
      );
      at += 4 + nameLength + valueLength;
    }
    expect(headers).toEqual({
      ':event-type': 'messageStop',
      ':content-type': 'application/json',
      ':message-type': 'event',
    });
    expect(JSON.parse(frame.toString('utf8', 12 + headersLength, total - 4))).toEqual({
      stopReason: 'end_turn',
    });
  });
});

describe('fake LLM server: native web search wire formats', () => {
  const webSearch = {
    query: 'hearth release',
    results: [{ url: 'https://example.org/a', title: 'A' }],
  };
  const sseTypes = (text: string) =>
    text
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
      .map((line) => (JSON.parse(line.slice(6)) as { type?: string }).type);

  it('anthropic: server_tool_use, web_search_tool_result, then cited text', async () => {
    server.reply({ webSearch, text: 'Found it.' });
    const body = (await (
      await post('/v1/messages', {
        model: 'claude-sonnet-4-5',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'hi' }],
        tools: [{ type: 'web_search_20250305', name: 'web_search' }],
      })
    ).json()) as { content: { type: string; citations?: unknown[] }[]; usage: unknown };
    expect(body.content.map((block) => block.type)).toEqual([
      'server_tool_use',
      'web_search_tool_result',
      'text',
    ]);
    expect(body.content[2]?.citations).toMatchObject([
      { type: 'web_search_result_location', url: 'https://example.org/a' },
    ]);
    expect(body.usage).toMatchObject({ server_tool_use: { web_search_requests: 1 } });
  });

  it('anthropic: a replayed server_tool_use without its result is a 400', async () => {
    const res = await post('/v1/messages', {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: [{ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }],
        },
        { role: 'user', content: 'and?' },
      ],
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('web_search_tool_result');
  });

  it('anthropic: pause_turn mid-search, and only an unchanged continuation is accepted', async () => {
    server.reply(
      { text: 'Let me search.', webSearch, pauseTurn: 'mid-search' },
      { text: 'Found it.' },
    );
    const request = {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'web_search_20250305', name: 'web_search' }],
    };
    const paused = (await (await post('/v1/messages', request)).json()) as {
      content: Record<string, unknown>[];
      stop_reason: string;
      usage: Record<string, unknown>;
    };
    expect(paused.stop_reason).toBe('pause_turn');
    expect(paused.content.map((block) => block.type)).toEqual(['text', 'server_tool_use']);
    expect(paused.usage).not.toHaveProperty('server_tool_use');

    const withLast = (content: unknown) => ({
      ...request,
      messages: [...request.messages, { role: 'assistant', content }],
    });
    const dropped = await post('/v1/messages', request);
    expect(dropped.status).toBe(400);
    expect(await dropped.text()).toContain('pause_turn');
    const changed = await post(
      '/v1/messages',
      withLast([paused.content[0], { ...paused.content[1], input: { query: 'other' } }]),
    );
    expect(changed.status).toBe(400);
    expect(await changed.text()).toContain('messages.1.content.1');
    const otherHistory = await post('/v1/messages', {
      ...withLast(paused.content),
      messages: [
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: paused.content },
      ],
    });
    expect(otherHistory.status).toBe(400);

    const continued = (await (await post('/v1/messages', withLast(paused.content))).json()) as {
      content: Record<string, unknown>[];
      stop_reason: string;
      usage: Record<string, unknown>;
    };
    expect(continued.stop_reason).toBe('end_turn');
    expect(continued.content.map((block) => block.type)).toEqual([
      'web_search_tool_result',
      'text',
    ]);
    expect(continued.content[0]?.tool_use_id).toBe(paused.content[1]?.id);
    expect(continued.usage).toMatchObject({ server_tool_use: { web_search_requests: 1 } });
    // The turn is over: a request without it is an ordinary one again.
    expect((await post('/v1/messages', request)).status).toBe(200);
  });

  it('anthropic: a streamed pause_turn ends with message_delta stop_reason pause_turn', async () => {
    server.reply({ webSearch, text: 'Partial.', pauseTurn: 'after-search' });
    const text = await (
      await post('/v1/messages', {
        model: 'claude-sonnet-4-5',
        max_tokens: 100,
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      })
    ).text();
    expect(text).toContain('"stop_reason":"pause_turn"');
    expect(text).toContain('"server_tool_use":{"web_search_requests":1}');
  });

  it('responses: a web_search_call item goes through in_progress, searching, completed', async () => {
    server.reply({ webSearch, text: 'Found it.' });
    const text = await (
      await post('/v1/responses', {
        model: 'gpt-4o',
        input: 'hi',
        stream: true,
        include: ['web_search_call.action.sources'],
      })
    ).text();
    const types = sseTypes(text);
    const searching = types.indexOf('response.web_search_call.searching');
    expect(searching).toBeGreaterThan(types.indexOf('response.web_search_call.in_progress'));
    expect(types.indexOf('response.web_search_call.completed')).toBeGreaterThan(searching);
    expect(types).toContain('response.output_text.annotation.added');
    expect(text).toContain('"sources":[{"type":"url","url":"https://example.org/a"}]');
  });

  it('gemini: groundingMetadata on the last chunk; 2.x refuses googleSearch with functions', async () => {
    server.reply({ webSearch, text: 'Found it.' });
    const text = await (
      await post('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', {
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
        tools: [{ googleSearch: {} }],
      })
    ).text();
    const chunks = text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { candidates: Record<string, unknown>[] });
    expect(chunks.at(-1)?.candidates[0]?.groundingMetadata).toMatchObject({
      webSearchQueries: ['hearth release'],
      groundingChunks: [{ web: { title: 'A' } }],
    });
    expect(chunks.slice(0, -1).every((c) => !c.candidates[0]?.groundingMetadata)).toBe(true);

    const mixed = await post('/v1beta/models/gemini-2.5-flash:generateContent', {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      tools: [{ googleSearch: {} }, { functionDeclarations: [{ name: 'f' }] }],
    });
    expect(mixed.status).toBe(400);
  });
});
