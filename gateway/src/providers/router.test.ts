import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema.ts';
import { createHostStats } from '../observability/host-stats.ts';
import { silentLogger } from '../observability/logger.ts';
import { createMetrics, metricsSnapshot } from '../observability/metrics.ts';
import { createFakeLlmServer, type FakeLlmServer } from '../testing/fakes/fake-llm/server.ts';
import { createUsageTracker } from '../usage/usage-tracker.ts';
import type { ProviderName } from './catalog.ts';
import { createLlmRouter } from './router.ts';

describe('LLM router', () => {
  let fake: FakeLlmServer;
  beforeAll(async () => {
    fake = await createFakeLlmServer();
  });
  afterAll(() => fake.close());
  afterEach(() => fake.reset());

  function build(models: Partial<ReturnType<typeof configSchema.parse>['models']>) {
    const metrics = createMetrics(createHostStats('/'));
    const usage = createUsageTracker(metrics);
    const config = { ...configSchema.parse({}).models, ...models };
    const endpoints: Partial<Record<ProviderName, string>> = {
      openai: `${fake.url}/v1`,
      anthropic: `${fake.url}/v1`,
      groq: `${fake.url}/openai/v1`,
      ollama: fake.url,
    };
    const router = createLlmRouter({
      models: () => config,
      endpoints,
      fetch: globalThis.fetch,
      usage,
      metrics,
      logger: silentLogger(),
    });
    return { router, usage, metrics };
  }

  const user = (content: string) => [{ role: 'user' as const, content }];

  describe('choosing a model', () => {
    const models = {
      primary: 'claude-sonnet-4-5',
      fallback: 'gpt-4o',
      fast: 'groq/llama-3.1-8b-instant',
      local: 'ollama/llama3.2',
    };

    it.each([
      ['hi there', ['groq/llama-3.1-8b-instant', 'claude-sonnet-4-5', 'gpt-4o', 'ollama/llama3.2']],
      [
        'Compare SQLite and PostgreSQL for my NAS',
        ['claude-sonnet-4-5', 'gpt-4o', 'groq/llama-3.1-8b-instant', 'ollama/llama3.2'],
      ],
    ])('routes %j by complexity', (text, expected) => {
      const { router } = build(models);
      expect(router.candidates({ messages: user(text) }).map((c) => c.modelId)).toEqual(expected);
    });

    it('puts an explicit model first, then the usual chain', () => {
      const { router } = build(models);
      expect(
        router
          .candidates({ messages: user('hi'), model: 'gemini-2.5-flash' })
          .map((c) => c.modelId)[0],
      ).toBe('gemini-2.5-flash');
    });

    it('with onlyModel, tries that model alone: no chain, no forced provider; privacy mode still wins', () => {
      const { router } = build(models);
      const only = () =>
        router
          .candidates({ messages: user('hi'), model: 'gemini-2.5-flash', onlyModel: true })
          .map((c) => c.modelId);
      expect(only()).toEqual(['gemini-2.5-flash']);
      router.settings.provider = 'openai';
      expect(only()).toEqual(['gemini-2.5-flash']);
      router.settings.privacyMode = true;
      expect(only()).toEqual(['ollama/llama3.2']);
      router.settings.privacyMode = false;
      expect(() =>
        router.candidates({ messages: user('hi'), model: 'mystery-9', onlyModel: true }),
      ).toThrow("No provider for model id 'mystery-9'");
    });

    it('rejects a model id no provider claims', () => {
      const { router } = build(models);
      expect(() => router.candidates({ messages: user('hi'), model: 'mystery-9' })).toThrow(
        "No provider for model id 'mystery-9'",
      );
    });

    it('uses only the forced provider’s models, or its default model', () => {
      const { router } = build(models);
      router.settings.provider = 'openai';
      expect(router.candidates({ messages: user('hi') }).map((c) => c.modelId)).toEqual(['gpt-4o']);
      router.settings.provider = 'google';
      expect(router.candidates({ messages: user('hi') }).map((c) => c.modelId)).toEqual([
        'gemini-2.5-flash',
      ]);
    });

    it('sends everything to the local runtime in privacy mode, whatever is forced', () => {
      const { router } = build(models);
      router.settings.provider = 'anthropic';
      router.settings.privacyMode = true;
      expect(
        router
          .candidates({ messages: user('Compare x and y'), model: 'gpt-4o' })
          .map((c) => c.modelId),
      ).toEqual(['ollama/llama3.2']);
    });
  });

  it('falls back to the next candidate on a provider error and logs the attempts', async () => {
    const { router, metrics } = build({
      primary: 'gpt-4o',
      fallback: 'ollama/llama3.2',
      fast: '',
      openai_api_key: 'sk',
    });
    fake.reply(
      { error: { status: 500, message: 'upstream exploded' } },
      { text: 'local answer', usage: { inputTokens: 7, outputTokens: 3 } },
    );
    const result = await router.generate({ messages: user('Compare two things in detail') });
    expect(result).toMatchObject({
      text: 'local answer',
      provider: 'ollama',
      model: 'ollama/llama3.2',
    });
    expect(result.attempts.map((a) => [a.model, a.error === undefined])).toEqual([
      ['gpt-4o', false],
      ['ollama/llama3.2', true],
    ]);
    expect(result.attempts[0]?.error).toMatch(/^500 /);
    const snapshot = await metricsSnapshot(metrics.registry);
    expect(snapshot.generation_errors_total?.values).toEqual({ 'model=gpt-4o': 1 });
    expect(snapshot.generation_requests_total?.values).toEqual({
      'model=gpt-4o': 1,
      'model=ollama/llama3.2': 1,
    });
  });

  it('fails with every attempt named when all providers fail', async () => {
    const { router } = build({
      primary: 'gpt-4o',
      fallback: '',
      fast: '',
      local: 'ollama/llama3.2',
      openai_api_key: 'sk',
    });
    fake.reply(
      { error: { status: 401, message: 'bad key' } },
      { error: { status: 503, message: 'busy' } },
    );
    await expect(router.generate({ messages: user('hello') })).rejects.toThrow(
      /^Every provider failed: gpt-4o \(openai\): 401 .*; ollama\/llama3\.2 \(ollama\): 503 /,
    );
  });

  it('records usage and cost for the model that answered', async () => {
    const { router, usage } = build({ primary: 'gpt-4o-mini', fast: '', openai_api_key: 'sk' });
    fake.reply({ text: 'fine', usage: { inputTokens: 1_000_000, outputTokens: 0 } });
    await router.generate({ messages: user('hello') });
    expect(usage.report()).toEqual({
      models: {
        'gpt-4o-mini': {
          input_tokens: 1_000_000,
          output_tokens: 0,
          web_searches: 0,
          cost_usd: 0.15,
        },
      },
      total_cost_usd: 0.15,
    });
  });

  it.each([
    ['off', false],
    ['low', true],
    ['max', true],
  ] as const)(
    'sends thinking %s to the local runtime as think: %s on generate and stream',
    async (level, think) => {
      const { router } = build({ primary: 'ollama/qwen3', fast: '' });
      router.settings.thinking = level;
      fake.reply({ text: 'a' }, { text: 'b' });
      await router.generate({ messages: user('hello') });
      for await (const event of router.stream({ messages: user('hello') })) void event;
      expect(fake.requests.map((r) => (r.body as { think?: boolean }).think)).toEqual([
        think,
        think,
      ]);
    },
  );

  it('streams text, then reports the routed result', async () => {
    const { router } = build({
      primary: 'claude-sonnet-4-5',
      fast: '',
      anthropic_api_key: 'sk-ant',
    });
    fake.reply({ text: 'one two three', usage: { inputTokens: 5, outputTokens: 3 } });
    const texts: string[] = [];
    let done: unknown;
    for await (const event of router.stream({ messages: user('hello') })) {
      if (event.type === 'text') texts.push(event.text);
      if (event.type === 'done') done = event.result;
    }
    expect(texts.join('')).toBe('one two three');
    expect(done).toMatchObject({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      usage: { inputTokens: 5, outputTokens: 3 },
    });
  });

  it('falls back while streaming only before the first chunk', async () => {
    const { router } = build({
      primary: 'gpt-4o',
      fallback: 'ollama/llama3.2',
      fast: '',
      openai_api_key: 'sk',
    });
    fake.reply({ error: { status: 429, message: 'slow down' } }, { text: 'from local' });
    const texts: string[] = [];
    for await (const event of router.stream({ messages: user('Compare a and b') }))
      if (event.type === 'text') texts.push(event.text);
    expect(texts.join('')).toBe('from local');

    fake.reply({ text: 'partial ', streamError: 'connection reset' });
    const consume = async () => {
      for await (const event of router.stream({ messages: user('Compare a and b') })) void event;
    };
    await expect(consume()).rejects.toThrow(/^Generation failed mid-stream/);
  });
});
