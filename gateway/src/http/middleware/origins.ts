import type { RequestHandler } from 'express';
import { isIP } from 'node:net';
import { HearthError } from '../../errors.ts';

export interface OriginPolicy {
  isAllowed(origin: string): boolean;
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
 * the names that reach the bound address (`ownHostNames`) — plus `gateway.cors_origins`.
 * Drives CORS for REST and the origin check of every WebSocket upgrade.
 */
export function createOriginPolicy(options: {
  /** The configured bind host. */
  host: string;
  /** The bound port; a function because port 0 is only known after listen. */
  port: () => number;
  extra: readonly string[];
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
    isAllowed: (origin) => {
      try {
        return current().has(new URL(origin).origin);
      } catch {
        return false;
      }
    },
  };
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
    if (!policy.isAllowed(origin))
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
