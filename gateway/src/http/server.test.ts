import { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../testing/fakes/raw-request.ts';
import { createHttpServer } from './server.ts';

describe('createHttpServer', () => {
  const seen: { request: boolean; response: boolean; node: boolean }[] = [];
  const app = express();
  app.get('/probe', (req, res) => {
    seen.push({
      request: Object.getPrototypeOf(req) === app.request,
      response: Object.getPrototypeOf(res) === app.response,
      node: req instanceof IncomingMessage && res instanceof ServerResponse,
    });
    res.set('X-Probe', 'yes').json({ path: req.path, query: req.query, host: req.hostname });
  });
  const server = createHttpServer(app);
  beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('serves the app with its own request and response prototypes', async () => {
    const { port } = server.address() as AddressInfo;
    const res = await rawRequest(port, '/probe?a=1', { headers: { host: 'localhost' } });
    expect(res.status).toBe(200);
    expect(res.headers['x-probe']).toBe('yes');
    expect(JSON.parse(res.body)).toEqual({ path: '/probe', query: { a: '1' }, host: 'localhost' });
    expect(seen).toEqual([{ request: true, response: true, node: true }]);
    const head = await rawRequest(port, '/probe', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect((await rawRequest(port, '/elsewhere')).status).toBe(404);
  });
});
