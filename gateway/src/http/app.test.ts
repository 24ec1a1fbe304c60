import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { notFound } from '../errors.ts';
import { silentLogger } from '../observability/logger.ts';
import { rawRequest } from '../testing/fakes/raw-request.ts';
import { createHttpApp } from './app.ts';
import { createHostPolicy } from './middleware/hosts.ts';
import { createOriginPolicy } from './middleware/origins.ts';
import { defineRoute } from './route.ts';

const items = new Map<number, { id: number; name: string; count: number }>();

const routes = [
  defineRoute({
    method: 'post',
    path: '/items',
    summary: 'create an item',
    body: z.object({ name: z.string().min(1), count: z.number().int().min(0).max(10) }),
    response: z.object({ id: z.number(), name: z.string(), count: z.number() }),
    status: 201,
    handler: ({ body }) => {
      const item = { id: items.size + 1, ...body };
      items.set(item.id, item);
      return item;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/items/{id}',
    summary: 'read an item',
    params: z.object({ id: z.coerce.number().int() }),
    response: z.object({ id: z.number(), name: z.string(), count: z.number() }),
    handler: ({ params }) => {
      const item = items.get(params.id);
      if (!item) throw notFound(`Item ${params.id} not found`);
      return item;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/boom',
    summary: 'fails unexpectedly',
    response: z.object({}),
    handler: () => {
      throw new Error('secret internal detail at /srv/hearth/x.ts:12');
    },
  }),
];

describe('HTTP error contract', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    const app = createHttpApp({
      logger: silentLogger(),
      version: '0.0.0-test',
      apiKey: '',
      origins: createOriginPolicy({
        host: '127.0.0.1',
        port: () => port,
        extra: ['https://hearth.example.org'],
        hosts: createHostPolicy({ bindHost: '127.0.0.1', corsOrigins: [], allowedHosts: [] }),
      }),
      hosts: createHostPolicy({ bindHost: '127.0.0.1', corsOrigins: [], allowedHosts: [] }),
      bodyLimitBytes: 1024,
      groups: [{ prefix: '/api/v1', routes }],
    });
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = (body: string, headers: Record<string, string> = {}) =>
    rawRequest(port, '/api/v1/items', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...headers },
    });

  it('creates with 201 when the body is valid', async () => {
    const res = await post(JSON.stringify({ name: 'lamp', count: 2 }));
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body)).toMatchObject({ name: 'lamp', count: 2 });
  });

  it('replies to a POST with its status, JSON type, exact length and body, and no ETag (no POST can be conditional)', async () => {
    const res = await post(JSON.stringify({ name: 'kettle ☕', count: 1 }));
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    expect(JSON.parse(res.body)).toMatchObject({ name: 'kettle ☕', count: 1 });
    expect(res.headers.etag).toBeUndefined();
  });

  it('gives a GET reply its JSON type, exact length and ETag, the same to HEAD without a body, and answers 304 to a request that has it', async () => {
    const created = JSON.parse((await post(JSON.stringify({ name: 'mug', count: 3 }))).body) as {
      id: number;
    };
    const first = await rawRequest(port, `/api/v1/items/${created.id}`);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(first.headers['content-length'])).toBe(Buffer.byteLength(first.body));
    expect(JSON.parse(first.body)).toEqual({ id: created.id, name: 'mug', count: 3 });
    const head = await rawRequest(port, `/api/v1/items/${created.id}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-type']).toBe(first.headers['content-type']);
    expect(head.headers['content-length']).toBe(first.headers['content-length']);
    expect(head.headers.etag).toBe(first.headers.etag);
    const etag = first.headers.etag;
    expect(etag).toMatch(/^W\/"/);
    const again = await rawRequest(port, `/api/v1/items/${created.id}`, {
      headers: { 'if-none-match': String(etag) },
    });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers an unknown route with a JSON 404', async () => {
    const res = await rawRequest(port, '/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(res.body)).toEqual({ detail: 'Not found: GET /api/v1/nothing-here' });
  });

  it('answers a missing resource with 404 and its own detail', async () => {
    const res = await rawRequest(port, '/api/v1/items/999');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toEqual({ detail: 'Item 999 not found' });
  });

  it('rejects malformed JSON with 422', async () => {
    const res = await post('{"name": "lamp",');
    expect(res.status).toBe(422);
    expect(JSON.parse(res.body)).toEqual({ detail: 'Malformed JSON in request body' });
  });

  it('rejects a body over the limit with 413', async () => {
    const res = await post(JSON.stringify({ name: 'x'.repeat(2000), count: 1 }));
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({
      detail: 'Request body exceeds the limit of 1024 bytes',
    });
  });

  it('rejects an invalid field with 422 naming the field', async () => {
    const res = await post(JSON.stringify({ name: 'lamp', count: 11 }));
    expect(res.status).toBe(422);
    expect(JSON.parse(res.body).detail).toMatch(/^body\.count: /);
    const missing = await post(JSON.stringify({ count: 1 }));
    expect(JSON.parse(missing.body).detail).toMatch(/^body\.name: /);
    const badParam = await rawRequest(port, '/api/v1/items/abc');
    expect(badParam.status).toBe(422);
    expect(JSON.parse(badParam.body).detail).toMatch(/^path\.id: /);
  });

  it('hides unexpected errors behind a generic 500 without a stack trace', async () => {
    const res = await rawRequest(port, '/api/v1/boom');
    expect(res.status).toBe(500);
    expect(JSON.parse(res.body)).toEqual({ detail: 'Internal server error' });
    expect(res.body).not.toContain('/srv/hearth');
  });

  describe('CORS', () => {
    it.each(['http://localhost', 'http://127.0.0.1'])(
      'allows the gateway’s own origin %s:<port>',
      async (origin) => {
        const res = await rawRequest(port, '/api/v1/items/1', {
          headers: { origin: `${origin}:${port}` },
        });
        expect(res.status).toBe(200);
        expect(res.headers['access-control-allow-origin']).toBe(`${origin}:${port}`);
      },
    );

    it('allows a configured extra origin and answers its preflight', async () => {
      const res = await rawRequest(port, '/api/v1/items', {
        method: 'OPTIONS',
        headers: {
          origin: 'https://hearth.example.org',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,x-api-key',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('https://hearth.example.org');
      expect(res.headers['access-control-allow-headers']).toBe('content-type,x-api-key');
    });

    it('refuses a foreign origin with 403 and no CORS headers', async () => {
      const res = await post(JSON.stringify({ name: 'evil', count: 1 }), {
        origin: 'https://evil.example',
      });
      expect(res.status).toBe(403);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(JSON.parse(res.body)).toEqual({ detail: 'Origin not allowed: https://evil.example' });
      expect([...items.values()].some((item) => item.name === 'evil')).toBe(false);
    });

    it('refuses the right host on another port', async () => {
      const res = await rawRequest(port, '/api/v1/items/1', {
        headers: { origin: `http://localhost:${port + 1}` },
      });
      expect(res.status).toBe(403);
    });
  });
});
