/**
 * The orchestrator's routes are mounted as area routes, so the shared checks apply to them
 * with no code of the orchestrator's: the API key, the Host allow-list (DNS rebinding) and the
 * Origin allow-list. A refused request changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../testing/fakes/raw-request.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';

const KEY = 'orchestrator-test-key-0123456789';
const NODE = JSON.stringify({ name: 'sneaky', model_override: 'gpt-4o' });

describe('orchestrator routes behind the shared key, Host and Origin checks', () => {
  let gw: TestGateway;
  const nodes = async () =>
    JSON.parse(
      (await rawRequest(gw.port, '/api/v1/orchestrator/nodes', { headers: { 'x-api-key': KEY } }))
        .body,
    ) as { count: number };

  beforeAll(async () => {
    gw = await startTestGateway({ config: { gateway: { api_key: KEY } } });
    await gw.gateway.whenReady();
  });
  afterAll(() => gw.close());

  it.each([
    ['GET', '/api/v1/orchestrator/nodes'],
    ['POST', '/api/v1/orchestrator/nodes'],
    ['POST', '/api/v1/orchestrator/route'],
    ['GET', '/api/v1/orchestrator/status'],
    ['GET', '/api/v1/orchestrator/namespaces'],
    ['DELETE', '/api/v1/orchestrator/nodes/x/memory'],
  ])('%s %s needs the key (401 without it or with a wrong one)', async (method, path) => {
    const attempts: Record<string, string>[] = [
      {},
      { 'x-api-key': `${KEY}x` },
      { 'x-api-key': '' },
    ];
    for (const headers of attempts) {
      const res = await rawRequest(gw.port, path, {
        method,
        headers: { ...headers, 'content-type': 'application/json' },
        body: method === 'POST' ? NODE : undefined,
      });
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body)).toEqual({ detail: expect.any(String) });
    }
    expect((await nodes()).count).toBe(0);
  });

  it('accepts the key', async () => {
    const res = await rawRequest(gw.port, '/api/v1/orchestrator/status', {
      headers: { 'x-api-key': KEY },
    });
    expect(res.status).toBe(200);
  });

  it('refuses a foreign Origin (403), even with the key', async () => {
    const origin = await rawRequest(gw.port, '/api/v1/orchestrator/nodes', {
      method: 'POST',
      headers: {
        origin: 'https://evil.example',
        'x-api-key': KEY,
        'content-type': 'application/json',
      },
      body: NODE,
    });
    expect(origin.status).toBe(403);
    expect(JSON.parse(origin.body)).toEqual({ detail: 'Origin not allowed: https://evil.example' });
    expect((await nodes()).count).toBe(0);
  });
});

describe('orchestrator routes behind the Host check (DNS rebinding), default configuration', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
    await gw.gateway.whenReady();
  });
  afterAll(() => gw.close());

  it('a foreign Host is 403 and registers nothing', async () => {
    for (const host of ['attacker.example:7432', 'localhost.attacker.example', 'evil@localhost']) {
      const res = await rawRequest(gw.port, '/api/v1/orchestrator/nodes', {
        method: 'POST',
        headers: { host, 'content-type': 'application/json' },
        body: NODE,
      });
      expect(res.status, host).toBe(403);
      expect(JSON.parse(res.body).detail).toMatch(/gateway\.allowed_hosts/);
    }
    const listed = (await (await fetch(`${gw.url}/api/v1/orchestrator/nodes`)).json()) as {
      count: number;
    };
    expect(listed.count).toBe(0);
  });
});
