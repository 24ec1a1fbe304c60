/**
 * Anthropic `stop_reason: "pause_turn"`: the server pauses a long server-tool turn (web search)
 * and the client continues it by sending the paused assistant content back as the last message.
 * The fake server answers 400 unless the continuation repeats the earlier messages and carries
 * the paused content unchanged, so every passing continuation here is a faithful one.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema.ts';
import { createHostStats } from '../observability/host-stats.ts';
import { silentLogger } from '../observability/logger.ts';
import { createMetrics } from '../observability/metrics.ts';
import type { ReplyScript, ScriptedWebSearch } from '../testing/fakes/fake-llm/script.ts';
import { createFakeLlmServer, type FakeLlmServer } from '../testing/fakes/fake-llm/server.ts';
import { arrayOf, bodyOf, isObject, type RecordedRequest } from '../testing/fakes/fake-llm/wire.ts';
import { createUsageTracker } from '../usage/usage-tracker.ts';
import type { ModelsConfig } from './catalog.ts';
import { MAX_PAUSE_CONTINUATIONS } from './llm-call.ts';
import type { ChatMessage, Generation, ToolSpec } from './messages.ts';
import { createLlmRouter, type RouteRequest } from './router.ts';

const RELEASES: ScriptedWebSearch = {
  query: 'hearth release',
  results: [{ url: 'https://example.org/hearth/releases', title: 'Hearth releases' }],
};
const NEWS: ScriptedWebSearch = {
  query: 'hearth news',
  results: [{ url: 'https://example.com/news/hearth', title: 'Hearth news' }],
};
const QUESTION: ChatMessage = { role: 'user', content: 'What is new in Hearth?' };
const GET_TIME: ToolSpec = {
  name: 'get_time',
  description: 'The current time in an IANA time zone.',
  parameters: { type: 'object', properties: { timezone: { type: 'string' } } },
};

/** The block types of the last message of a request the fake received. */
function lastMessageBlocks(request: RecordedRequest | undefined): unknown[] {
  const messages = arrayOf(bodyOf(request!).messages).filter(isObject);
  const last = messages.at(-1);
  expect(last?.role).toBe('assistant');
  return arrayOf(last?.content)
    .filter(isObject)
    .map((block) => block.type);
}

describe('Anthropic pause_turn continuations', () => {
  let fake: FakeLlmServer;
  beforeAll(async () => {
    fake = await createFakeLlmServer();
  });
  afterAll(() => fake.close());
  afterEach(() => fake.reset());

  function build() {
    const metrics = createMetrics(createHostStats('/'));
    const usage = createUsageTracker(metrics);
    const config: ModelsConfig = {
      ...configSchema.parse({}).models,
      anthropic_api_key: 'test-key',
      primary: 'claude-sonnet-4-5',
      web_search_enabled: true,
    };
    const router = createLlmRouter({
      models: () => config,
      endpoints: { anthropic: `${fake.url}/v1` },
      fetch: globalThis.fetch,
      usage,
      metrics,
      logger: silentLogger(),
    });
    return { router, usage };
  }

  type Router = ReturnType<typeof build>['router'];

  async function streamed(router: Router, request: RouteRequest) {
    const deltas: string[] = [];
    for await (const event of router.stream(request)) {
      if (event.type === 'text') deltas.push(event.text);
      if (event.type === 'done') return { deltas, result: event.result };
    }
    throw new Error('the stream ended without done');
  }

  const step = async (path: 'generate' | 'stream', router: Router, request: RouteRequest) =>
    path === 'generate' ? router.generate(request) : (await streamed(router, request)).result;

  for (const path of ['generate', 'stream'] as const) {
    it(`continues a turn paused after a search with the paused content appended (${path})`, async () => {
      const { router, usage } = build();
      fake.reply(
        {
          webSearch: RELEASES,
          text: 'Hearth 2.1 came out last week. ',
          pauseTurn: 'after-search',
          usage: { inputTokens: 100, outputTokens: 20 },
        },
        {
          webSearch: NEWS,
          text: 'It adds web search.',
          usage: { inputTokens: 900, outputTokens: 10 },
        },
      );
      const result: Generation = await step(path, router, { messages: [QUESTION] });

      expect(result.text).toBe('Hearth 2.1 came out last week. It adds web search.');
      expect(result.finishReason).toBe('stop');
      expect(result.toolCalls).toEqual([]);
      expect(result.usage).toEqual({ inputTokens: 1000, outputTokens: 30 });
      expect(result.webSearches).toBe(2);
      expect(result.sources?.map((source) => source.url)).toEqual([
        RELEASES.results[0]!.url,
        NEWS.results[0]!.url,
      ]);
      expect(fake.requests).toHaveLength(2);
      expect(lastMessageBlocks(fake.requests[1])).toEqual([
        'server_tool_use',
        'web_search_tool_result',
        'text',
      ]);
      expect(usage.report().models['claude-sonnet-4-5']).toMatchObject({
        input_tokens: 1000,
        output_tokens: 30,
        web_searches: 2,
      });
    });

    it(`continues a turn paused mid-search, then replays the whole turn in the tool loop (${path})`, async () => {
      const { router } = build();
      fake.reply(
        { text: 'Let me look that up.', webSearch: RELEASES, pauseTurn: 'mid-search' },
        { toolCalls: [{ name: 'get_time', arguments: { timezone: 'UTC' } }] },
        { text: 'It is noon; Hearth 2.1 is out.' },
      );
      const first = await step(path, router, { messages: [QUESTION], tools: [GET_TIME] });
      expect(first.text).toBe('Let me look that up.');
      expect(first.toolCalls.map((call) => call.name)).toEqual(['get_time']);
      expect(first.webSearches).toBe(1);
      // The paused turn ends with the query alone; its result opens the continuation.
      expect(lastMessageBlocks(fake.requests[1])).toEqual(['text', 'server_tool_use']);

      const [call] = first.toolCalls;
      const second = await step(path, router, {
        messages: [
          QUESTION,
          {
            role: 'assistant',
            content: first.text,
            toolCalls: first.toolCalls,
            replay: first.replay,
          },
          { role: 'tool', toolCallId: call!.id, toolName: 'get_time', content: '12:00' },
        ],
        tools: [GET_TIME],
      });
      expect(second.text).toBe('It is noon; Hearth 2.1 is out.');
      // One assistant message for the whole turn: the search is paired with its result again.
      const messages = arrayOf(bodyOf(fake.requests[2]!).messages).filter(isObject);
      expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
      expect(
        arrayOf(messages[1]?.content)
          .filter(isObject)
          .map((block) => block.type),
      ).toEqual(['text', 'server_tool_use', 'web_search_tool_result', 'tool_use']);
    });

    it(`stops after ${MAX_PAUSE_CONTINUATIONS} continuations with finish reason other (${path})`, async () => {
      const { router } = build();
      const paused = (index: number): ReplyScript => ({
        webSearch: RELEASES,
        text: `Part ${index}.`,
        pauseTurn: 'after-search',
      });
      fake.reply(...Array.from({ length: MAX_PAUSE_CONTINUATIONS + 2 }, (_, i) => paused(i)));
      const result = await step(path, router, { messages: [QUESTION] });
      expect(fake.requests).toHaveLength(1 + MAX_PAUSE_CONTINUATIONS);
      expect(fake.pending()).toBe(1);
      expect(result.finishReason).toBe('other');
      expect(result.text).toBe('Part 0.Part 1.Part 2.Part 3.');
      expect(result.webSearches).toBe(1 + MAX_PAUSE_CONTINUATIONS);
    });
  }

  it('streams the continuation on from the paused text, chunk by chunk', async () => {
    const { router } = build();
    fake.reply(
      {
        webSearch: RELEASES,
        chunks: ['Hearth ', '2.1 '],
        text: 'Hearth 2.1 ',
        pauseTurn: 'after-search',
      },
      { chunks: ['is ', 'out.'], text: 'is out.' },
    );
    const { deltas, result } = await streamed(router, { messages: [QUESTION] });
    expect(deltas).toEqual(['Hearth ', '2.1 ', 'is ', 'out.']);
    expect(result.text).toBe('Hearth 2.1 is out.');
    // The paused text is sent back without its trailing space (the API refuses final
    // assistant content ending in whitespace); the fake checks the rest is unchanged.
    const last = arrayOf(bodyOf(fake.requests[1]!).messages).filter(isObject).at(-1);
    expect(arrayOf(last?.content).filter(isObject).at(-1)).toMatchObject({ text: 'Hearth 2.1' });
  });

  it('sends the signed thinking block back first when thinking is on', async () => {
    const { router } = build();
    router.settings.thinking = 'medium';
    fake.reply(
      {
        reasoning: 'The user wants news; search first.',
        webSearch: RELEASES,
        pauseTurn: 'mid-search',
      },
      { text: 'Hearth 2.1 is out.' },
    );
    const result = await router.generate({ messages: [QUESTION] });
    expect(result.text).toBe('Hearth 2.1 is out.');
    expect(result.reasoning).toBe('The user wants news; search first.');
    expect(lastMessageBlocks(fake.requests[1])).toEqual(['thinking', 'server_tool_use']);
  });
});
