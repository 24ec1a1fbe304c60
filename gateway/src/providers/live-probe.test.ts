import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../config/schema.ts';
import { startTestGateway } from '../testing/gateway/test-gateway.ts';
import { configuredProbeOrigins, providerStatuses } from './status.ts';

type Status = {
  provider: string;
  live_checked: boolean;
  reachable: boolean | null;
  detail: string;
};

function serve(
  handler: RequestListener,
): Promise<{ server: Server; url: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits += 1;
    handler(req, res);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        hits: () => hits,
      }),
    ),
  );
}

describe('live checks (GET /api/v1/models?live=true)', () => {
  const servers: Server[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      server.close();
    }
  });
  const start = async (handler: RequestListener) => {
    const s = await serve(handler);
    servers.push(s.server);
    return s;
  };

  /** The openai_compatible status of a gateway whose config.toml points that provider at `url`. */
  async function compatStatus(url: string): Promise<Status | undefined> {
    const gw = await startTestGateway({
      config: {
        models: { openai_compatible_base_url: url, openai_compatible_api_key: 'sk-configured' },
      },
    });
    try {
      const body = (await (await fetch(`${gw.url}/api/v1/models?live=true`)).json()) as {
        providers: Status[];
      };
      return body.providers.find((p) => p.provider === 'openai_compatible');
    } finally {
      await gw.close();
    }
  }

  it.each<{ answer: string; handler: RequestListener; category: string }>([
    {
      answer: 'HTTP 401',
      handler: (_req, res) => {
        res.statusCode = 401;
        res.end('{"error":"bad key sk-xyz"}');
      },
      category: 'http_401',
    },
    {
      answer: 'a non-JSON body',
      handler: (_req, res) => res.end('<html>SSH-2.0-OpenSSH_9.6</html>'),
      category: 'invalid_response',
    },
    {
      answer: 'JSON without a model list',
      handler: (_req, res) => res.end('{"hello":"world"}'),
      category: 'invalid_response',
    },
  ])(
    'a configured host answering $answer is reported as $category, nothing of its body',
    async ({ handler, category }) => {
      const api = await start(handler);
      const status = await compatStatus(`${api.url}/v1`);
      expect(status).toMatchObject({ live_checked: true, reachable: false });
      expect(status?.detail).toBe(`GET ${api.url}/v1/models failed: ${category}`);
    },
  );

  it('does not follow a redirect: the key never reaches the host it points to', async () => {
    const elsewhere = await start((_req, res) => res.end('{"data":[]}'));
    const api = await start((_req, res) => {
      res.statusCode = 302;
      res.setHeader('location', `${elsewhere.url}/v1/models`);
      res.end();
    });
    const status = await compatStatus(`${api.url}/v1`);
    expect(status?.detail).toBe(`GET ${api.url}/v1/models failed: http_302`);
    expect(api.hits()).toBe(1);
    expect(elsewhere.hits()).toBe(0);
  });

  it('a closed port is "unreachable" with no error text', async () => {
    const status = await compatStatus('http://127.0.0.1:9/v1');
    expect(status?.detail).toBe('GET http://127.0.0.1:9/v1/models failed: unreachable');
    expect(status?.detail).not.toMatch(/ECONNREFUSED|fetch failed|connect/);
  });

  it('a host that never answers is "timeout"', async () => {
    const silent = await start(() => undefined);
    const models = {
      ...defaultConfig().models,
      openai_compatible_base_url: `${silent.url}/v1`,
    };
    const statuses = await providerStatuses(models, true, {
      fetch: globalThis.fetch,
      timeoutMs: 200,
      probeOrigins: new Set([silent.url]),
    });
    expect(statuses.find((p) => p.provider === 'openai_compatible')?.detail).toBe(
      `GET ${silent.url}/v1/models failed: timeout`,
    );
  });

  it('probes only the origins given; catalog hosts and config.toml hosts are the configured ones', async () => {
    const models = {
      ...defaultConfig().models,
      openai_compatible_base_url: 'https://llm.example.internal/v1/',
    };
    const origins = configuredProbeOrigins(models);
    expect(origins).toContain('https://llm.example.internal');
    expect(origins).toContain('https://api.openai.com');
    expect(origins).toContain('http://127.0.0.1:11434');

    const other = await start((_req, res) => res.end('{"data":[]}'));
    const statuses = await providerStatuses(
      { ...models, openai_compatible_base_url: `${other.url}/v1` },
      true,
      { fetch: globalThis.fetch, timeoutMs: 500, probeOrigins: origins },
    );
    expect(statuses.find((p) => p.provider === 'openai_compatible')).toMatchObject({
      live_checked: false,
      reachable: null,
    });
    expect(other.hits()).toBe(0);
  });
});
