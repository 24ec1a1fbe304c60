import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

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
    return Reflect.construct(IncomingMessage, [socket], AppRequest) as IncomingMessage;
  }
  AppRequest.prototype = app.request;
  function AppResponse(req: IncomingMessage, options?: unknown): ServerResponse {
    return Reflect.construct(ServerResponse, [req, options], AppResponse) as ServerResponse;
  }
  AppResponse.prototype = app.response;
  return createServer(
    {
      IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
      ServerResponse: AppResponse as unknown as typeof ServerResponse,
    },
    app,
  );
}
