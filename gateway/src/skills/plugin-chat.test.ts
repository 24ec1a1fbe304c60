import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../observability/logger.ts';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import type { RecordedRequest } from '../testing/fakes/fake-llm/wire.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { createSkillIsolation } from './host/isolation.ts';

type Json = Record<string, unknown>;

/** A plugin importing Hearth's base class; one instance answers every call. */
const WEATHER = [
  "import { Plugin } from 'hearth:skill';",
  '',
  'export default class Weather extends Plugin {',
  '  constructor() {',
  '    super();',
  '    this.asked = [];',
  '  }',
  '',
  '  /**',
  "   * Today's forecast for a city.",
  '   * @param {string} city - where',
  '   */',
  '  forecast(city) {',
  '    this.asked.push(city);',
  '    return `${city}: sunny (question ${this.asked.length})`;',
  '  }',
  '',
  '  _internal() {',
  "    return 'never a tool';",
  '  }',
  '}',
  '',
].join('\n');

/** The same plugin in the seed format: an explicit Plugin subclass. */
const WEATHER_PY = [
  'from hearth import Plugin',
  '',
  'class Weather(Plugin):',
  '    def __init__(self):',
  '        self.asked = []',
  '',
  '    def forecast(self, city: str):',
  '        """Forecast for a city."""',
  '        self.asked.append(city)',
  '        return f"{city}: rain (question {len(self.asked)})"',
  '',
].join('\n');

const toolResults = (request: RecordedRequest | undefined): string[] =>
  request ? INSPECTORS['openai-chat'].toolResults(request).map((r) => r.output) : [];
const toolsSent = (request: RecordedRequest | undefined) =>
  (
    (request?.body as { tools?: { function: { name: string; description: string } }[] })?.tools ??
    []
  ).map((tool) => tool.function);

const bubblewrap =
  createSkillIsolation({ executor: 'local', logger: silentLogger() }).description ===
  'bubblewrap+permission';

describe('a default-exported Plugin subclass over HTTP and through chat turns', () => {
  let bed: ChatTestBed;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${bed.gw.url}/api/v1${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };

  beforeAll(async () => {
    bed = await startChatTestBed();
  }, 30_000);
  afterAll(async () => {
    await bed?.close();
  });
  afterEach(async () => {
    bed.fake.reset();
    for (const skill of (await call('GET', '/skills')).body.skills as Json[])
      await call('DELETE', `/skills/${skill.name as string}`);
  });

  it('POST /plugins loads it; its public methods are tools that answer from one instance, turn after turn', async () => {
    const installed = await call('POST', '/plugins', { name: 'weather', code: WEATHER });
    expect(installed.status).toBe(201);
    expect(installed.body).toMatchObject({
      name: 'weather',
      tools: ['weather_forecast'],
      status: 'loaded',
      load_error: null,
    });
    expect((await call('GET', '/plugins/weather')).body).toMatchObject({
      tools: ['weather_forecast'],
      status: 'loaded',
    });

    bed.fake.reply(
      { toolCalls: [{ name: 'weather_forecast', arguments: { city: 'Oslo' } }] },
      { text: 'first' },
      { toolCalls: [{ name: 'weather_forecast', arguments: { city: 'Rome' } }] },
      { text: 'second' },
    );
    // A message the tool fits: a turn offers the installed tools relevant to it.
    expect(
      (await call('POST', '/chat', { message: 'Forecast for Oslo?', session_id: 'plugin-1' }))
        .status,
    ).toBe(200);
    expect(toolsSent(bed.fake.requests[0])).toContainEqual({
      name: 'weather_forecast',
      description: "Today's forecast for a city.",
      parameters: expect.objectContaining({ required: ['city'] }) as unknown,
    });
    expect(toolResults(bed.fake.requests[1])).toEqual(['Oslo: sunny (question 1)']);
    await call('POST', '/chat', { message: 'Rome?', session_id: 'plugin-1' });
    // The same instance: its state carried over from the first turn.
    expect(toolResults(bed.fake.requests[3])).toEqual(['Rome: sunny (question 2)']);
  });

  it('a reload makes a fresh instance', async () => {
    await call('POST', '/plugins', { name: 'weather', code: WEATHER });
    bed.fake.reply(
      { toolCalls: [{ name: 'weather_forecast', arguments: { city: 'Oslo' } }] },
      { text: 'ok' },
    );
    await call('POST', '/chat', { message: 'Oslo?', session_id: 'plugin-2' });
    expect((await call('POST', '/plugins/weather/reload')).status).toBe(200);
    bed.fake.reply(
      { toolCalls: [{ name: 'weather_forecast', arguments: { city: 'Oslo' } }] },
      { text: 'ok' },
    );
    await call('POST', '/chat', { message: 'Oslo again?', session_id: 'plugin-2' });
    expect(toolResults(bed.fake.requests[3])).toEqual(['Oslo: sunny (question 1)']);
  });

  it('a plugin whose constructor throws is listed with its load error, and nothing is offered', async () => {
    const code = WEATHER.replace('this.asked = [];', "throw new Error('missing settings');");
    const installed = await call('POST', '/plugins', { name: 'weather', code });
    expect(installed.status).toBe(201);
    expect(installed.body).toMatchObject({ status: 'error', tools: [] });
    expect(installed.body.load_error).toMatch(/missing settings/);
    bed.fake.reply({ text: 'nothing to call' });
    await call('POST', '/chat', { message: 'hi', session_id: 'plugin-3' });
    expect(toolsSent(bed.fake.requests[0]).map((tool) => tool.name)).not.toContain(
      'weather_forecast',
    );
    expect((await call('GET', '/status')).body).toMatchObject({ status: 'ok' });
  });

  it.skipIf(!bubblewrap)(
    'skill.py: an explicit Plugin subclass is served the same way (needs bubblewrap)',
    async () => {
      const installed = await call('POST', '/plugins', {
        name: 'weatherpy',
        code: WEATHER_PY,
        kind: 'py',
      });
      expect(installed.status).toBe(201);
      expect(installed.body).toMatchObject({ tools: ['weatherpy_forecast'], status: 'loaded' });
      bed.fake.reply(
        { toolCalls: [{ name: 'weatherpy_forecast', arguments: { city: 'Bergen' } }] },
        { text: 'wet' },
      );
      await call('POST', '/chat', { message: 'Forecast for Bergen?', session_id: 'plugin-py' });
      expect(toolsSent(bed.fake.requests[0])).toContainEqual(
        expect.objectContaining({
          name: 'weatherpy_forecast',
          description: 'Forecast for a city.',
        }),
      );
      expect(toolResults(bed.fake.requests[1])).toEqual(['Bergen: rain (question 1)']);
    },
  );
});
