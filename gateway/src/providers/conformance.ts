/**
 * The conformance suite every provider adapter passes (Hono's `runTest` pattern): it builds the
 * adapter from the catalog against the fake LLM server speaking that provider's wire format and
 * checks generate, stream, usage, reasoning, the tool round trip, error mapping, auth, the model
 * id sent, and the thinking ladder on both paths. A skipped check must say why.
 */
import { APICallError } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema.ts';
import { INSPECTORS, type WireName } from '../testing/fakes/fake-llm/inspect.ts';
import type { ReplyScript } from '../testing/fakes/fake-llm/script.ts';
import { createFakeLlmServer, type FakeLlmServer } from '../testing/fakes/fake-llm/server.ts';
import type {
  FakeLlmOptions,
  JsonObject,
  RecordedRequest,
} from '../testing/fakes/fake-llm/wire.ts';
import { providerSpec, resolveModel, type ModelsConfig, type ProviderName } from './catalog.ts';
import { generate, stream, type ModelCall } from './llm-call.ts';
import type { ChatMessage, Generation, GenerationEvent, ToolSpec } from './messages.ts';
import { geminiThinkingConfig } from './gemini-thinking.ts';
import {
  ANTHROPIC_BUDGET,
  REASONING_EFFORT,
  THINKING_LEVELS,
  thinkingOptions,
  type ProviderOptions,
  type ThinkingLevel,
  type ThinkingStyle,
} from './thinking.ts';

export const CONFORMANCE_TESTS = [
  'generate',
  'stream',
  'usage',
  'max-output-tokens',
  'reasoning',
  'tool-round-trip',
  'stream-tool-round-trip',
  'tool-round-trip-with-thinking',
  'error-status',
  'error-message',
  'stream-error',
  'abort',
  'auth-header',
  'model-id',
  'thinking',
] as const;
export type ConformanceTest = (typeof CONFORMANCE_TESTS)[number];

export interface ConformanceSkip {
  reason: string;
  tests: readonly ConformanceTest[];
}

export interface AdapterConformanceOptions {
  /** The fake server's wire module that must answer this provider. */
  wire: WireName;
  /** The provider's real base path, appended to the fake server's URL (`/v1`, `/openai/v1` ...). */
  basePath: string;
  /** The credential header the provider must send for api key `test-key`; null for none. */
  auth: { header: string; value: string } | null;
  /** The model id as configured (routing prefix included); the spec's default model otherwise. */
  modelId?: string;
  /** A model that takes a reasoning effort, for providers whose default model does not. */
  reasoningModelId?: string;
  /** `[models]` fields on top of the defaults (endpoints, regions). */
  models?: Partial<ModelsConfig>;
  /** Vendor quirks of a shared wire format. */
  fake?: FakeLlmOptions;
  skip?: readonly ConformanceSkip[];
}

/**
 * How thinking.ts's providerOptions must appear on the wire for one level: the request fields
 * `INSPECTORS[wire].thinking` reads back. `{}` means no thinking field at all.
 */
export function expectedThinking(
  style: ThinkingStyle,
  wire: WireName,
  level: ThinkingLevel,
  reasoningModel: boolean,
  nativeModelId: string,
): JsonObject {
  switch (style) {
    case 'anthropic-budget':
      return {
        thinking:
          level === 'off'
            ? { type: 'disabled' }
            : { type: 'enabled', budget_tokens: ANTHROPIC_BUDGET[level] },
      };
    case 'gemini-thinking': {
      // The per-model table itself is pinned by gemini-thinking.test.ts.
      const thinkingConfig = geminiThinkingConfig(nativeModelId, level);
      return thinkingConfig ? { thinkingConfig } : {};
    }
    case 'reasoning-effort':
      if (level === 'off' || !reasoningModel) return {};
      return wire === 'openai-responses'
        ? { reasoning: { effort: REASONING_EFFORT[level] } }
        : { reasoning_effort: REASONING_EFFORT[level] };
    case 'openrouter-effort':
      return level === 'off' ? {} : { reasoning: { effort: REASONING_EFFORT[level] } };
    case 'ollama-think':
      return { think: level !== 'off' };
    case 'none':
      return {};
  }
}

const GET_TIME: ToolSpec = {
  name: 'get_time',
  description: 'The current time in an IANA time zone.',
  parameters: {
    type: 'object',
    properties: { timezone: { type: 'string', description: 'IANA zone, e.g. Europe/Paris' } },
    required: ['timezone'],
  },
};
const QUESTION: ChatMessage = { role: 'user', content: 'What time is it in Paris?' };
const ARGS = { timezone: 'Europe/Paris' };

async function collect(events: AsyncIterable<GenerationEvent>): Promise<GenerationEvent[]> {
  const out: GenerationEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

function finished(events: readonly GenerationEvent[]): Generation {
  const last = events.at(-1);
  if (last?.type !== 'finish')
    throw new Error(`stream did not end with finish: ${JSON.stringify(last)}`);
  return last.generation;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

export function runAdapterConformance(
  providerName: ProviderName,
  options: AdapterConformanceOptions,
): void {
  const spec = providerSpec(providerName);
  const inspect = INSPECTORS[options.wire];
  const modelId = options.modelId ?? spec.defaultModel;

  const skipOf = (test: ConformanceTest) => options.skip?.find((skip) => skip.tests.includes(test));
  const check = (test: ConformanceTest, title: string, body: () => Promise<void>) => {
    const skip = skipOf(test);
    if (skip) it.skip(`${title} [skipped: ${skip.reason}]`, body);
    else it(title, body);
  };

  describe(`${providerName} adapter conformance (${options.wire})`, () => {
    let server: FakeLlmServer;

    beforeAll(async () => {
      server = await createFakeLlmServer(options.fake);
    });
    afterAll(async () => {
      await server.close();
    });
    beforeEach(() => {
      server.reset();
    });

    function nativeIdOf(id: string): string {
      const resolved = resolveModel(id);
      if (resolved?.provider !== providerName)
        throw new Error(`${id} does not resolve to ${providerName}`);
      return resolved.nativeId;
    }

    async function call(
      partial: Partial<ModelCall> & { messages?: readonly ChatMessage[] } = {},
      id = modelId,
    ): Promise<ModelCall> {
      const models: ModelsConfig = { ...configSchema.parse({}).models, ...options.models };
      const model = await spec.create(
        {
          apiKey: 'test-key',
          baseURL: `${server.url}${options.basePath}`,
          models,
          fetch: globalThis.fetch,
        },
        nativeIdOf(id),
      );
      return { model, messages: [QUESTION], providerOptions: {}, ...partial };
    }

    function only(index = 0): RecordedRequest {
      const request = server.requests[index];
      if (!request)
        throw new Error(`no request #${index} recorded (got ${server.requests.length})`);
      expect(request.wire, `${request.method} ${request.path} answered by`).toBe(options.wire);
      return request;
    }

    function thinkingFor(level: ThinkingLevel, id: string): ProviderOptions {
      return thinkingOptions(
        spec.thinking,
        spec.optionsKey,
        level,
        spec.isReasoningModel(nativeIdOf(id)),
        nativeIdOf(id),
      );
    }

    check(
      'generate',
      'generates plain text at the provider path, with the system prompt',
      async () => {
        server.reply({
          text: 'Hello from the fake provider.',
          usage: { inputTokens: 9, outputTokens: 6 },
        });
        const generation = await generate(await call({ system: 'You are Hearth. Be brief.' }));
        expect(generation.text).toBe('Hello from the fake provider.');
        expect(generation.toolCalls).toEqual([]);
        expect(generation.finishReason).toBe('stop');
        expect(server.requests).toHaveLength(1);
        expect(only().path.startsWith(options.basePath)).toBe(true);
        expect(inspect.system(only())).toContain('You are Hearth. Be brief.');
      },
    );

    check(
      'stream',
      'streams text chunks that concatenate to the reply and ends with finish',
      async () => {
        const chunks = ['Streaming ', 'works ', 'fine.'];
        server.reply({ text: chunks.join(''), chunks, usage: { inputTokens: 4, outputTokens: 3 } });
        const events = await collect(stream(await call()));
        const texts = events.flatMap((event) =>
          event.type === 'text' && event.text !== '' ? [event.text] : [],
        );
        expect(texts.join('')).toBe('Streaming works fine.');
        expect(texts.length).toBeGreaterThanOrEqual(2);
        expect(events.filter((event) => event.type === 'finish')).toHaveLength(1);
        const generation = finished(events);
        expect(generation.text).toBe('Streaming works fine.');
        expect(generation.finishReason).toBe('stop');
      },
    );

    check('usage', 'maps input and output tokens on generate and stream', async () => {
      const usage = { inputTokens: 21, outputTokens: 13 };
      server.reply({ text: 'Counted.', usage }, { text: 'Counted again.', usage });
      expect((await generate(await call())).usage).toEqual(usage);
      expect(finished(await collect(stream(await call()))).usage).toEqual(usage);
    });

    check(
      'max-output-tokens',
      'sends maxOutputTokens as the limit the provider honours',
      async () => {
        server.reply({ text: 'a' }, { text: 'b' });
        await generate(await call({ maxOutputTokens: 321 }));
        await collect(stream(await call({ maxOutputTokens: 321 })));
        for (const request of server.requests) expect(inspect.maxTokens(request)).toBe(321);
      },
    );

    check('reasoning', 'returns the reasoning text on generate and stream', async () => {
      const script: ReplyScript = {
        reasoning: 'Paris is UTC+1 in winter.',
        text: 'It is noon.',
        usage: { inputTokens: 5, outputTokens: 9 },
      };
      server.reply(script, script);
      const generation = await generate(await call());
      expect(generation.reasoning).toBe('Paris is UTC+1 in winter.');
      expect(generation.text).toBe('It is noon.');
      const events = await collect(stream(await call()));
      const reasoning = events
        .flatMap((event) => (event.type === 'reasoning' ? [event.text] : []))
        .join('');
      expect(reasoning).toBe('Paris is UTC+1 in winter.');
      expect(finished(events).reasoning).toBe('Paris is UTC+1 in winter.');
    });

    async function roundTrip(
      run: (c: ModelCall) => Promise<Generation>,
      providerOptions: ProviderOptions,
      id = modelId,
      reasoning?: string,
    ) {
      server.reply({
        ...(reasoning ? { reasoning } : {}),
        toolCalls: [{ name: 'get_time', arguments: ARGS }],
        usage: { inputTokens: 30, outputTokens: 12 },
      });
      const first = await run(await call({ tools: [GET_TIME], providerOptions }, id));
      expect(first.finishReason).toBe('tool-calls');
      expect(first.toolCalls).toHaveLength(1);
      const [toolCall] = first.toolCalls;
      if (!toolCall) throw new Error('no tool call');
      expect(toolCall).toMatchObject({ name: 'get_time', arguments: ARGS });
      expect(toolCall.id).not.toBe('');
      expect(inspect.toolNames(only(0))).toContain('get_time');

      server.reply({ text: 'It is 12:00 in Paris.', usage: { inputTokens: 50, outputTokens: 8 } });
      const history: ChatMessage[] = [
        QUESTION,
        { role: 'assistant', content: '', toolCalls: first.toolCalls, replay: first.replay },
        { role: 'tool', toolCallId: toolCall.id, toolName: 'get_time', content: '12:00' },
      ];
      const second = await run(
        await call({ messages: history, tools: [GET_TIME], providerOptions }, id),
      );
      expect(second.text).toBe('It is 12:00 in Paris.');
      expect(second.finishReason).toBe('stop');

      const followUp = only(1);
      expect(inspect.toolCalls(followUp)).toEqual([
        { id: toolCall.id, name: 'get_time', arguments: ARGS },
      ]);
      const results = inspect.toolResults(followUp);
      expect(results).toHaveLength(1);
      expect(results[0]?.callId).toBe(toolCall.id);
      expect(results[0]?.output).toContain('12:00');
    }

    const generateStep = (c: ModelCall) => generate(c);
    const streamStep = async (c: ModelCall) => finished(await collect(stream(c)));

    check(
      'tool-round-trip',
      'round-trips a tool call: call, result in the provider format, final text',
      async () => {
        await roundTrip(generateStep, {});
      },
    );

    check('stream-tool-round-trip', 'round-trips a tool call on the streaming path', async () => {
      await roundTrip(streamStep, {});
    });

    check(
      'tool-round-trip-with-thinking',
      'round-trips a tool call with thinking at high',
      async () => {
        const id = options.reasoningModelId ?? modelId;
        // With thinking on, the model thinks before it calls the tool (as real providers do);
        // the replayed assistant turn must carry that block back.
        await roundTrip(generateStep, thinkingFor('high', id), id, 'I should look up the time.');
      },
    );

    for (const status of [500, 429, 400] as const) {
      check(
        'error-status',
        `maps an upstream ${status} to an APICallError (generate and stream)`,
        async () => {
          for (const run of [generateStep, streamStep]) {
            server.reply({ error: { status } });
            const error = await rejection(run(await call()));
            expect(APICallError.isInstance(error), String(error)).toBe(true);
            if (!APICallError.isInstance(error)) return;
            expect(error.statusCode).toBe(status);
            expect(error.isRetryable).toBe(status !== 400);
          }
        },
      );
    }

    check('error-message', "carries the provider's error message", async () => {
      server.reply({ error: { status: 429, message: 'Slow down: 3 requests per minute.' } });
      const error = await rejection(generate(await call()));
      expect(error instanceof Error ? error.message : String(error)).toContain(
        'Slow down: 3 requests per minute.',
      );
    });

    const auth = options.auth;
    check(
      'stream-error',
      'throws when the provider fails mid-stream, after the text so far',
      async () => {
        server.reply({
          text: 'Partial answer',
          chunks: ['Partial ', 'answer'],
          streamError: 'Upstream overloaded mid-stream.',
        });
        const texts: string[] = [];
        const error = await rejection(
          (async () => {
            for await (const event of stream(await call()))
              if (event.type === 'text') texts.push(event.text);
          })(),
        );
        expect(texts.join('')).toBe('Partial answer');
        expect(error instanceof Error ? error.message : String(error)).toContain(
          'Upstream overloaded mid-stream.',
        );
      },
    );

    check('abort', 'stops with an AbortError when the caller aborts mid-stream', async () => {
      server.reply({ text: 'one two three four five six', chunkDelayMs: 20 });
      const controller = new AbortController();
      const texts: string[] = [];
      const error = await rejection(
        (async () => {
          for await (const event of stream(await call({ signal: controller.signal }))) {
            if (event.type === 'text') texts.push(event.text);
            if (texts.length === 2) controller.abort();
          }
        })(),
      );
      expect(texts).toHaveLength(2);
      expect(error instanceof Error ? error.name : String(error)).toBe('AbortError');
    });

    check(
      'auth-header',
      auth ? `authenticates with ${auth.header}` : 'sends no credential',
      async () => {
        server.reply({ text: 'a' }, { text: 'b' });
        await generate(await call());
        await collect(stream(await call()));
        expect(server.requests).toHaveLength(2);
        for (const request of server.requests) {
          if (auth) expect(request.headers[auth.header]).toBe(auth.value);
          else expect(request.headers).not.toHaveProperty('authorization');
        }
      },
    );

    check('model-id', `sends the native model id for ${modelId}`, async () => {
      const nativeId = nativeIdOf(modelId);
      if (spec.stripPrefix) expect(nativeId).not.toBe(modelId);
      server.reply({ text: 'a' }, { text: 'b' });
      await generate(await call());
      await collect(stream(await call()));
      for (const request of server.requests) expect(inspect.model(request)).toBe(nativeId);
    });

    const thinkingModels = [...new Set([modelId, options.reasoningModelId ?? modelId])];
    for (const id of thinkingModels) {
      const reasoningModel = spec.isReasoningModel(nativeIdOf(id));
      for (const level of THINKING_LEVELS) {
        const expected = expectedThinking(
          spec.thinking,
          options.wire,
          level,
          reasoningModel,
          nativeIdOf(id),
        );
        const shown =
          Object.keys(expected).length === 0 ? 'no thinking field' : JSON.stringify(expected);
        check(
          'thinking',
          `thinking ${level} on ${id} sends ${shown} (generate and stream)`,
          async () => {
            server.reply({ text: 'a' }, { text: 'b' });
            await generate(await call({ providerOptions: thinkingFor(level, id) }, id));
            await collect(stream(await call({ providerOptions: thinkingFor(level, id) }, id)));
            expect(server.requests).toHaveLength(2);
            for (const request of server.requests)
              expect(inspect.thinking(request)).toEqual(expected);
          },
        );
      }
    }
  });
}
