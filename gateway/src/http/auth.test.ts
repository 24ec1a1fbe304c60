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
