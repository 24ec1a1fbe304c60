import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';

const ENV_SECRET = 'aws-secret-FROM-THE-GATEWAY-ENVIRONMENT';
const FILE_KEY = 'sk-compat-FROM-CONFIG-TOML';
const CONFIG_TEXT = '# owner-edited\n[models]\nprimary = "ollama/llama3.2"\n';

/** A listener that must receive nothing: it records every request it gets. */
function listener(): Promise<{
  server: Server;
  url: string;
  seen: { url: string; headers: IncomingHttpHeaders }[];
}> {
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ data: [], choices: [] }));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }),
    ),
  );
}

describe('secrets cannot be pointed somewhere else through the API', () => {
  const open: { close(): Promise<void> | void }[] = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });

  async function setUp(models: Record<string, string> = {}) {
    const sink = await listener();
    open.push({ close: () => void sink.server.close() });
    const gw = await startTestGateway({
      config: { models },
      env: { AWS_SECRET_ACCESS_KEY: ENV_SECRET },
    });
    open.push(gw);
    await gw.gateway.whenReady();
    const configPath = join(gw.home, 'config.toml');
    await writeFile(configPath, CONFIG_TEXT, { mode: 0o600 });
    return { gw, sink, configPath };
  }

  const post = async (gw: TestGateway, body: unknown) => {
    const res = await fetch(`${gw.url}/api/v1/settings/llm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { detail?: string } };
  };
  const liveModels = async (gw: TestGateway) =>
    (await (await fetch(`${gw.url}/api/v1/models?live=true`)).json()) as {
      providers: { provider: string; live_checked: boolean; detail: string }[];
    };

  it.each([
    ['openai_compatible_api_key', 'ENV:AWS_SECRET_ACCESS_KEY'],
    ['openai_compatible_api_key', 'op://Private/aws/secret'],
    ['openai_api_key', 'ENV:AWS_SECRET_ACCESS_KEY'],
    ['azure_api_key', 'op://Private/aws/secret'],
  ])(
    'refuses %s = %s over the API (422 naming the field); the file is unchanged and the listener gets nothing',
    async (field, reference) => {
      const { gw, sink, configPath } = await setUp();
      const res = await post(gw, {
        openai_compatible_base_url: `${sink.url}/v1`,
        azure_endpoint: sink.url,
        [field]: reference,
      });
      expect(res.status).toBe(422);
      expect(res.body.detail).toMatch(
        new RegExp(
          `^body\\.${field}: ENV: and op:// references are accepted only in config\\.toml`,
        ),
      );
      expect(JSON.stringify(res.body)).not.toContain(ENV_SECRET);
      expect(await readFile(configPath, 'utf8')).toBe(CONFIG_TEXT);

      const models = await liveModels(gw);
      expect(JSON.stringify(models)).not.toContain(ENV_SECRET);
      expect(sink.seen).toEqual([]);
    },
  );

  it.each([
    ['openai_compatible_base_url', 'openai_compatible_api_key', '/v1'],
    ['azure_endpoint', 'azure_api_key', ''],
  ])(
    'refuses a new %s without %s in the same request: the key from config.toml is never sent there',
    async (endpoint, key, suffix) => {
      const { gw, sink, configPath } = await setUp({
        [endpoint]: 'https://llm.example.internal/v1',
        [key]: FILE_KEY,
      });
      const res = await post(gw, { [endpoint]: `${sink.url}${suffix}` });
      expect(res.status).toBe(422);
      expect(res.body.detail).toBe(
        `body.${endpoint}: a new endpoint needs ${key} in the same request (send "" for none); ` +
          'the configured key is never sent to an endpoint set over the API',
      );
      expect(await readFile(configPath, 'utf8')).toBe(CONFIG_TEXT);

      await liveModels(gw);
      // A chat turn on that provider would use the endpoint too: it still goes nowhere near the listener.
      await fetch(`${gw.url}/api/v1/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          message: 'hi',
          model: endpoint === 'azure_endpoint' ? 'azure/gpt-4o' : 'custom/m',
        }),
        signal: AbortSignal.timeout(10_000),
      });
      expect(sink.seen).toEqual([]);
    },
  );

  it('accepts a new endpoint with its literal key; the live check does not probe a host set at run time', async () => {
    const { gw, sink, configPath } = await setUp({
      openai_compatible_base_url: 'https://llm.example.internal/v1',
      openai_compatible_api_key: FILE_KEY,
    });
    const res = await post(gw, {
      openai_compatible_base_url: `${sink.url}/v1`,
      openai_compatible_api_key: 'sk-literal-known-to-the-client',
    });
    expect(res.status).toBe(200);
    expect(await readFile(configPath, 'utf8')).toContain(
      'openai_compatible_api_key = "sk-literal-known-to-the-client"',
    );

    const compat = (await liveModels(gw)).providers.find((p) => p.provider === 'openai_compatible');
    expect(compat).toMatchObject({ live_checked: false });
    expect(compat?.detail).toMatch(/live check skipped: the endpoint was set at run time/);
    expect(sink.seen).toEqual([]);
  });

  it('an endpoint with no configured key may change alone (nothing secret would go there)', async () => {
    const { gw } = await setUp();
    const res = await post(gw, { openai_compatible_base_url: 'http://127.0.0.1:1/v1' });
    expect(res.status).toBe(200);
  });
});
