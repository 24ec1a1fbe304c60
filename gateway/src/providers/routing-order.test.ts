/**
 * "The provider is chosen automatically per request (order: primary, fallback, fast, local, by
 * task complexity)", through POST /chat: a simple message goes to the fast model first, a
 * complex one to the primary, and a failing model hands over to the next in that order.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';

const MODELS = {
  primary: 'claude-sonnet-4-5',
  fallback: 'gpt-4o',
  fast: 'gpt-4o-mini',
  local: 'ollama/llama3.2',
};
const SIMPLE = 'hi there';
const COMPLEX = 'Compare SQLite and PostgreSQL for my NAS';
const down = { error: { status: 500, message: 'down' } };

describe('automatic model choice over REST', () => {
  let bed: ChatTestBed;
  beforeAll(async () => {
    bed = await startChatTestBed(MODELS);
  });
  afterAll(() => bed.close());
  afterEach(() => bed.fake.reset());

  const modelsTried = () => bed.fake.requests.map((request) => request.wire);

  it('a simple message: the fast model answers', async () => {
    const { body } = await bed.post('/chat', { message: SIMPLE, session_id: 'route-1' });
    expect(body).toMatchObject({ model: 'gpt-4o-mini', provider: 'openai' });
  });

  it('a complex message: the primary model answers', async () => {
    const { body } = await bed.post('/chat', { message: COMPLEX, session_id: 'route-2' });
    expect(body).toMatchObject({ model: 'claude-sonnet-4-5', provider: 'anthropic' });
  });

  it('complex, primary down: the fallback answers', async () => {
    bed.fake.reply(down, { text: 'from the fallback' });
    const { body } = await bed.post('/chat', { message: COMPLEX, session_id: 'route-3' });
    expect(body).toMatchObject({ model: 'gpt-4o', reply: 'from the fallback' });
    expect(modelsTried()).toEqual(['anthropic-messages', 'openai-chat']);
  });

  it('complex, primary, fallback and fast down: the local runtime answers last', async () => {
    bed.fake.reply(down, down, down, { text: 'from the local runtime' });
    const { body } = await bed.post('/chat', { message: COMPLEX, session_id: 'route-4' });
    expect(body).toMatchObject({ model: 'ollama/llama3.2', reply: 'from the local runtime' });
    expect(modelsTried()).toEqual(['anthropic-messages', 'openai-chat', 'openai-chat', 'ollama']);
  });

  it('simple, fast down: then primary, fallback, local', async () => {
    bed.fake.reply(down, down, down, { text: 'local' });
    const { body } = await bed.post('/chat', { message: SIMPLE, session_id: 'route-5' });
    expect(body).toMatchObject({ model: 'ollama/llama3.2' });
    const models = bed.fake.requests.map(
      (request) => (request.body as { model?: string }).model ?? request.path,
    );
    expect(models).toEqual(['gpt-4o-mini', 'claude-sonnet-4-5', 'gpt-4o', 'llama3.2']);
  });
});

describe('a provider key saved in Settings is used by automatic routing', () => {
  let bed: ChatTestBed;
  beforeAll(async () => {
    // The default set-up: every role is the local runtime; the bed also holds keys for OpenAI
    // and Anthropic, which no role names (as after saving them in the web Settings page).
    bed = await startChatTestBed({
      primary: 'ollama/llama3.2',
      fallback: '',
      fast: '',
      local: 'ollama/llama3.2',
    });
  });
  afterAll(() => bed.close());
  afterEach(() => bed.fake.reset());

  it('the local runtime first; when it fails, the keyed providers’ default models in catalogue order', async () => {
    bed.fake.reply(down, { text: 'from the keyed provider' });
    const { status, body } = await bed.post('/chat', { message: COMPLEX, session_id: 'keyed-1' });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      reply: 'from the keyed provider',
    });
    expect(bed.fake.requests.map((request) => request.wire)).toEqual([
      'ollama',
      'anthropic-messages',
    ]);
  });

  it('each keyed provider in turn: Anthropic, then OpenAI', async () => {
    bed.fake.reply(down, down, { text: 'from OpenAI' });
    const { body } = await bed.post('/chat', { message: SIMPLE, session_id: 'keyed-2' });
    expect(body).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini', reply: 'from OpenAI' });
    expect(bed.fake.requests.map((request) => request.wire)).toEqual([
      'ollama',
      'anthropic-messages',
      'openai-chat',
    ]);
    expect((await bed.post('/settings/llm', { openai_api_key: 'sk-saved-later' })).status).toBe(
      200,
    );
  });

  it('privacy mode still sends everything to the local runtime only', async () => {
    expect((await bed.post('/settings/model', { privacy_mode: true })).status).toBe(200);
    bed.fake.reply(down);
    const { status } = await bed.post('/chat', { message: SIMPLE, session_id: 'keyed-3' });
    expect(status).toBe(502);
    expect(bed.fake.requests.map((request) => request.wire)).toEqual(['ollama']);
    await bed.post('/settings/model', { privacy_mode: false });
  });
});
