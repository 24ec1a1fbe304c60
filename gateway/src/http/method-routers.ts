import express, { type RequestHandler, type Router } from 'express';
import { mountRoutes } from './mount-routes.ts';
import type { AnyRoute, HttpMethod } from './route.ts';

const METHODS: readonly HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

function newRouter(): Router {
  return express.Router({ caseSensitive: true, mergeParams: true });
}

/**
 * A group's routes as one handler that hands a request to a router holding only the routes of
 * its method (HEAD: those of GET, as Express answers HEAD with a GET route). Express tries a
 * router's routes one by one, path first, so `POST /api/v1/chat` used to test the path of every
 * GET and DELETE route registered before it (~110 routes in /api/v1; router matching was the
 * largest cost of the HTTP layer in a chat-turn profile). Any other method (OPTIONS) goes to a
 * router holding every route, so Express's automatic OPTIONS answer still lists all methods of
 * a path. Routes keep their order within a method, so the same route wins as before.
 */
export function routeByMethod(routes: readonly AnyRoute[]): RequestHandler {
  const all = newRouter();
  mountRoutes(all, routes);
  const byMethod = new Map<string, Router>();
  for (const method of METHODS) {
    const router = newRouter();
    mountRoutes(
      router,
      routes.filter((route) => route.method === method),
    );
    byMethod.set(method.toUpperCase(), router);
  }
  const get = byMethod.get('GET');
  if (get) byMethod.set('HEAD', get);
  return function routeByMethodMiddleware(req, res, next) {
    (byMethod.get(req.method) ?? all)(req, res, next);
  };
}
