/**
 * The thinking ladder on Gemini, per model: what each level sends (the table), and that the
 * fake Gemini server — which enforces the documented per-model rules — records exactly that on
 * the generate and stream paths and accepts it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema.ts';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import { createFakeLlmServer, type FakeLlmServer } from '../testing/fakes/fake-llm/server.ts';
import { providerSpec } from './catalog.ts';
import { geminiThinkingConfig } from './gemini-thinking.ts';
import { generate, stream } from './llm-call.ts';
import { THINKING_LEVELS, thinkingOptions, type ThinkingLevel } from './thinking.ts';

type Row = Record<ThinkingLevel, ReturnType<typeof geminiThinkingConfig>>;
const budgets = (off: number | undefined): Row => ({
  off: off === undefined ? undefined : { thinkingBudget: off },
  low: { thinkingBudget: 1_024 },
  medium: { thinkingBudget: 4_096 },
  high: { thinkingBudget: 8_192 },
  xhigh: { thinkingBudget: 16_384 },
  max: { thinkingBudget: 24_576 },
});
const levels = (off: string, medium: string): Row => ({
  off: { thinkingLevel: off } as Row['off'],
  low: { thinkingLevel: 'low' },
  medium: { thinkingLevel: medium } as Row['medium'],
  high: { thinkingLevel: 'high' },
  xhigh: { thinkingLevel: 'high' },
  max: { thinkingLevel: 'high' },
});
const nothing: Row = {
  off: undefined,
  low: undefined,
  medium: undefined,
  high: undefined,
  xhigh: undefined,
  max: undefined,
};

/** Model id → what each ladder level sends as `thinkingConfig` (undefined: no field). */
const TABLE: Record<string, Row> = {
  // Gemini 2.5: a budget. Flash and Flash-Lite turn thinking off with 0; Pro cannot (min 128).
  'gemini-2.5-flash': budgets(0),
  'gemini-2.5-flash-lite': budgets(0),
  'gemini-2.5-pro': budgets(128),
  'gemini-2.5-pro-preview-06-05': budgets(128),
  // Gemini 3: a level; never off — the lowest level the model has.
  'gemini-3-flash-preview': levels('minimal', 'medium'),
  'gemini-3.1-flash-lite-preview': levels('minimal', 'medium'),
  'gemini-3-pro-preview': levels('low', 'high'),
  'gemini-3.1-pro-preview': levels('low', 'medium'),
  'gemini-3.7-flash': levels('low', 'medium'),
  'gemini-flash-latest': levels('low', 'medium'),
  // Gemini 3 Pro Image stays on a budget (as in @ai-sdk/google) and always thinks.
  'gemini-3-pro-image-preview': budgets(undefined),
  // No thinking at all.
  'gemini-2.0-flash': nothing,
  'gemini-2.0-flash-lite': nothing,
  'gemini-1.5-pro': nothing,
};

describe('Gemini thinking per model', () => {
  for (const [model, row] of Object.entries(TABLE)) {
    it.each(THINKING_LEVELS.map((level) => [level, row[level]] as const))(
      `${model} at %s sends %j`,
      (level, expected) => {
        expect(geminiThinkingConfig(model, level)).toEqual(expected);
      },
    );
  }

  it('reaches the provider options through thinkingOptions (nothing when there is no control)', () => {
    const spec = providerSpec('google');
    const options = (model: string, level: ThinkingLevel) =>
      thinkingOptions(spec.thinking, spec.optionsKey, level, false, model);
    expect(options('gemini-2.5-pro', 'off')).toEqual({
      google: { thinkingConfig: { thinkingBudget: 128 } },
    });
    expect(options('gemini-3-pro-preview', 'medium')).toEqual({
      google: { thinkingConfig: { thinkingLevel: 'high' } },
    });
    expect(options('gemini-2.0-flash', 'high')).toEqual({});
  });
});

describe('Gemini thinking on the wire', () => {
  let server: FakeLlmServer;
  beforeAll(async () => {
    server = await createFakeLlmServer();
  });
  afterAll(() => server.close());
  afterEach(() => server.reset());

  const spec = providerSpec('google');
  async function call(model: string, level: ThinkingLevel) {
    return {
      model: await spec.create(
        {
          apiKey: 'test-key',
          baseURL: `${server.url}/v1beta`,
          models: configSchema.parse({}).models,
          fetch: globalThis.fetch,
        },
        model,
      ),
      messages: [{ role: 'user' as const, content: 'hi' }],
      providerOptions: thinkingOptions(spec.thinking, spec.optionsKey, level, false, model),
    };
  }

  for (const [model, row] of Object.entries(TABLE)) {
    for (const level of ['off', 'medium', 'max'] as const) {
      it(`${model} at ${level}: recorded on generate and stream, and accepted`, async () => {
        server.reply({ text: 'a' }, { text: 'b' });
        expect((await generate(await call(model, level))).text).toBe('a');
        let streamed = '';
        for await (const event of stream(await call(model, level)))
          if (event.type === 'text') streamed += event.text;
        expect(streamed).toBe('b');
        expect(server.requests).toHaveLength(2);
        const expected = row[level] ? { thinkingConfig: row[level] } : {};
        for (const request of server.requests)
          expect(INSPECTORS.gemini.thinking(request)).toEqual(expected);
      });
    }
  }

  it.each([
    ['gemini-2.5-pro', { thinkingBudget: 0 }, 'Budget 0 is invalid'],
    ['gemini-2.0-flash', { thinkingBudget: 0 }, 'Thinking is not supported'],
    ['gemini-2.5-flash', { thinkingLevel: 'low' }, 'Thinking level is not supported'],
    ['gemini-3-pro-preview', { thinkingLevel: 'minimal' }, '"MINIMAL" is not supported'],
  ])('the fake refuses what the real API refuses: %s with %j', async (model, config, message) => {
    const request = await call(model, 'off');
    await expect(
      generate({ ...request, providerOptions: { google: { thinkingConfig: config } } }),
    ).rejects.toThrow(message);
  });
});
