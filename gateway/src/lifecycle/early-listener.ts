/**
 * The early listener: the gateway's port, bound by main.ts as soon as the process is up, before
 * the ~800 modules of the gateway load, so `/health` answers within milliseconds of the start
 * (spec: "/health returns 200 as soon as the process is up"). Until the real server takes its
 * listening socket over, it answers `/health` (200), `/ready` (503, phase not done) and anything
 * else with 503 and `Retry-After`, each on a connection it then closes. The handover passes the
 * socket itself, so no connection is ever refused in between.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { BoundSocket } from 'node:net';
import type { EarlySettings } from '../config/early-settings.ts';
import { createHostPolicy, hostGate, hostNotAllowedDetail } from '../http/middleware/hosts.ts';
import { listeningAddress, type ListeningAddress } from './listening-address.ts';

/** Not an ESM import: node:http's ESM namespace loads undici (see http/server.ts). */
const http = process.getBuiltinModule('node:http');
const net = process.getBuiltinModule('node:net');

/** The 503 detail of every path but /health and /ready while the gateway starts. */
export const EARLY_STARTING_DETAIL = 'Hearth is starting; try again in a moment';

export interface EarlyListener {
  readonly address: ListeningAddress;
  /**
   * Gives the listening socket to `server` (which must not be listening): from then on it
   * accepts every connection, this listener none; requests in flight here still finish.
   */
  handOver(server: Server): Promise<void>;
  /** Stops listening (start-up failed before the handover); after a handover it does nothing. */
  close(): void;
}

export interface EarlyIdentity {
  /** What /health reports. */
  version: string;
  agent: string;
}

/**
 * Binds `settings.host:port`. `onBound` runs before the first connection can be handled (the
 * runtime file is written there). Rejects with the bind error (EADDRINUSE…).
 */
export function bindEarlyListener(
  settings: EarlySettings,
  identity: EarlyIdentity,
  onBound?: (address: ListeningAddress) => void,
): Promise<EarlyListener> {
  const health = JSON.stringify({ status: 'ok', version: identity.version, agent: identity.agent });
  const readiness = JSON.stringify({
    ready: false,
    checks: {
      phase: false,
      runtime: false,
      ...(settings.channelsConfigured ? { channel_connected: false } : {}),
    },
  });
  const starting = JSON.stringify({ detail: EARLY_STARTING_DETAIL });
  const passes = hostGate({
    policy: createHostPolicy({
      bindHost: settings.host,
      corsOrigins: settings.corsOrigins,
      allowedHosts: settings.allowedHosts,
    }),
    apiKey: settings.apiKey,
  });

  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?', 1)[0] ?? '';
    const readOnly = req.method === 'GET' || req.method === 'HEAD';
    const header = req.headers['x-api-key'];
    const key = () => (Array.isArray(header) ? header.join(', ') : header);
    if (!passes(path, req.headers.host, key))
      return send(
        res,
        req,
        403,
        JSON.stringify({ detail: hostNotAllowedDetail(req.headers.host) }),
      );
    if (readOnly && path === '/health') return send(res, req, 200, health);
    if (readOnly && path === '/ready') return send(res, req, 503, readiness);
    res.setHeader('Retry-After', '1');
    send(res, req, 503, starting);
  });

  let handedOver = false;
  return new Promise<EarlyListener>((resolve, reject) => {
    server.once('error', reject);
    let bound: ReturnType<typeof bindNumeric>;
    try {
      bound = bindNumeric(settings.port, settings.host);
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    const onListening = () => {
      server.off('error', reject);
      const address = listeningAddress(server);
      onBound?.(address);
      resolve({
        address,
        handOver: (target) =>
          new Promise<void>((done, fail) => {
            target.once('error', fail);
            // `listen(handle)` takes the object's `_handle`: the same bound, listening socket.
            target.listen(server, () => {
              target.off('error', fail);
              done();
            });
            handedOver = true;
            // The socket is the target's now: this server lets go of it without closing it,
            // then closes once its own connections are done.
            (server as unknown as { _handle: unknown })._handle = null;
            server.close();
          }),
        close: () => {
          if (!handedOver) server.close();
        },
      });
    };
    if (bound === undefined) server.listen(settings.port, settings.host, onListening);
    else server.listen(bound, onListening);
  });
}

/**
 * The socket bound to a numeric `host` (`net.BoundSocket`, Node 24): `listen(port, host)` looks
 * any host up first, then tests each address it gets with net's isIPv6, whose regular
 * expression took ~10 ms to compile at every start. Undefined for a host name, or on a Node
 * without it: those are left to listen. Throws the bind error (EADDRINUSE…).
 */
function bindNumeric(port: number, host: string): BoundSocket | undefined {
  if (typeof net.BoundSocket !== 'function' || net.isIP(host) === 0) return undefined;
  return new net.BoundSocket({ host, port });
}

/** JSON with the gateway's security headers, on a connection closed after it (no keep-alive). */
function send(res: ServerResponse, req: IncomingMessage, status: number, body: string): void {
  res.statusCode = status;
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.setHeader('Connection', 'close');
  res.end(req.method === 'HEAD' ? undefined : body);
}
