import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import { PROVIDER_NAMES } from './catalog.ts';

type Status = {
  provider: string;
  configured: boolean | null;
  live_checked: boolean;
  reachable: boolean | null;
  detail: string;
  models: string[];
};

/** A stand-in for an OpenAI-compatible API and the local runtime's tag list. */
function listingServer(): Promise<{
  server: Server;
  url: string;
  seen: { path: string; auth?: string }[];
}> {
  const seen: { path: string; auth?: string }[] = [];
  const server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', auth: req.headers.authorization });
    res.setHeader('content-type', 'application/json');
    if (req.url === '/v1/models')
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'gpt-4o' }, { id: 'gpt-4o-mini' }] }));
    else if (req.url === '/api/tags')
      res.end(JSON.stringify({ models: [{ name: 'llama3.2:latest' }] }));
    else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }),
    ),
  );
}

describe('GET /api/v1/models', () => {
  let gw: TestGateway;
  let fake: Awaited<ReturnType<typeof listingServer>>;
  beforeAll(async () => {
    fake = await listingServer();
    gw = await startTestGateway({
      config: {
        models: {
          primary: 'gpt-4o',
          fast: 'groq/llama-3.1-8b-instant',
          openai_api_key: 'sk-test',
          anthropic_api_key: 'sk-ant',
          ollama_base_url: fake.url,
        },
      },
      providerEndpoints: { openai: `${fake.url}/v1` },
    });
    await gw.gateway.whenReady();
  });
  afterAll(async () => {
    await gw.close();
    fake.server.close();
  });

  const list = async (query = '') =>
    ((await (await fetch(`${gw.url}/api/v1/models${query}`)).json()) as { providers: Status[] })
      .providers;

  it('lists the 19 providers; configured is null only for bedrock', async () => {
    const providers = await list();
    expect(providers.map((p) => p.provider)).toEqual([...PROVIDER_NAMES]);
    for (const p of providers) {
      if (p.provider === 'bedrock') expect(p.configured).toBeNull();
      else expect(typeof p.configured).toBe('boolean');
      expect(p).toMatchObject({ live_checked: false, reachable: null });
    }
    expect(providers.find((p) => p.provider === 'openai')).toMatchObject({
      configured: true,
      models: ['gpt-4o'],
    });
    expect(providers.find((p) => p.provider === 'groq')).toMatchObject({
      configured: false,
      detail: 'not configured: set models.groq_api_key',
      models: ['groq/llama-3.1-8b-instant'],
    });
  });

  it('live=true probes GET /models and the local runtime’s /api/tags only', async () => {
    fake.seen.length = 0;
    const providers = await list('?live=true');
    expect(providers.find((p) => p.provider === 'openai')).toMatchObject({
      live_checked: true,
      reachable: true,
      detail: 'reachable; 2 models listed',
    });
    expect(providers.find((p) => p.provider === 'ollama')).toMatchObject({
      live_checked: true,
      reachable: true,
    });
    expect(providers.find((p) => p.provider === 'anthropic')).toMatchObject({
      live_checked: false,
      reachable: null,
      detail: 'configured; live check unsupported for this provider',
    });
    expect(fake.seen).toEqual(
      expect.arrayContaining([
        { path: '/v1/models', auth: 'Bearer sk-test' },
        { path: '/api/tags', auth: undefined },
      ]),
    );
    expect(fake.seen).toHaveLength(2);
  });

  it('reflects runtime settings applied through /settings/model', async () => {
    await fetch(`${gw.url}/api/v1/settings/model`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'gemini', thinking: 'low' }),
    });
    const body = (await (await fetch(`${gw.url}/api/v1/models`)).json()) as {
      routing: Record<string, unknown>;
    };
    expect(body.routing).toMatchObject({
      forced_provider: 'google',
      thinking: 'low',
      privacy_mode: false,
      primary: 'gpt-4o',
    });
  });

  it('reports an unreachable live check as a category, not the fetch error', async () => {
    const down = await startTestGateway({
      config: { models: { ollama_base_url: 'http://127.0.0.1:9' } },
    });
    try {
      const body = (await (await fetch(`${down.url}/api/v1/models?live=1`)).json()) as {
        providers: Status[];
      };
      const ollama = body.providers.find((p) => p.provider === 'ollama');
      expect(ollama).toMatchObject({ live_checked: true, reachable: false });
      expect(ollama?.detail).toBe('GET http://127.0.0.1:9/api/tags failed: unreachable');
    } finally {
      await down.close();
    }
  });
});
