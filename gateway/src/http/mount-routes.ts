import type { Request, Response, Router } from 'express';
import type { AnyRoute } from './route.ts';
import { toExpressPath } from './route.ts';
import { parseRequestPart } from './validation.ts';
import { isHearthError } from '../errors.ts';
import { isEventStream, type EventStreamResult } from './event-stream.ts';

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
        body: route.body && !route.webhook ? parseRequestPart(route.body, req.body, 'body') : {},
        headers: req.headers,
        ...(route.webhook
          ? { rawBody: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0) }
          : {}),
      };
      const result = await route.handler(input);
      if (isEventStream(result)) {
        await sendEventStream(res, result);
        return;
      }
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
      if (req.method === 'GET' || req.method === 'HEAD') sendConditionalJson(res, status, body);
      else sendJson(res, status, body);
    });
  }
}

/**
 * A JSON reply to a request that cannot be conditional (POST, PUT, PATCH, DELETE). Express's
 * `res.json` would give it an ETag, a SHA-1 of the body, which no client can use: its freshness
 * check (304) applies to GET and HEAD only. The reply is otherwise the same: status, type,
 * length, body.
 */
function sendJson(res: Response, status: number, body: unknown): void {
  const text = JSON.stringify(body) as string | undefined;
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (text === undefined) {
    res.end();
    return;
  }
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/**
 * A JSON reply to GET or HEAD as `res.json` makes it (ETag, 304 when the request is fresh, no
 * body to HEAD), given to `res.send` as bytes with its type already set: `res.json` sets the
 * type through mime-types, which the bundle loads on first use (scripts/build/load-on-first-use.ts),
 * and a status or readiness poll does not need its table.
 */
function sendConditionalJson(res: Response, status: number, body: unknown): void {
  const text = JSON.stringify(body) as string | undefined;
  res.status(status).setHeader('Content-Type', 'application/json; charset=utf-8');
  res.send(text === undefined ? undefined : Buffer.from(text));
}

/** Writes a route's event stream as `text/event-stream`; a client that leaves cancels it. */
async function sendEventStream(res: Response, stream: EventStreamResult): Promise<void> {
  res.status(200);
  res.set({
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.flushHeaders();
  const onClose = () => {
    if (!res.writableFinished) stream.cancel();
  };
  res.on('close', onClose);
  try {
    for await (const { event, data } of stream.events) {
      if (!res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)) {
        await new Promise((resolve) => res.once('drain', resolve));
      }
    }
  } catch (error) {
    const detail = isHearthError(error) ? error.message : 'Internal server error';
    res.write(`event: error\ndata: ${JSON.stringify({ detail })}\n\n`);
  } finally {
    res.end();
    res.off('close', onClose);
  }
}
