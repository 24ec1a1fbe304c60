import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { createRequire } from 'node:module';
import type { Logger } from 'pino';
import type * as Ws from 'ws';
import type { WebSocket, WebSocketServer } from 'ws';
import { keyMatches } from '../http/middleware/api-key.ts';
import { hostNotAllowedDetail, type HostPolicy } from '../http/middleware/hosts.ts';
import type { OriginPolicy } from '../http/middleware/origins.ts';
import { presentedSecret } from './socket-secret.ts';

export type SocketHandler = (socket: WebSocket, request: IncomingMessage) => void;

const require = createRequire(import.meta.url);
let wsLibrary: typeof Ws | undefined;
/**
 * `ws`, required on the first upgrade rather than at start: a gateway no client opens a
 * socket on never loads it (measured: ~80 ms of CPU and ~2 MB of heap).
 */
const ws = (): typeof Ws => (wsLibrary ??= require('ws') as typeof Ws);

export interface SocketRouteOptions {
  /**
   * A secret this endpoint needs even when no API key is set (the terminal's local token).
   * With an API key set, every endpoint needs the key instead. Empty refuses every client.
   */
  secret?: () => string;
  /**
   * This endpoint's largest accepted frame, in bytes (default: the router's). A larger frame
   * closes the socket with 1009; an endpoint whose handler rejects big frames itself with an
   * error frame sets this above its own limit, as a hard cap that still protects memory.
   */
  maxPayload?: number;
}

/** The router's default largest frame: 1 MiB. */
export const DEFAULT_MAX_PAYLOAD = 1_048_576;

/**
 * WebSockets open at once across every endpoint. Each holds buffers, a session's presence and
 * its share of the event stream; one more upgrade is answered 503 until one closes.
 */
export const MAX_OPEN_SOCKETS = 1_000;

/** Close code for a policy violation (here: a browser Origin that is not allowed). */
export const CLOSE_POLICY_VIOLATION = 1008;

export interface SocketRouterOptions {
  origins: OriginPolicy;
  /** The names the upgrade request's `Host` may carry (DNS rebinding). */
  hosts: HostPolicy;
  /** `gateway.api_key`; when set, every socket needs it. */
  apiKey: string;
  logger: Logger;
  /** Largest accepted frame, in bytes. */
  maxPayload?: number;
  /** WebSockets open at once; default `MAX_OPEN_SOCKETS`. */
  maxSockets?: number;
  /** Told of each upgrade refused because `maxSockets` are open (`ws_connections_refused_total`). */
  onRefused?: () => void;
}

/**
 * Routes HTTP upgrades to WebSocket endpoints by exact path. Before the handshake every
 * upgrade passes the `Host` check (403; a valid key passes with any Host) and, with an API key
 * set, must present it (401) — header `X-API-Key` or subprotocol `hearth.key.<base64url(key)>`;
 * an endpoint with its own `secret` needs that when no key is set. A key that came as a
 * subprotocol is the one selected in the handshake unless the client offered another one
 * (browsers fail a handshake that selects none of the offered). Then the origin check: a browser
 * Origin outside the allow-list is accepted and closed at once with 1008 (so the client sees
 * the reason), a missing Origin (a non-browser client) is allowed. An unknown path is answered
 * 404. Areas call `register` as they are built.
 */
export function createSocketRouter(options: SocketRouterOptions) {
  const handlers = new Map<string, { handler: SocketHandler; options: SocketRouteOptions }>();
  /** The subprotocol that carried the accepted secret, per upgrade request. */
  const secretProtocols = new WeakMap<IncomingMessage, string>();
  const defaultMaxPayload = options.maxPayload ?? DEFAULT_MAX_PAYLOAD;
  const maxSockets = options.maxSockets ?? MAX_OPEN_SOCKETS;
  /** Upgrades accepted (or being completed) and not closed yet. */
  let open = 0;
  /** One `ws` server per frame limit (the limit is a server option in `ws`). */
  const servers = new Map<number, WebSocketServer>();
  function serverFor(maxPayload: number): WebSocketServer {
    let server = servers.get(maxPayload);
    if (!server) {
      server = new (ws().WebSocketServer)({
        noServer: true,
        maxPayload,
        handleProtocols: (protocols, request) =>
          [...protocols].find((p) => !p.startsWith('hearth.key.')) ??
          secretProtocols.get(request) ??
          false,
      });
      servers.set(maxPayload, server);
    }
    return server;
  }

  function rejectHttp(socket: Duplex, status: number, reason: string, detail: string): void {
    const body = JSON.stringify({ detail });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }

  function onUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const presented = presentedSecret(request);
    const hasKey = options.apiKey !== '' && keyMatches(presented?.value, options.apiKey);
    if (!options.hosts.isAllowed(request.headers.host) && !hasKey) {
      rejectHttp(socket, 403, 'Forbidden', hostNotAllowedDetail(request.headers.host));
      return;
    }
    const path = new URL(request.url ?? '/', 'http://gateway').pathname;
    const route = handlers.get(path.length > 1 ? withoutTrailingSlashes(path) : path);
    if (!route) {
      rejectHttp(socket, 404, 'Not Found', 'Not found');
      return;
    }
    const required = options.apiKey !== '' ? options.apiKey : route.options.secret?.();
    if (required !== undefined) {
      // An empty secret (not created yet) matches nothing.
      if (required === '' || !keyMatches(presented?.value, required)) {
        rejectHttp(
          socket,
          401,
          'Unauthorized',
          options.apiKey !== ''
            ? 'This WebSocket needs the API key (X-API-Key or subprotocol hearth.key.<base64url(key)>)'
            : 'This WebSocket needs the local token (X-API-Key or subprotocol hearth.key.<base64url(token)>)',
        );
        return;
      }
      if (presented?.protocol !== undefined) secretProtocols.set(request, presented.protocol);
    }
    if (open >= maxSockets) {
      options.onRefused?.();
      options.logger.warn({ path, maxSockets }, 'websocket refused: too many open');
      rejectHttp(
        socket,
        503,
        'Service Unavailable',
        `Too many WebSockets are open (at most ${maxSockets}); try again later`,
      );
      return;
    }
    const { handler } = route;
    const origin = request.headers.origin;
    const server = serverFor(route.options.maxPayload ?? defaultMaxPayload);
    // Counted from here: a handshake that never completes gives its place back when the TCP
    // socket closes.
    open += 1;
    let counted = true;
    const release = () => {
      if (!counted) return;
      counted = false;
      open -= 1;
    };
    socket.once('close', release);
    server.handleUpgrade(request, socket, head, (ws) => {
      ws.once('close', release);
      // A protocol error (a frame over the limit: 1009, a bad opcode: 1002) closes the socket;
      // without a listener `ws` would throw it and take the whole process down.
      ws.on('error', (error: Error & { code?: string }) =>
        options.logger.warn(
          { path, code: error.code, err: error.message },
          'websocket frame error',
        ),
      );
      if (origin !== undefined && !options.origins.isAllowed(origin, request.headers.host)) {
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
      const maxPayload = options.maxPayload;
      if (maxPayload !== undefined && (!Number.isSafeInteger(maxPayload) || maxPayload < 1))
        throw new Error(`WebSocket maxPayload must be a positive integer: ${path}`);
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
      for (const server of servers.values()) {
        for (const client of server.clients) client.close(1001, 'Gateway shutting down');
        server.close();
      }
    },
  };
}

export type SocketRouter = ReturnType<typeof createSocketRouter>;

/** `path` without its trailing slashes: a loop, as `/\/+$/` is quadratic on a run of slashes. */
export function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === '/') end -= 1;
  return path.slice(0, end);
}
