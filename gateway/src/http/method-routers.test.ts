import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rawRequest, type RawResponse } from '../testing/fakes/raw-request.ts';
import { routeByMethod } from './method-routers.ts';
import { mountRoutes } from './mount-routes.ts';
import { defineRoute, type HttpMethod } from './route.ts';

const answer = (method: HttpMethod, path: string, name: string) =>
  defineRoute({
    method,
    path,
    summary: name,
    params: path.includes('{') ? z.object({ id: z.string() }) : undefined,
    response: z.object({ route: z.string(), id: z.string().optional() }),
    handler: ({ params }) => ({ route: name, ...(params as { id?: string }) }),
  });

// Same paths under several methods, a parameter route before a fixed one (order decides).
const routes = [
  answer('get', '/items', 'list'),
  answer('post', '/items', 'create'),
  answer('get', '/items/{id}', 'read'),
  answer('get', '/items/search', 'search (shadowed by read)'),
  answer('delete', '/items/{id}', 'remove'),
  answer('patch', '/items/{id}', 'edit'),
  answer('put', '/things/{id}', 'replace'),
  answer('post', '/chat', 'chat'),
];

async function serve(mount: (app: express.Express) => void): Promise<Server> {
  const app = express();
  app.set('case sensitive routing', true);
  app.use(express.json());
  mount(app);
  app.use((_req, res) => void res.status(404).json({ detail: 'fell through' }));
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const portOf = (server: Server) => (server.address() as AddressInfo).port;

/** What a client can see of a response (no Date, no ETag of a varying body). */
function visible(res: RawResponse) {
  return {
    status: res.status,
    allow: res.headers.allow,
    type: res.headers['content-type'],
    length: res.headers['content-length'],
    etag: res.headers.etag,
    body: res.body,
  };
}

// A route whose first segment is a parameter: that method's routes are not split by segment.
const withParameterFirst = [
  answer('get', '/items/{id}', 'read'),
  answer('get', '/{id}/items', 'owner items'),
  answer('get', '/chat', 'chat page'),
  answer('post', '/items', 'create'),
];

describe.each([
  ['literal first segments', routes],
  ['a parameter first segment', withParameterFirst],
])('routeByMethod, routes with %s', (_name, table) => {
  let oneRouter: Server;
  let byMethod: Server;
  beforeAll(async () => {
    oneRouter = await serve((app) => {
      const router = express.Router({ caseSensitive: true, mergeParams: true });
      mountRoutes(router, table);
      app.use('/api', router);
    });
    byMethod = await serve((app) => app.use('/api', routeByMethod(table)));
  });
  afterAll(async () => {
    for (const server of [oneRouter, byMethod])
      await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const cases: [string, string][] = [
    ['GET', '/api/items'],
    ['POST', '/api/items'],
    ['GET', '/api/items/7'],
    ['GET', '/api/items/search'],
    ['GET', '/api/items/7/'],
    ['GET', '/api/Items/7'],
    ['HEAD', '/api/items/7'],
    ['DELETE', '/api/items/7'],
    ['PATCH', '/api/items/7'],
    ['PUT', '/api/items/7'],
    ['PUT', '/api/things/3'],
    ['POST', '/api/items/7'],
    ['DELETE', '/api/items'],
    ['POST', '/api/chat'],
    ['GET', '/api/chat'],
    ['OPTIONS', '/api/items'],
    ['OPTIONS', '/api/items/7'],
    ['OPTIONS', '/api/nowhere'],
    ['PROPFIND', '/api/items'],
    ['GET', '/api/nowhere'],
    ['GET', '/api/ite%6ds'],
    ['GET', '/api//items'],
    ['GET', '/api/items//7'],
    ['GET', '/api/'],
    ['GET', '/api'],
    ['GET', '/api/7/items'],
    ['GET', '/api/chat/'],
    ['GET', '/api/chat?x=1'],
  ];

  it.each(cases)(
    'answers %s %s exactly as one router holding every route',
    async (method, path) => {
      const options = {
        method,
        headers: { 'content-type': 'application/json' },
        ...(method === 'POST' || method === 'PATCH' || method === 'PUT' ? { body: '{}' } : {}),
      };
      const expected = await rawRequest(portOf(oneRouter), path, options);
      const actual = await rawRequest(portOf(byMethod), path, options);
      expect(visible(actual)).toEqual(visible(expected));
    },
  );

  it.runIf(table === routes)(
    'sends each method to its own route and OPTIONS lists every method of a path',
    async () => {
      const port = portOf(byMethod);
      expect(
        JSON.parse((await rawRequest(port, '/api/items/7', { method: 'DELETE' })).body),
      ).toEqual({ route: 'remove', id: '7' });
      expect((await rawRequest(port, '/api/items/7', { method: 'OPTIONS' })).headers.allow).toBe(
        'DELETE, GET, HEAD, PATCH',
      );
    },
  );
});
