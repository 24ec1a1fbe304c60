import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../config/schema.ts';
import { INSPECTORS } from '../../testing/fakes/fake-llm/inspect.ts';
import { startChatTestBed, type ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { INSTALLED_TOOLS, manyInstalledTools } from './testing/installed-tools.ts';
import { install, turnRequest, uninstall, upstreamRequest } from './testing/upstream-request.ts';

/** Hearth's own tools: offered on every turn. */
const CORE = ['browser', 'current_time', 'find_tool', 'memory_search', 'shell', 'write_skill'];

const sorted = (names: readonly string[]) => [...names].sort();

/** What the tool calls of a turn returned, as the follow-up request carried them. */
const resultsOf = (bed: ChatTestBed, index: number) => {
  const request = bed.fake.requests[index]!;
  return INSPECTORS[request.wire as keyof typeof INSPECTORS].toolResults(request);
};

describe('the tools a chat turn offers upstream ([tools] selection = "relevant")', () => {
  let bed: ChatTestBed;
  beforeAll(async () => {
    bed = await startChatTestBed();
  });
  afterAll(() => bed.close());
  afterEach(() => {
    uninstall(bed, manyInstalledTools(500));
    bed.fake.reset();
  });

  it('a plain "hello" offers the core only, in at most 3,000 bytes', async () => {
    const request = await turnRequest(bed, 'hello', 'hello-bare');
    expect(sorted(request.tools)).toEqual(CORE);
    expect(request.bytes).toBeLessThanOrEqual(3_000);
    // ASCII throughout: one character past Latin-1 (an arrow in a description) makes every
    // request body a two-byte string, which costs more to serialise, measure and send.
    expect(request.beyondAscii).toBe('');
  });

  it('with 50 and with 500 installed tools, "hello" still offers the core only (≤ 4,000 bytes)', async () => {
    install(bed, INSTALLED_TOOLS);
    const fifty = await turnRequest(bed, 'hello', 'hello-50');
    expect(sorted(fifty.tools)).toEqual(CORE);
    expect(fifty.bytes).toBeLessThanOrEqual(4_000);
    install(bed, manyInstalledTools(500).slice(50));
    const many = await turnRequest(bed, 'hello', 'hello-500');
    expect(sorted(many.tools)).toEqual(CORE);
    expect(many.bytes).toBeLessThanOrEqual(4_000);
  });

  it('a message about a tool offers it, with at most max_offered (8) beyond the core', async () => {
    install(bed, manyInstalledTools(500));
    const request = await turnRequest(bed, 'turn off the kitchen light', 'relevant');
    expect(request.tools).toContain('ha__turn_off');
    expect(request.tools.length).toBeLessThanOrEqual(CORE.length + 8);
  });

  it('the recent turns count: a follow-up without the words is offered the tool again', async () => {
    install(bed, INSTALLED_TOOLS);
    await turnRequest(bed, 'turn off the kitchen light', 'recent');
    const followUp = await turnRequest(bed, 'and the bedroom one too, please', 'recent');
    expect(followUp.tools).toContain('ha__turn_off');
  });

  it('a tool the model calls without being offered it runs, and is offered from the next step', async () => {
    install(bed, INSTALLED_TOOLS);
    bed.fake.reply({ toolCalls: [{ name: 'news_headlines', arguments: {} }] }, { text: 'news' });
    const { body } = await bed.post('/chat', { message: 'hello', session_id: 'named' });
    expect(body.reply).toBe('news');
    expect(upstreamRequest(bed, 0).tools).not.toContain('news_headlines');
    expect(resultsOf(bed, 1).map((result) => result.output)).toEqual(['news_headlines ran']);
    expect(upstreamRequest(bed, 1).tools).toContain('news_headlines');
  });

  it('a name the registry does not hold is answered with an error and never offered', async () => {
    bed.fake.reply({ toolCalls: [{ name: 'rm_everything', arguments: {} }] }, { text: 'ok' });
    await bed.post('/chat', { message: 'hello', session_id: 'unknown-name' });
    // Answered once, by Hearth (not a second time by the SDK, which was not given the name).
    const results = resultsOf(bed, 1);
    expect(results).toHaveLength(1);
    expect(results[0]?.output).toContain('Error: no tool named rm_everything');
    expect(sorted(upstreamRequest(bed, 1).tools)).toEqual(CORE);
  });

  it('find_tool names the matching tools and offers them from the next step', async () => {
    install(bed, INSTALLED_TOOLS);
    bed.fake.reply(
      { toolCalls: [{ name: 'find_tool', arguments: { query: 'container logs' } }] },
      { text: 'found' },
    );
    await bed.post('/chat', { message: 'hello', session_id: 'find' });
    expect(upstreamRequest(bed, 0).tools).not.toContain('docker__container_logs');
    const [result] = resultsOf(bed, 1);
    expect(result?.output).toContain(
      'docker__container_logs: Fetch the logs of a Docker container.',
    );
    expect(result?.output.split('\n').length).toBeLessThanOrEqual(10);
    expect(upstreamRequest(bed, 1).tools).toContain('docker__container_logs');
  });

  it.each([
    ['no query', {}],
    ['a query that is not a string', { query: 42 }],
    ['an empty query', { query: '   ' }],
    ['an oversized query', { query: 'logs '.repeat(101) }],
    ['a query of control characters only', { query: '\u0000\u0007' }],
    ['a query naming what is not installed', { query: 'rm_everything' }],
  ])('find_tool with %s offers nothing more', async (_case, args) => {
    install(bed, INSTALLED_TOOLS);
    bed.fake.reply({ toolCalls: [{ name: 'find_tool', arguments: args }] }, { text: 'ok' });
    const { status } = await bed.post('/chat', { message: 'hello', session_id: 'hostile-find' });
    expect(status).toBe(200);
    expect(resultsOf(bed, 1)[0]?.output).toMatch(/query is|No installed tool matches/);
    expect(sorted(upstreamRequest(bed, 1).tools)).toEqual(CORE);
  });

  it('/status shows the selection mode', async () => {
    const { body } = await bed.get('/status');
    expect((body.backends as Record<string, string>).tool_selection).toMatch(
      /^relevant \((embedder|keywords), max 8\)$/,
    );
  });
});

describe('[tools] selection = "all" and max_offered', () => {
  it('"all" offers every installed tool (and no find_tool), and /status says so', async () => {
    const bed = await startChatTestBed(undefined, { config: { tools: { selection: 'all' } } });
    try {
      install(bed, INSTALLED_TOOLS);
      const request = await turnRequest(bed, 'hello', 'all');
      expect(request.tools).toHaveLength(CORE.length - 1 + INSTALLED_TOOLS.length);
      expect(request.tools).not.toContain('find_tool');
      expect(
        ((await bed.get('/status')).body.backends as Record<string, string>).tool_selection,
      ).toBe('all');
    } finally {
      await bed.close();
    }
  });

  it('max_offered caps the relevant tools; 0 offers the core only', async () => {
    const bed = await startChatTestBed(undefined, { config: { tools: { max_offered: 0 } } });
    try {
      install(bed, INSTALLED_TOOLS);
      const request = await turnRequest(bed, 'turn off the kitchen light', 'none');
      expect(sorted(request.tools)).toEqual(CORE);
    } finally {
      await bed.close();
    }
  });

  it.each([
    { selection: 'some' },
    { max_offered: -1 },
    { max_offered: 65 },
    { max_offered: 2.5 },
    { max_offered: '8' },
    { unknown_key: true },
  ])('refuses the config %j', (tools) => {
    expect(configSchema.safeParse({ tools }).success).toBe(false);
  });
});
