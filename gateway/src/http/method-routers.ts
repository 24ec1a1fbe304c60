import express, { type Request, type RequestHandler, type Router } from 'express';
import { mountRoutes } from './mount-routes.ts';
import type { AnyRoute, HttpMethod } from './route.ts';

const METHODS: readonly HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

/** A first path segment that Express matches as plain text (no parameter, no pattern). */
const LITERAL_SEGMENT = /^[A-Za-z0-9_.-]+$/;

function newRouter(): Router {
  return express.Router({ caseSensitive: true, mergeParams: true });
}

/** `/sessions/{id}` → `sessions`; `/` → ``. */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
}

/**
 * One method's routes, split by their first path segment when every route starts with a
 * literal one: routing is case-sensitive and matches the raw path, so a route can only match a
 * request whose raw first segment is the same text, and a request is handed only to the routes
 * that share it (in their order). With a route that starts with a parameter, one router.
 */
function bySegment(routes: readonly AnyRoute[]): (req: Request) => Router | undefined {
  const segments = routes.map((route) => firstSegment(route.path));
  if (!segments.every((segment) => LITERAL_SEGMENT.test(segment))) {
    const router = newRouter();
    mountRoutes(router, routes);
    return () => router;
  }
  const routers = new Map<string, Router>();
  for (const segment of new Set(segments)) {
    const router = newRouter();
    mountRoutes(
      router,
      routes.filter((route) => firstSegment(route.path) === segment),
    );
    routers.set(segment, router);
  }
  return (req) => routers.get(firstSegment(req.path));
}

/**
 * A group's routes as one handler that hands a request only to the routes of its method
 * (HEAD: those of GET, as Express answers HEAD with a GET route) that share its first path
 * segment. Express tries a router's routes one by one, so `POST /api/v1/chat` used to test the
 * path of ~75 routes registered before it (router matching was the largest cost of the HTTP
 * layer in a chat-turn profile). Any other method (OPTIONS) goes to a router holding every
 * route, so Express's automatic OPTIONS answer still lists all methods of a path. Routes keep
 * their order, so the same route wins as before; a request no route can match goes on at once.
 */
export function routeByMethod(routes: readonly AnyRoute[]): RequestHandler {
  const all = newRouter();
  mountRoutes(all, routes);
  const byMethod = new Map<string, (req: Request) => Router | undefined>();
  for (const method of METHODS)
    byMethod.set(
      method.toUpperCase(),
      bySegment(routes.filter((route) => route.method === method)),
    );
  const get = byMethod.get('GET');
  if (get) byMethod.set('HEAD', get);
  return function routeByMethodMiddleware(req, res, next) {
    const pick = byMethod.get(req.method);
    const router = pick ? pick(req) : all;
    if (router) router(req, res, next);
    else next();
  };
}
