import type { RequestHandler } from 'express';
import { isIP } from 'node:net';
import { HearthError } from '../../errors.ts';
import type { HostPolicy } from './hosts.ts';

export interface OriginPolicy {
  /**
   * Whether a request or socket from `origin` may be served. `host` is the request's raw `Host`
   * header: the origin the request arrives under (`http://<Host>`) counts as the gateway's own
   * when that Host is one the gateway serves.
   */
  isAllowed(origin: string, host?: string): boolean;
  readonly origins: readonly string[];
}

const WILDCARD_V4 = '0.0.0.0';
const WILDCARD_V6 = ['::', '[::]'];

/**
 * The host names (URL form, IPv6 bracketed) that reach the bound address: a loopback address is
 * reached by `localhost` and its own literal; `0.0.0.0` by the IPv4 loopback names, `::` by both
 * families'; any other address or name only by itself.
 */
export function ownHostNames(bindHost: string): string[] {
  const bare = bindHost.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === WILDCARD_V4) return ['localhost', '127.0.0.1'];
  if (WILDCARD_V6.includes(bare)) return ['localhost', '127.0.0.1', '[::1]'];
  if (bare === 'localhost') return ['localhost'];
  if (bare === '::1') return ['localhost', '[::1]'];
  if (bare === '127.0.0.1') return ['localhost', '127.0.0.1'];
  return [isIP(bare) === 6 ? `[${bare}]` : bare];
}

/**
 * Exactly the gateway's own origins — the scheme it serves (plain HTTP), the port it bound, and
 * the names that reach the bound address (`ownHostNames`) — plus `gateway.cors_origins`, plus
 * the origin a request arrives under: `http://<Host>` when the Host policy accepts that Host on
 * its own. A published or forwarded port (Docker's `-p 8080:7432`, an SSH tunnel) is such an
 * origin: the browser's page, scripts and sockets say `Origin: http://127.0.0.1:8080` with
 * `Host: 127.0.0.1:8080`. A page elsewhere cannot send an Origin equal to the Host it calls
 * unless it was served by that very address, and a rebinding name fails the Host policy.
 * Drives CORS for REST and the origin check of every WebSocket upgrade.
 */
export function createOriginPolicy(options: {
  /** The configured bind host. */
  host: string;
  /** The bound port; a function because port 0 is only known after listen. */
  port: () => number;
  extra: readonly string[];
  /** The Host policy that decides whether `http://<Host>` is an own origin. */
  hosts: HostPolicy;
}): OriginPolicy {
  const hosts = ownHostNames(options.host);
  const extras = options.extra.map((extra) => new URL(extra).origin);
  let cached: { port: number; origins: Set<string> } | undefined;
  const current = (): Set<string> => {
    const port = options.port();
    if (cached?.port !== port) {
      const origins = new Set(extras);
      for (const host of hosts) origins.add(`http://${host}:${port}`);
      cached = { port, origins };
    }
    return cached.origins;
  };
  return {
    get origins() {
      return [...current()];
    },
    isAllowed: (origin, host) => {
      let parsed: URL;
      try {
        parsed = new URL(origin);
      } catch {
        return false;
      }
      if (current().has(parsed.origin)) return true;
      return host !== undefined && options.hosts.isAllowed(host) && arrivesUnder(parsed, host);
    },
  };
}

/** Whether `origin` is exactly `http://<host>` (the port spelled out on both, or on neither). */
function arrivesUnder(origin: URL, host: string): boolean {
  if (origin.protocol !== 'http:' || origin.origin !== `${origin.protocol}//${origin.host}`)
    return false;
  try {
    return new URL(`http://${host.trim()}`).origin === origin.origin;
  } catch {
    return false;
  }
}

/**
 * CORS for REST: an allowed origin is echoed with credentials and the methods/headers Hearth
 * uses; a preflight is answered 204. A request from a foreign origin is refused with 403 before
 * any handler runs (browsers would hide the response anyway, but a simple cross-site POST
 * could otherwise still act). Requests without an Origin header (curl, the CLI) pass.
 */
export function cors(policy: OriginPolicy): RequestHandler {
  return function corsMiddleware(req, res, next) {
    const origin = req.get('origin');
    if (origin === undefined) return next();
    if (!policy.isAllowed(origin, req.headers.host))
      return next(new HearthError('forbidden', `Origin not allowed: ${origin}`));
    res.vary('Origin');
    res.set('Access-Control-Allow-Origin', origin);
    res.set('Access-Control-Allow-Credentials', 'true');
    if (req.method === 'OPTIONS') {
      res.set('Access-Control-Allow-Methods', 'GET,POST,PUT,PATCH,DELETE,OPTIONS');
      res.set(
        'Access-Control-Allow-Headers',
        req.get('access-control-request-headers') ?? 'Content-Type, X-API-Key',
      );
      res.set('Access-Control-Max-Age', '600');
      res.status(204).end();
      return;
    }
    next();
  };
}
