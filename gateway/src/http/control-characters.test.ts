import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';

const CONFIG_TEXT = '# owner-edited\n[models]\nprimary = "ollama/llama3.2"\n';

/**
 * Rule: a C0 control character or DEL in a secret, URL, model id, pattern or name field is
 * refused with 422 naming the field, and nothing is stored.
 */
describe('control characters are refused where they would be stored', () => {
  let gw: TestGateway;
  let configPath: string;
  beforeAll(async () => {
    gw = await startTestGateway();
    await gw.gateway.whenReady();
    configPath = join(gw.home, 'config.toml');
    await writeFile(configPath, CONFIG_TEXT, { mode: 0o600 });
  });
  afterAll(() => gw.close());

  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${gw.url}/api/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    return { status: res.status, body: (await res.json()) as { detail?: string } };
  };
  const get = async <T>(path: string) =>
    (await (await fetch(`${gw.url}/api/v1${path}`)).json()) as T;

  /** Everything these routes could have stored, read back over the API and from the file. */
  const storedState = async () => ({
    file: await readFile(configPath, 'utf8'),
    settings: await get('/settings'),
    allowlist: await get('/approvals/allowlist'),
    memory: await get('/memory?limit=500'),
    sessions: await get('/sessions'),
  });

  it.each([
    ['/settings/llm', { openai_api_key: 'sk-live\u0000tail' }, 'body.openai_api_key'],
    ['/settings/llm', { anthropic_api_key: 'sk-ant\r\nX-Injected: 1' }, 'body.anthropic_api_key'],
    ['/settings/llm', { azure_api_key: 'key\u007f' }, 'body.azure_api_key'],
    ['/settings/llm', { ollama_base_url: 'http://127.0.0.1:11434/\n' }, 'body.ollama_base_url'],
    ['/settings/llm', { ollama_base_url: 'http://127.0.\t0.1:11434' }, 'body.ollama_base_url'],
    [
      '/settings/llm',
      { openai_compatible_base_url: 'http://llm.local/v1\u0000', openai_compatible_api_key: 'k' },
      'body.openai_compatible_base_url',
    ],
    ['/settings/llm', { azure_endpoint: 'https://x.openai.azure.com\r' }, 'body.azure_endpoint'],
    ['/settings/model', { model: 'gpt-4o\u0000' }, 'body.model'],
    ['/settings/model', { provider: 'openai\n' }, 'body.provider'],
    ['/settings/model', { thinking: 'high\u001b[2J' }, 'body.thinking'],
    ['/approvals/allowlist', { pattern: 'git\u0000' }, 'body.pattern'],
    ['/approvals/allowlist', { pattern: 'git\r\n' }, 'body.pattern'],
    ['/approvals/allowlist', { pattern: 'git', arg_pattern: '^status\u0000' }, 'body.arg_pattern'],
    ['/approvals/allowlist', { pattern: 'git', directory: '/srv/a\u0000b' }, 'body.directory'],
    ['/memory', { content: 'fine', tags: ['ok', 'a\u0000b'] }, 'body.tags.1'],
    ['/memory', { content: 'fine', type: 'note\n' }, 'body.type'],
    ['/memory', { content: 'fine', session_id: 's\u0007' }, 'body.session_id'],
    ['/memory/compact', { session_id: 'default\u0000' }, 'body.session_id'],
    ['/chat', { message: 'hi', session_id: 'a\u0000b' }, 'body.session_id'],
    ['/chat', { message: 'hi', model: 'gpt-4o\r\n' }, 'body.model'],
    ['/chat', { message: 'hi', channel: 'api\u007f' }, 'body.channel'],
    ['/chat/canvas', { message: 'hi', session_id: 'x\ny' }, 'body.session_id'],
  ])('POST %s %j → 422 naming %s; nothing stored', async (path, body, field) => {
    const before = await storedState();
    const res = await post(path, body);
    expect(res.status).toBe(422);
    // Fields with a stricter charset of their own (session ids) refuse with that rule's words.
    expect(res.body.detail).toMatch(new RegExp(`(^|; )${field.replace(/\./g, '\\.')}: `));
    expect(await storedState()).toEqual(before);
  });

  it('names the rule for a field with no other constraint', async () => {
    const res = await post('/settings/llm', { openai_api_key: 'sk\u0000' });
    expect(res.body).toEqual({
      detail: 'body.openai_api_key: must not contain control characters (U+0000 to U+001F, U+007F)',
    });
  });

  it('the same fields without control characters are accepted (the check refuses only those)', async () => {
    expect((await post('/approvals/allowlist', { pattern: 'git' })).status).toBe(200);
    expect(
      (await post('/memory', { content: 'line one\nline two', tags: ['a b'], type: 'note' }))
        .status,
    ).toBe(200);
    expect((await post('/settings/model', { model: 'gpt-4o' })).status).toBe(200);
  });
});
