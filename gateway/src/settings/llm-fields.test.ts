/**
 * The spec's `/settings/llm` fields: "one `<provider>_api_key` per provider ... 15 key-based ones
 * plus a cloud enterprise endpoint pair (`azure_api_key`, `azure_endpoint`), a cloud region field
 * (`bedrock_region`), and a local-runtime base URL (`ollama_base_url`). `web_search_enabled`
 * (bool) is also accepted. Values persist to the `[models]` section of `config.toml`", and a
 * settings read never returns them.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_PROVIDERS } from '../config/schema.ts';
import { parseConfig } from '../config/load.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';

const KEY = (provider: string) => `sk-${provider}-NEVER-RETURNED`;

describe('POST /settings/llm takes every field the spec lists', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
    await gw.gateway.whenReady();
  });
  afterAll(async () => {
    await gw.gateway.close();
    await rm(gw.home, { recursive: true, force: true });
  });

  it('15 provider keys, the azure pair, bedrock_region, ollama_base_url and web_search_enabled', async () => {
    expect(KEY_PROVIDERS).toHaveLength(15);
    const body: Record<string, string | boolean> = {
      ...Object.fromEntries(KEY_PROVIDERS.map((p) => [`${p}_api_key`, KEY(p)])),
      azure_api_key: KEY('azure'),
      azure_endpoint: 'https://hearth-test.openai.azure.com',
      bedrock_region: 'eu-west-1',
      ollama_base_url: 'http://127.0.0.1:11435',
      web_search_enabled: true,
    };
    const res = await fetch(`${gw.url}/api/v1/settings/llm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { applied: boolean; updated_fields: string[] };
    expect(answer.applied).toBe(true);
    expect([...answer.updated_fields].sort()).toEqual(Object.keys(body).sort());

    const file = join(gw.home, 'config.toml');
    const models = parseConfig(await readFile(file, 'utf8'), file).models as Record<
      string,
      unknown
    >;
    for (const [field, value] of Object.entries(body)) expect(models[field], field).toBe(value);

    const read = await (await fetch(`${gw.url}/api/v1/settings`)).text();
    for (const provider of [...KEY_PROVIDERS, 'azure']) expect(read).not.toContain(KEY(provider));
    const settings = JSON.parse(read) as { models: Record<string, unknown> };
    for (const provider of [...KEY_PROVIDERS, 'azure']) {
      expect(settings.models[`${provider}_api_key_set`], provider).toBe(true);
    }
  });
});
