/**
 * A tool's SDK form is kept between requests (llm-call.ts): what goes upstream must still be
 * the tool as it is now. Through the OpenAI-compatible adapter and the fake server, the
 * request carries each tool's current description and schema after either changes.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema.ts';
import { createFakeLlmServer, type FakeLlmServer } from '../testing/fakes/fake-llm/server.ts';
import { arrayOf, bodyOf, isObject } from '../testing/fakes/fake-llm/wire.ts';
import { providerSpec } from './catalog.ts';
import { generate, stream } from './llm-call.ts';
import type { ToolSpec } from './messages.ts';

describe('tools sent upstream', () => {
  let fake: FakeLlmServer;
  beforeAll(async () => {
    fake = await createFakeLlmServer();
  });
  afterAll(() => fake.close());
  afterEach(() => fake.reset());

  const model = () =>
    providerSpec('openai_compatible').create(
      {
        apiKey: '',
        baseURL: `${fake.url}/v1`,
        models: configSchema.parse({}).models,
        fetch: globalThis.fetch,
      },
      'bench-model',
    );

  /** The `tools` of the last request, as name → { description, parameters }. */
  function sentTools(): Record<string, { description: unknown; parameters: unknown }> {
    const request = fake.requests.at(-1);
    const out: Record<string, { description: unknown; parameters: unknown }> = {};
    for (const tool of arrayOf(bodyOf(request!).tools).filter(isObject)) {
      const fn = tool.function as { name: string; description: unknown; parameters: unknown };
      out[fn.name] = { description: fn.description, parameters: fn.parameters };
    }
    return out;
  }

  async function send(tools: ToolSpec[], streamed = false): Promise<void> {
    const call = {
      model: await model(),
      messages: [{ role: 'user' as const, content: 'hello' }],
      tools,
      providerOptions: {},
    };
    if (!streamed) {
      await generate(call);
      return;
    }
    for await (const event of stream(call)) void event;
  }

  it('sends a tool described anew with its new description, the same schema object kept', async () => {
    const parameters = { type: 'object', properties: { city: { type: 'string' } } };
    await send([{ name: 'weather', description: 'The weather.', parameters }]);
    expect(sentTools().weather?.description).toBe('The weather.');
    await send([{ name: 'weather', description: 'The weather, today.', parameters }]);
    expect(sentTools().weather?.description).toBe('The weather, today.');
    await send([{ name: 'weather', description: 'The weather, today.', parameters }], true);
    expect(sentTools().weather?.description).toBe('The weather, today.');
  });

  it('sends a tool installed again with its new schema', async () => {
    const before = { type: 'object', properties: { city: { type: 'string' } } };
    await send([{ name: 'weather', description: 'The weather.', parameters: before }]);
    const after = { type: 'object', properties: { town: { type: 'string' } } };
    await send([{ name: 'weather', description: 'The weather.', parameters: after }]);
    expect(sentTools().weather?.parameters).toMatchObject({
      properties: { town: { type: 'string' } },
    });
    expect(JSON.stringify(sentTools().weather?.parameters)).not.toContain('city');
  });

  it('sends each tool with its own description when two share a schema object', async () => {
    const parameters = { type: 'object', properties: {} };
    await send([
      { name: 'first', description: 'One.', parameters },
      { name: 'second', description: 'Two.', parameters },
    ]);
    expect(sentTools()).toMatchObject({
      first: { description: 'One.' },
      second: { description: 'Two.' },
    });
    await send([
      { name: 'first', description: 'One.', parameters },
      { name: 'second', description: 'Two.', parameters },
    ]);
    expect(sentTools()).toMatchObject({
      first: { description: 'One.' },
      second: { description: 'Two.' },
    });
  });
});
