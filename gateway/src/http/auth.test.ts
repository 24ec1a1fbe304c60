import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../testing/fakes/raw-request.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';

const KEY = 'correct horse battery staple';

describe('API key', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ config: { gateway: { api_key: KEY } } });
    await gw.gateway.whenReady();
  });
  afterAll(() => gw.close());

  it('is required on /api/* when gateway.api_key is set', async () => {
    const res = await rawRequest(gw.port, '/api/v1/status');
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toEqual({ detail: 'Missing or invalid X-API-Key header' });
  });

  it('accepts the right key and rejects a wrong one', async () => {
    expect(
      (await rawRequest(gw.port, '/api/v1/status', { headers: { 'x-api-key': KEY } })).status,
    ).toBe(200);
    expect(
      (await rawRequest(gw.port, '/api/v1/status', { headers: { 'x-api-key': `${KEY}x` } })).status,
    ).toBe(401);
    expect(
      (await rawRequest(gw.port, '/api/v1/status', { headers: { 'x-api-key': '' } })).status,
    ).toBe(401);
  });

  it('exempts /health and /ready', async () => {
    expect((await rawRequest(gw.port, '/health')).status).toBe(200);
    expect((await rawRequest(gw.port, '/ready')).status).toBe(200);
  });

  it.each([
    '/API/v1/status',
    '/Api/V1/Status',
    '//api/v1/status',
    '/api//v1/status',
    '/api/v1//status',
    '/api/v1/status/',
    '/api/v1/status//',
    '/%61pi/v1/status',
    '/api/v1/%73tatus',
    '/api%2fv1%2fstatus',
    '/%2561pi/v1/status',
    '/api/v1/./status',
    '/health/../api/v1/status',
    '/ready/%2e%2e/api/v1/status',
    '/docs/../api/v1/metrics',
    '/api/v1/status?x=/health',
    '/api/v1/status;/health',
    '/api\\v1\\status',
    '/api/v1/metrics/snapshot',
    '/api/v1/does-not-exist',
  ])('never lets %s reach a handler without the key', async (path) => {
    const res = await rawRequest(gw.port, path);
    expect(res.status).toBe(401);
    expect(res.body).not.toContain('"version"');
  });

  it('is not required anywhere when no key is configured', async () => {
    const open = await startTestGateway();
    try {
      expect((await rawRequest(open.port, '/api/v1/status')).status).toBe(200);
    } finally {
      await open.close();
    }
  });
});

describe('CORS with an API key: "every /api/* request must carry X-API-Key", yet the allow-list "configures cross-origin (CORS) handling for REST"', () => {
  const APP = 'https://dash.example.net';
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ config: { gateway: { api_key: KEY, cors_origins: [APP] } } });
    await gw.gateway.whenReady();
  });
  afterAll(() => gw.close());

  const preflight = (origin: string, path = '/api/v1/status', method = 'GET') =>
    rawRequest(gw.port, path, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': method,
        'access-control-request-headers': 'x-api-key, content-type',
      },
    });

  it('answers a preflight from an allowed origin with 204 and the CORS headers, without the key', async () => {
    for (const [path, method] of [
      ['/api/v1/status', 'GET'],
      ['/api/v1/chat', 'POST'],
      ['/api/v1/approvals/allowlist/1', 'DELETE'],
    ] as const) {
      const res = await preflight(APP, path, method);
      expect(res.status, path).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(APP);
      expect(res.headers['access-control-allow-methods']).toContain(method);
      expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain(
        'x-api-key',
      );
      expect(res.body).toBe('');
    }
  });

  it('gives a preflight from a disallowed origin no allow headers', async () => {
    for (const origin of ['https://evil.example', 'http://dash.example.net', 'null']) {
      const res = await preflight(origin);
      expect(res.status, origin).not.toBe(204);
      expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(res.headers['access-control-allow-methods'], origin).toBeUndefined();
      expect(res.headers['access-control-allow-headers'], origin).toBeUndefined();
    }
  });

  it('still wants the key on the real request (401, readable by the page), and takes it', async () => {
    const without = await rawRequest(gw.port, '/api/v1/status', { headers: { origin: APP } });
    expect(without.status).toBe(401);
    expect(without.headers['access-control-allow-origin']).toBe(APP);
    expect(JSON.parse(without.body)).toEqual({ detail: 'Missing or invalid X-API-Key header' });
    const wrong = await rawRequest(gw.port, '/api/v1/status', {
      headers: { origin: APP, 'x-api-key': 'guess' },
    });
    expect(wrong.status).toBe(401);
    const withKey = await rawRequest(gw.port, '/api/v1/status', {
      headers: { origin: APP, 'x-api-key': KEY },
    });
    expect(withKey.status).toBe(200);
    expect(withKey.headers['access-control-allow-origin']).toBe(APP);
  });

  it('an OPTIONS without an Origin is no preflight: the key check answers it', async () => {
    const res = await rawRequest(gw.port, '/api/v1/status', { method: 'OPTIONS' });
    expect(res.status).toBe(401);
  });
});
