import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema.ts';
import { createFakeLlmServer, type FakeLlmServer } from '../testing/fakes/fake-llm/server.ts';
import { providerSpec } from './catalog.ts';
import { generate } from './llm-call.ts';
import { ollamaFetch } from './ollama-fetch.ts';
import { thinkingOptions } from './thinking.ts';

function ndjson(lines: readonly string[], status = 200): typeof globalThis.fetch {
  return () =>
    Promise.resolve(
      new Response(lines.join('\n'), {
        status,
        headers: { 'content-type': 'application/x-ndjson' },
      }),
    );
}

describe('ollamaFetch', () => {
  it("rewrites Ollama's error body into the shape ollama-ai-provider-v2 parses", async () => {
    const fetch = ollamaFetch(
      ndjson(['{"error":"model \\"llama9\\" not found, try pulling it first"}'], 404),
    );
    const res = await fetch('http://127.0.0.1:11434/api/chat');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { message: 'model "llama9" not found, try pulling it first' },
    });
  });

  it('passes stream lines through, then fails the stream on an error line', async () => {
    const fetch = ollamaFetch(
      ndjson(['{"message":{"content":"a"}}', '{"error":"out of memory"}', '{"done":true}']),
    );
    const body: ReadableStream<Uint8Array> = (await fetch('http://127.0.0.1:11434/api/chat')).body!;
    const reader = body.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('{"message":{"content":"a"}}\n');
    await expect(reader.read()).rejects.toThrow('out of memory');
  });

  it('leaves successful JSON answers untouched', async () => {
    const body = '{"model":"llama3.2","done":true}';
    const fetch = ollamaFetch(() =>
      Promise.resolve(new Response(body, { headers: { 'content-type': 'application/json' } })),
    );
    expect(await (await fetch('http://127.0.0.1:11434/api/chat')).text()).toBe(body);
  });
});

describe('the local runtime refusing to think', () => {
  let server: FakeLlmServer;
  beforeAll(async () => {
    server = await createFakeLlmServer({ ollamaThinkingModels: ['qwen3:8b'] });
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers without thinking when the model cannot think (Ollama\'s 400 "does not support thinking")', async () => {
    const spec = providerSpec('ollama');
    const models = configSchema.parse({}).models;
    const model = await spec.create(
      { apiKey: '', baseURL: server.url, models, fetch: globalThis.fetch },
      'llama3.2',
    );
    server.reply({ text: 'plain answer', usage: { inputTokens: 3, outputTokens: 2 } });
    const result = await generate({
      model,
      messages: [{ role: 'user', content: 'hi' }],
      providerOptions: thinkingOptions(spec.thinking, spec.optionsKey, 'high', false, 'llama3.2'),
    });
    expect(result.text).toBe('plain answer');
    const bodies = server.requests.map((r) => r.body as Record<string, unknown>);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]?.think).toBe(true);
    expect(bodies[1]).not.toHaveProperty('think');
  });

  it('keeps other 400 answers as errors', async () => {
    const fetch = ollamaFetch(() =>
      Promise.resolve(new Response('{"error":"bad request"}', { status: 400 })),
    );
    const res = await fetch('http://127.0.0.1:11434/api/chat', {
      method: 'POST',
      body: '{"think":true}',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { message: 'bad request' } });
  });
});
