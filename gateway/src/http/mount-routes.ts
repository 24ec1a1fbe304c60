import type { Request, Response, Router } from 'express';
import type { AnyRoute } from './route.ts';
import { toExpressPath } from './route.ts';
import { parseRequestPart } from './validation.ts';

/**
 * Registers each route on an Express router: validate params, query and body with the
 * route's schemas, call the handler, validate and send its result. Errors go to the one
 * error middleware.
 */
export function mountRoutes(router: Router, routes: readonly AnyRoute[]): void {
  for (const route of routes) {
    router[route.method](toExpressPath(route.path), async (req: Request, res: Response) => {
      const input = {
        params: route.params ? parseRequestPart(route.params, req.params, 'path') : {},
        query: route.query ? parseRequestPart(route.query, req.query, 'query') : {},
        body: route.body ? parseRequestPart(route.body, req.body, 'body') : {},
        headers: req.headers,
      };
      const result = await route.handler(input);
      if (route.status === 204) {
        res.status(204).end();
        return;
      }
      const body: unknown = route.response.parse(result);
      const status =
        typeof route.status === 'function' ? route.status(body as never) : (route.status ?? 200);
      if (route.contentType === 'text/plain') {
        res.status(status).type('text/plain; version=0.0.4; charset=utf-8').send(String(body));
        return;
      }
      res.status(status).json(body);
    });
  }
}
