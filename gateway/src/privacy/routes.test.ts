import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpApp } from '../http/app.ts';
import { createHostPolicy } from '../http/middleware/hosts.ts';
import { createOriginPolicy } from '../http/middleware/origins.ts';
import { silentLogger } from '../observability/logger.ts';
import { rawRequest } from '../testing/fakes/raw-request.ts';
import { openAuditStore, type AuditStore } from './audit-store.ts';
import { privacyRoutes } from './routes.ts';

const NOW = 1_800_000_000;

describe('privacy routes', () => {
  let server: Server;
  let port: number;
  let store: AuditStore;

  beforeAll(async () => {
    store = openAuditStore(':memory:', { now: () => NOW });
    const app = createHttpApp({
      logger: silentLogger(),
      version: '0.0.0-test',
      apiKey: '',
      origins: createOriginPolicy({
        host: '127.0.0.1',
        port: () => port,
        extra: [],
        hosts: createHostPolicy({ bindHost: '127.0.0.1', corsOrigins: [], allowedHosts: [] }),
      }),
      hosts: createHostPolicy({ bindHost: '127.0.0.1', corsOrigins: [], allowedHosts: [] }),
      bodyLimitBytes: 1024,
      groups: [{ prefix: '/api/v1', routes: privacyRoutes(store) }],
    });
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    store.close();
  });
  beforeEach(() => {
    store.clear(null);
    const base = { method: 'POST', timestamp: NOW };
    store.record({
      ...base,
      session_id: 's1',
      url: 'https://api.openai.com/v1/x',
      destination: 'api.openai.com',
    });
    store.record({
      ...base,
      session_id: 's1',
      url: 'https://api.groq.com/v1/x',
      destination: 'api.groq.com',
      timestamp: NOW + 1,
    });
    store.record({
      ...base,
      session_id: 's2',
      url: 'https://api.mistral.ai/v1/x',
      destination: 'api.mistral.ai',
    });
  });

  const call = async (method: string, path: string) => {
    const res = await rawRequest(port, `/api/v1${path}`, { method });
    return { status: res.status, body: JSON.parse(res.body) as Record<string, unknown> };
  };

  it('reports every session without session_id', async () => {
    const { status, body } = await call('GET', '/privacy/report');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      session_id: null,
      total: 3,
      unique_destinations: ['api.groq.com', 'api.mistral.ai', 'api.openai.com'],
    });
    expect(body.entries).toHaveLength(3);
  });

  it('reports one session', async () => {
    const { status, body } = await call('GET', '/privacy/report?session_id=s1');
    expect(status).toBe(200);
    expect(body).toEqual({
      session_id: 's1',
      total: 2,
      unique_destinations: ['api.groq.com', 'api.openai.com'],
      entries: [
        {
          session_id: 's1',
          method: 'POST',
          url: 'https://api.groq.com/v1/x',
          destination: 'api.groq.com',
          timestamp: NOW + 1,
          source: null,
          refused: null,
        },
        {
          session_id: 's1',
          method: 'POST',
          url: 'https://api.openai.com/v1/x',
          destination: 'api.openai.com',
          timestamp: NOW,
          source: null,
          refused: null,
        },
      ],
    });
  });

  it('gives a fresh session total 0 and no destinations', async () => {
    const { status, body } = await call('GET', '/privacy/report?session_id=fresh-privacy-session');
    expect(status).toBe(200);
    expect(body).toEqual({
      session_id: 'fresh-privacy-session',
      total: 0,
      unique_destinations: [],
      entries: [],
    });
  });

  it('clears one session', async () => {
    expect(await call('DELETE', '/privacy/report?session_id=s1')).toEqual({
      status: 200,
      body: { cleared: 2, session_id: 's1' },
    });
    expect((await call('GET', '/privacy/report')).body.total).toBe(1);
  });

  it('clears every session without session_id', async () => {
    expect(await call('DELETE', '/privacy/report')).toEqual({
      status: 200,
      body: { cleared: 3, session_id: null },
    });
    expect((await call('GET', '/privacy/report')).body.total).toBe(0);
  });

  it('refuses an empty session_id rather than clearing everything', async () => {
    const { status, body } = await call('DELETE', '/privacy/report?session_id=');
    expect(status).toBe(422);
    expect(body.detail).toMatch(/^query\.session_id: /);
    expect((await call('GET', '/privacy/report')).body.total).toBe(3);
  });
});
