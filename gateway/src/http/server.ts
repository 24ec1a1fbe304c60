import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

/**
 * `node:http` taken as a CommonJS object, not through an ESM import: Node fills an ESM
 * namespace of a built-in from every export, and node:http's lazy `WebSocket`, `CloseEvent` and
 * `MessageEvent` getters then load undici (fetch's engine), ~25 ms of CPU and ~3 MB of heap at
 * start-up on a gateway that may never call fetch.
 */
const http = process.getBuiltinModule('node:http');

/**
 * The HTTP server of an Express app, whose requests and responses are created with the app's
 * own prototypes (`app.request`, `app.response`). Express sets those prototypes on every
 * request it handles (`Object.setPrototypeOf`); on a plain IncomingMessage/ServerResponse that
 * changes both objects' shapes, which showed as the largest self cost of Express in a profile
 * (`app.handle`, ~45 µs a request under load). Objects already made with those prototypes make
 * the call a no-op; they are still IncomingMessage and ServerResponse instances, and nothing
 * else about a request changes.
 */
export function createHttpServer(app: Express): Server {
  function AppRequest(socket: Socket): IncomingMessage {
    return Reflect.construct(http.IncomingMessage, [socket], AppRequest) as IncomingMessage;
  }
  AppRequest.prototype = app.request;
  function AppResponse(req: IncomingMessage, options?: unknown): ServerResponse {
    return Reflect.construct(http.ServerResponse, [req, options], AppResponse) as ServerResponse;
  }
  AppResponse.prototype = app.response;
  return http.createServer(
    {
      IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
      ServerResponse: AppResponse as unknown as typeof ServerResponse,
    },
    app,
  );
}
