/**
 * `[models] web_search_enabled` against the fake LLM server: off, no search tool is sent; on,
 * each provider's own tool is in the request, a reply with search results streams and completes
 * on both paths, and the provider-executed search round-trips through a multi-step tool loop.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema.ts';
import { createHostStats } from '../observability/host-stats.ts';
import { silentLogger } from '../observability/logger.ts';
import { createMetrics } from '../observability/metrics.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { INSPECTORS, type WireName } from '../testing/fakes/fake-llm/inspect.ts';
import type { ReplyScript, ScriptedWebSearch } from '../testing/fakes/fake-llm/script.ts';
import { createFakeLlmServer, type FakeLlmServer } from '../testing/fakes/fake-llm/server.ts';
import {
  arrayOf,
  bodyOf,
  isObject,
  type FakeLlmOptions,
  type JsonObject,
  type RecordedRequest,
} from '../testing/fakes/fake-llm/wire.ts';
import { createUsageTracker } from '../usage/usage-tracker.ts';
import { providerSpec, type ModelsConfig, type ProviderName } from './catalog.ts';
import type { ChatMessage, Generation, ToolSpec } from './messages.ts';
import { createLlmRouter, type RouteRequest } from './router.ts';
import { countWebSearches, webSearchState, type SearchEvidence } from './web-search.ts';

const SEARCH: ScriptedWebSearch = {
  query: 'Hearth gateway latest release',
  results: [
    { url: 'https://example.org/hearth/releases', title: 'Hearth releases' },
    { url: 'https://example.com/news/hearth', title: 'Hearth news' },
  ],
};
const ANSWER = 'Hearth 2.1 was released last week.';
const GET_TIME: ToolSpec = {
  name: 'get_time',
  description: 'The current time in an IANA time zone.',
  parameters: {
    type: 'object',
    properties: { timezone: { type: 'string' } },
    required: ['timezone'],
  },
};
const QUESTION: ChatMessage = { role: 'user', content: 'What is new in Hearth?' };

const tools = (request: RecordedRequest): JsonObject[] =>
  arrayOf(bodyOf(request).tools).filter(isObject);

interface Case {
  provider: ProviderName;
  model: string;
  /** The provider's real base path, appended to the fake server's URL. */
  basePath: string;
  /** The wire that answers with web search on (OpenAI leaves Chat Completions for Responses). */
  wire: WireName;
  /** The wire that answers with web search off. */
  offWire?: WireName;
  fake?: FakeLlmOptions;
  /** The provider's search tool as sent, or undefined when the request has none. */
  searchTool: (request: RecordedRequest) => unknown;
  expectedTool: unknown;
  /** A source URL the reply must carry (Gemini's are redirect links). */
  sourceUrl: string;
  /** Whether the search is sent alongside function tools on this model. */
  withFunctions: boolean;
}

const typed = (type: string) => (request: RecordedRequest) =>
  tools(request).find((tool) => tool.type === type);
const googleSearch = (request: RecordedRequest) =>
  tools(request).find((tool) => tool.googleSearch !== undefined);
const redirect = `https://vertexaisearch.cloud.google.com/grounding-api-redirect/${encodeURIComponent(SEARCH.results[0]!.url)}`;

const CASES: Case[] = [
  {
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    basePath: '/v1',
    wire: 'anthropic-messages',
    searchTool: typed('web_search_20250305'),
    expectedTool: { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
    sourceUrl: SEARCH.results[0]!.url,
    withFunctions: true,
  },
  {
    provider: 'openai',
    model: 'gpt-4o',
    basePath: '/v1',
    wire: 'openai-responses',
    offWire: 'openai-chat',
    searchTool: typed('web_search'),
    expectedTool: { type: 'web_search' },
    sourceUrl: SEARCH.results[0]!.url,
    withFunctions: true,
  },
  {
    provider: 'google',
    model: 'gemini-3-flash-preview',
    basePath: '/v1beta',
    wire: 'gemini',
    searchTool: googleSearch,
    expectedTool: { googleSearch: {} },
    sourceUrl: redirect,
    withFunctions: true,
  },
  {
    provider: 'google',
    model: 'gemini-2.5-flash',
    basePath: '/v1beta',
    wire: 'gemini',
    searchTool: googleSearch,
    expectedTool: { googleSearch: {} },
    sourceUrl: redirect,
    withFunctions: false,
  },
  {
    provider: 'xai',
    model: 'grok-4',
    basePath: '/v1',
    wire: 'openai-responses',
    searchTool: typed('web_search'),
    expectedTool: { type: 'web_search' },
    sourceUrl: SEARCH.results[0]!.url,
    withFunctions: true,
  },
];

describe('native web search ([models] web_search_enabled)', () => {
  let fake: FakeLlmServer;
  beforeAll(async () => {
    fake = await createFakeLlmServer({ openAiChat: { searchResults: true } });
  });
  afterAll(() => fake.close());
  afterEach(() => fake.reset());

  function build(provider: ProviderName, basePath: string, models: Partial<ModelsConfig>) {
    const metrics = createMetrics(createHostStats('/'));
    const config: ModelsConfig = {
      ...configSchema.parse({}).models,
      [`${provider}_api_key`]: 'test-key',
      ...models,
    };
    const router = createLlmRouter({
      models: () => config,
      endpoints: { [provider]: `${fake.url}${basePath}` },
      fetch: globalThis.fetch,
      usage: createUsageTracker(metrics),
      metrics,
      logger: silentLogger(),
    });
    return { router, config };
  }

  async function streamed(
    router: ReturnType<typeof build>['router'],
    request: RouteRequest,
  ): Promise<{ text: string; result: Generation }> {
    let text = '';
    for await (const event of router.stream(request)) {
      if (event.type === 'text') text += event.text;
      if (event.type === 'done') return { text, result: event.result };
    }
    throw new Error('the stream ended without done');
  }

  const answered: ReplyScript = {
    webSearch: SEARCH,
    text: ANSWER,
    usage: { inputTokens: 40, outputTokens: 9 },
  };

  for (const c of CASES) {
    describe(`${c.provider} ${c.model}`, () => {
      it('sends no search tool while the setting is off', async () => {
        const { router } = build(c.provider, c.basePath, { primary: c.model });
        fake.reply({ text: 'ok' }, { text: 'ok' });
        await router.generate({ messages: [QUESTION] });
        await streamed(router, { messages: [QUESTION] });
        expect(fake.requests).toHaveLength(2);
        for (const request of fake.requests) {
          expect(request.wire).toBe(c.offWire ?? c.wire);
          expect(c.searchTool(request)).toBeUndefined();
        }
      });

      it('sends the provider’s search tool and completes a searched reply (generate and stream)', async () => {
        const { router } = build(c.provider, c.basePath, {
          primary: c.model,
          web_search_enabled: true,
        });
        fake.reply(answered, answered);
        const generated = await router.generate({ messages: [QUESTION] });
        const { text, result } = await streamed(router, { messages: [QUESTION] });
        for (const reply of [generated, result]) {
          expect(reply.text).toBe(ANSWER);
          expect(reply.finishReason).toBe('stop');
          // The search ran at the provider: nothing is left for Hearth's tool loop.
          expect(reply.toolCalls).toEqual([]);
          expect(reply.sources?.map((s) => s.url)).toContain(c.sourceUrl);
          // One search ran at the provider (billed per search where the provider prices it).
          expect(reply.webSearches).toBe(1);
        }
        expect(text).toBe(ANSWER);
        expect(fake.requests).toHaveLength(2);
        for (const request of fake.requests) {
          expect(request.wire).toBe(c.wire);
          expect(c.searchTool(request)).toEqual(c.expectedTool);
        }
      });

      for (const path of ['generate', 'stream'] as const) {
        it(`round-trips the provider-executed search through a tool loop (${path})`, async () => {
          const { router } = build(c.provider, c.basePath, {
            primary: c.model,
            web_search_enabled: true,
          });
          const step = async (request: RouteRequest) =>
            path === 'generate'
              ? router.generate(request)
              : (await streamed(router, request)).result;
          fake.reply(
            {
              webSearch: SEARCH,
              toolCalls: [{ name: 'get_time', arguments: { timezone: 'Europe/Paris' } }],
              usage: { inputTokens: 30, outputTokens: 12 },
            },
            { text: 'It is noon; Hearth 2.1 is out.', usage: { inputTokens: 60, outputTokens: 9 } },
          );
          const first = await step({ messages: [QUESTION], tools: [GET_TIME] });
          expect(first.toolCalls.map((call) => call.name)).toEqual(['get_time']);
          const [call] = first.toolCalls;
          if (!call) throw new Error('no tool call');
          const second = await step({
            messages: [
              QUESTION,
              { role: 'assistant', content: '', toolCalls: first.toolCalls, replay: first.replay },
              { role: 'tool', toolCallId: call.id, toolName: 'get_time', content: '12:00' },
            ],
            tools: [GET_TIME],
          });
          expect(second.text).toBe('It is noon; Hearth 2.1 is out.');
          expect(second.finishReason).toBe('stop');

          const [sent, followUp] = fake.requests;
          if (!sent || !followUp) throw new Error('expected two requests');
          const inspect = INSPECTORS[c.wire];
          expect(inspect.toolNames(sent)).toContain('get_time');
          expect(c.searchTool(sent)).toEqual(c.withFunctions ? c.expectedTool : undefined);
          expect(inspect.toolCalls(followUp).map((sentCall) => sentCall.id)).toEqual([call.id]);
          expect(inspect.toolResults(followUp)[0]?.output).toContain('12:00');
          if (c.withFunctions) expect(replayedSearch(c.wire, followUp)).toBe(replays(c));
        });
      }
    });
  }

  it('gemini 3 asks for server-side tool invocations and sends the search parts back', async () => {
    const { router } = build('google', '/v1beta', {
      primary: 'gemini-3-flash-preview',
      web_search_enabled: true,
    });
    fake.reply(
      { webSearch: SEARCH, toolCalls: [{ name: 'get_time', arguments: { timezone: 'UTC' } }] },
      { text: 'done' },
    );
    const first = await router.generate({ messages: [QUESTION], tools: [GET_TIME] });
    const [call] = first.toolCalls;
    await router.generate({
      messages: [
        QUESTION,
        { role: 'assistant', content: '', toolCalls: first.toolCalls, replay: first.replay },
        { role: 'tool', toolCallId: call!.id, toolName: 'get_time', content: '00:00' },
      ],
      tools: [GET_TIME],
    });
    expect(bodyOf(fake.requests[0]!).toolConfig).toMatchObject({
      includeServerSideToolInvocations: true,
    });
    const parts = arrayOf(bodyOf(fake.requests[1]!).contents)
      .filter(isObject)
      .flatMap((content) => arrayOf(content.parts).filter(isObject));
    expect(parts.find((part) => part.toolCall)).toMatchObject({
      toolCall: { toolType: 'GOOGLE_SEARCH_WEB', args: { queries: [SEARCH.query] } },
    });
    expect(parts.find((part) => part.toolResponse)).toMatchObject({
      toolResponse: { toolType: 'GOOGLE_SEARCH_WEB' },
    });
  });

  it('perplexity searches on every request: its citations come back as sources either way', async () => {
    for (const enabled of [false, true]) {
      const { router } = build('perplexity', '', { primary: 'sonar', web_search_enabled: enabled });
      fake.reply(answered, answered);
      const generated = await router.generate({ messages: [QUESTION], tools: [GET_TIME] });
      const { text, result } = await streamed(router, { messages: [QUESTION] });
      expect(text).toBe(ANSWER);
      for (const reply of [generated, result]) {
        expect(reply.text).toBe(ANSWER);
        expect(reply.finishReason).toBe('stop');
        expect(reply.sources?.map((s) => s.url)).toEqual(SEARCH.results.map((r) => r.url));
        // Sonar's search is part of the request, not a provider-executed search call.
        expect(reply.webSearches).toBeUndefined();
      }
      for (const request of fake.requests) {
        expect(request.wire).toBe('openai-chat');
        expect(bodyOf(request)).not.toHaveProperty('tools');
      }
      fake.reset();
    }
  });

  it('a model without the tool is called as before (grok-3-mini, claude-3-haiku)', async () => {
    for (const [provider, model] of [
      ['xai', 'grok-3-mini'],
      ['anthropic', 'claude-3-haiku-20240307'],
    ] as const) {
      const { router } = build(provider, '/v1', { primary: model, web_search_enabled: true });
      fake.reply({ text: 'ok' });
      await router.generate({ messages: [QUESTION] });
      const request = fake.requests[0]!;
      expect(tools(request)).toEqual([]);
      fake.reset();
    }
  });
});

/** Did the follow-up request carry the provider-executed search back (when the wire does)? */
function replayedSearch(wire: WireName, request: RecordedRequest): boolean {
  const body = bodyOf(request);
  if (wire === 'anthropic-messages') {
    const blocks = arrayOf(body.messages)
      .filter(isObject)
      .flatMap((message) => arrayOf(message.content).filter(isObject))
      .map((block) => block.type);
    return blocks.includes('server_tool_use') && blocks.includes('web_search_tool_result');
  }
  if (wire === 'gemini') {
    return arrayOf(body.contents)
      .filter(isObject)
      .flatMap((content) => arrayOf(content.parts).filter(isObject))
      .some((part) => part.toolCall !== undefined);
  }
  return arrayOf(body.input)
    .filter(isObject)
    .some((item) => item.type === 'web_search_call' || item.type === 'item_reference');
}

/**
 * Whether the search is sent back: Anthropic (server_tool_use + result blocks), Gemini 3
 * (toolCall/toolResponse parts) and OpenAI (the web_search_call item itself, as `store` is
 * false) do; @ai-sdk/xai drops provider-executed calls from its input.
 */
function replays(c: Case): boolean {
  return c.provider !== 'xai';
}

describe('GET /models web_search and toggling via POST /settings/llm', () => {
  let bed: ChatTestBed;
  beforeAll(async () => {
    bed = await startChatTestBed({
      primary: 'claude-sonnet-4-5',
      fallback: '',
      fast: '',
      local: 'ollama/llama3.2',
    });
  });
  afterAll(() => bed.close());
  afterEach(() => bed.fake.reset());

  const stateOf = async (provider: string) => {
    const { body } = await bed.get('/models');
    const providers = body.providers as { provider: string; web_search: string }[];
    return providers.find((p) => p.provider === provider)?.web_search;
  };
  const searchTool = typed('web_search_20250305');

  it('applies live: off → on → off without a restart', async () => {
    expect(await stateOf('anthropic')).toBe('off');
    bed.fake.reply({ text: 'plain' });
    expect((await bed.post('/chat', { message: 'hello' })).status).toBe(200);
    expect(searchTool(bed.fake.requests[0]!)).toBeUndefined();

    const on = await bed.post('/settings/llm', { web_search_enabled: true });
    expect(on.body).toEqual({ applied: true, updated_fields: ['web_search_enabled'] });
    expect(await stateOf('anthropic')).toBe('active');
    expect(await stateOf('perplexity')).toBe('always');
    expect(await stateOf('mistral')).toBe('unsupported');
    bed.fake.reply({ webSearch: SEARCH, text: ANSWER });
    const chat = await bed.post('/chat', { message: 'what is new in hearth?' });
    expect(chat.status).toBe(200);
    expect(chat.body.reply).toBe(ANSWER);
    expect(searchTool(bed.fake.requests[1]!)).toEqual({
      type: 'web_search_20250305',
      name: 'web_search',
      max_uses: 5,
    });

    await bed.post('/settings/llm', { web_search_enabled: false });
    expect(await stateOf('anthropic')).toBe('off');
    bed.fake.reply({ text: 'plain again' });
    await bed.post('/chat', { message: 'hello again' });
    expect(searchTool(bed.fake.requests[2]!)).toBeUndefined();
  });
});

describe('webSearchState', () => {
  const models = (patch: Partial<ModelsConfig>): ModelsConfig => ({
    ...configSchema.parse({}).models,
    ...patch,
  });
  it.each([
    ['anthropic', [], false, 'off'],
    ['anthropic', ['claude-sonnet-4-5'], true, 'active'],
    ['anthropic', ['claude-3-haiku-20240307'], true, 'unsupported'],
    ['openai', ['gpt-4.1-nano'], true, 'unsupported'],
    ['openai', ['gpt-4o', 'gpt-4.1-nano'], true, 'active'],
    ['google', [], true, 'active'],
    ['xai', [], true, 'unsupported'],
    ['xai', ['grok-4'], true, 'active'],
    ['perplexity', [], false, 'always'],
    ['deepseek', [], true, 'unsupported'],
    ['azure', ['azure/gpt-4o'], true, 'unsupported'],
  ] as const)('%s with %j, enabled %s → %s', (provider, used, enabled, state) => {
    expect(
      webSearchState(providerSpec(provider), models({ web_search_enabled: enabled }), used).state,
    ).toBe(state);
  });
});

describe('countWebSearches', () => {
  const call = (toolCallId: string, toolName = 'web_search') => ({
    type: 'tool-call',
    toolCallId,
    toolName,
    providerExecuted: true,
  });
  const result = (toolCallId: string, action: string) => ({
    type: 'tool-result',
    toolCallId,
    toolName: 'web_search',
    providerExecuted: true,
    output: { action: { type: action } },
  });
  it.each<[string, SearchEvidence, number]>([
    [
      'Anthropic: usage.server_tool_use.web_search_requests',
      {
        content: [call('a'), call('b')],
        providerMetadata: { anthropic: { usage: { server_tool_use: { web_search_requests: 3 } } } },
      },
      3,
    ],
    [
      'Anthropic without server_tool_use usage (a search still pending after a pause)',
      { content: [call('a')], providerMetadata: { anthropic: { usage: { input_tokens: 5 } } } },
      0,
    ],
    [
      'Gemini: the non-empty grounding queries',
      {
        content: [call('g', 'server:GOOGLE_SEARCH_WEB')],
        providerMetadata: { google: { groundingMetadata: { webSearchQueries: ['a', '', 'b'] } } },
      },
      2,
    ],
    [
      'OpenAI: search calls, not open_page / find_in_page',
      {
        content: [
          call('1'),
          result('1', 'search'),
          call('2'),
          result('2', 'openPage'),
          call('3'),
          result('3', 'findInPage'),
          call('4'),
        ],
        providerMetadata: { openai: {} },
      },
      2,
    ],
    [
      "Hearth's own tool calls are not searches",
      {
        content: [{ type: 'tool-call', toolCallId: 'x', toolName: 'get_time' }],
        providerMetadata: undefined,
      },
      0,
    ],
  ])('%s', (_name, evidence, count) => {
    expect(countWebSearches(evidence)).toBe(count);
  });
});
