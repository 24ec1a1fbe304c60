import { describe, expect, it } from 'vitest';
import {
  createGatewayClient,
  GatewayHttpError,
  GatewayUnreachableError,
} from './gateway-client.ts';

function fakeFetch(respond: (url: string, headers: Headers) => Response) {
  const calls: { url: string; headers: Headers }[] = [];
  const fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : input.toString();
    const headers = new Headers(init?.headers);
    calls.push({ url, headers });
    return Promise.resolve(respond(url, headers));
  };
  return { fetch, calls };
}

describe('gateway client', () => {
  it('sends X-API-Key on API requests when a key is set', async () => {
    const { fetch, calls } = fakeFetch(() => Response.json({ status: 'ok' }));
    const client = createGatewayClient({
      baseUrl: 'http://h:1/',
      fetch,
      apiKey: () => Promise.resolve('k1'),
    });

    expect(await client.getJson('/api/v1/status')).toEqual({ status: 'ok' });
    expect(calls[0]?.url).toBe('http://h:1/api/v1/status');
    expect(calls[0]?.headers.get('x-api-key')).toBe('k1');
  });

  it('sends no key when none is set, and none to /ready', async () => {
    const { fetch, calls } = fakeFetch(() => Response.json({ ready: true }));
    const keyless = createGatewayClient({
      baseUrl: 'http://h:1',
      fetch,
      apiKey: () => Promise.resolve(undefined),
    });
    await keyless.getJson('/api/v1/status');
    const keyed = createGatewayClient({
      baseUrl: 'http://h:1',
      fetch,
      apiKey: () => Promise.resolve('k1'),
    });
    expect(await keyed.isReady()).toBe(true);

    expect(calls.map((call) => call.headers.has('x-api-key'))).toEqual([false, false]);
  });

  it("shows the server's detail on an error status", async () => {
    const { fetch } = fakeFetch(() =>
      Response.json({ detail: 'Missing or invalid X-API-Key header' }, { status: 401 }),
    );
    const client = createGatewayClient({ baseUrl: 'http://h:1', fetch });

    const failure = client.getJson('/api/v1/status');
    await expect(failure).rejects.toBeInstanceOf(GatewayHttpError);
    await expect(failure).rejects.toThrow(
      'GET /api/v1/status failed with 401: Missing or invalid X-API-Key header',
    );
  });

  it('reports an unreachable gateway with its URL', async () => {
    const fetch = () =>
      Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }));
    const client = createGatewayClient({ baseUrl: 'http://127.0.0.1:9', fetch });

    const failure = client.getJson('/api/v1/status');
    await expect(failure).rejects.toBeInstanceOf(GatewayUnreachableError);
    await expect(failure).rejects.toThrow(
      'no gateway answering at http://127.0.0.1:9 (ECONNREFUSED)',
    );
    expect(await client.isReady()).toBe(false);
  });

  it('treats 503 from /ready as not ready', async () => {
    const { fetch } = fakeFetch(() => Response.json({ ready: false }, { status: 503 }));
    expect(await createGatewayClient({ baseUrl: 'http://h:1', fetch }).isReady()).toBe(false);
  });
});

describe('gateway client while the gateway starts', () => {
  const starting = () =>
    Response.json(
      { detail: 'Hearth is starting; try again in a moment' },
      { status: 503, headers: { 'Retry-After': '1' } },
    );

  it('asks a GET again after Retry-After while a 503 says the gateway is starting', async () => {
    let calls = 0;
    const { fetch } = fakeFetch(() => (++calls < 3 ? starting() : Response.json({ status: 'ok' })));
    const client = createGatewayClient({ baseUrl: 'http://h:1', fetch, timeoutMs: 5_000 });
    const began = Date.now();
    expect(await client.getJson('/api/v1/status')).toEqual({ status: 'ok' });
    expect(calls).toBe(3);
    expect(Date.now() - began).toBeGreaterThanOrEqual(1_900);
  });

  it('gives the 503 when the wait would outlast the request’s time', async () => {
    let calls = 0;
    const { fetch } = fakeFetch(() => (calls++, starting()));
    const client = createGatewayClient({ baseUrl: 'http://h:1', fetch, timeoutMs: 800 });
    await expect(client.getJson('/api/v1/status')).rejects.toMatchObject({
      status: 503,
      detail: 'Hearth is starting; try again in a moment',
    });
    expect(calls).toBe(1);
  });

  it('does not ask again for a 503 without Retry-After, nor for a POST', async () => {
    let calls = 0;
    const { fetch } = fakeFetch(() => {
      calls += 1;
      return calls === 1 ? Response.json({ detail: 'down' }, { status: 503 }) : starting();
    });
    const client = createGatewayClient({ baseUrl: 'http://h:1', fetch, timeoutMs: 5_000 });
    await expect(client.getJson('/api/v1/status')).rejects.toBeInstanceOf(GatewayHttpError);
    await expect(client.sendJson('POST', '/api/v1/chat', {})).rejects.toMatchObject({
      status: 503,
    });
    expect(calls).toBe(2);
  });
});
