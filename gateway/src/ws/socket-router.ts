import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import type { OriginPolicy } from '../http/middleware/origins.ts';

export type SocketHandler = (socket: WebSocket, request: IncomingMessage) => void;

export interface SocketRouteOptions {
  /** Checked before the upgrade; false answers 401 and drops the connection. */
  authorize?: (request: IncomingMessage) => boolean;
}

/** Close code for a policy violation (here: a browser Origin that is not allowed). */
export const CLOSE_POLICY_VIOLATION = 1008;

export interface SocketRouterOptions {
  origins: OriginPolicy;
  logger: Logger;
  /** Largest accepted frame, in bytes. */
  maxPayload?: number;
}

/**
 * Routes HTTP upgrades to WebSocket endpoints by exact path. Every endpoint gets the same
 * origin check: a browser Origin outside the allow-list is accepted and closed at once with
 * 1008 (so the client sees the reason), a missing Origin (a non-browser client) is allowed.
 * An unknown path is answered 404 and the connection dropped. Areas call `register` as they
 * are built.
 */
export function createSocketRouter(options: SocketRouterOptions) {
  const handlers = new Map<string, { handler: SocketHandler; options: SocketRouteOptions }>();
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxPayload ?? 1_048_576,
    // Never echo a key-carrying subprotocol (`hearth.key.…`) back; pick another one offered.
    handleProtocols: (protocols) =>
      [...protocols].find((p) => !p.startsWith('hearth.key.')) ?? false,
  });

  function rejectHttp(socket: Duplex, status: number, reason: string): void {
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  }

  function onUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = new URL(request.url ?? '/', 'http://gateway').pathname;
    const route = handlers.get(path.length > 1 ? path.replace(/\/+$/, '') : path);
    if (!route) {
      rejectHttp(socket, 404, 'Not Found');
      return;
    }
    if (route.options.authorize && !route.options.authorize(request)) {
      rejectHttp(socket, 401, 'Unauthorized');
      return;
    }
    const { handler } = route;
    const origin = request.headers.origin;
    wss.handleUpgrade(request, socket, head, (ws) => {
      if (origin !== undefined && !options.origins.isAllowed(origin)) {
        options.logger.warn({ origin, path }, 'websocket origin rejected');
        ws.close(CLOSE_POLICY_VIOLATION, 'Origin not allowed');
        return;
      }
      handler(ws, request);
    });
  }

  return {
    register(path: string, handler: SocketHandler, options: SocketRouteOptions = {}): void {
      if (handlers.has(path)) throw new Error(`WebSocket path already registered: ${path}`);
      handlers.set(path, { handler, options });
    },
    paths(): string[] {
      return [...handlers.keys()];
    },
    attach(server: Server): void {
      server.on('upgrade', onUpgrade);
    },
    /** Closes every open socket with 1001 (going away). */
    close(): void {
      for (const client of wss.clients) client.close(1001, 'Gateway shutting down');
      wss.close();
    },
  };
}

export type SocketRouter = ReturnType<typeof createSocketRouter>;
