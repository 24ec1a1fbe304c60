import type { RequestHandler } from 'express';
import { HearthError } from '../../errors.ts';

export interface OriginPolicy {
  isAllowed(origin: string): boolean;
  readonly origins: readonly string[];
}

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The gateway's own origins (http and https, in `localhost`, `127.0.0.1` and `[::1]` forms on
 * its port, plus the bound host when it is not a wildcard) and the configured extras. Drives
 * CORS for REST and the origin check of every WebSocket upgrade.
 */
export function createOriginPolicy(options: {
  host: string;
  /** The bound port; a function because port 0 is only known after listen. */
  port: () => number;
  extra: readonly string[];
}): OriginPolicy {
  const hosts = new Set(LOOPBACK_HOSTS);
  if (!['0.0.0.0', '::', '[::]'].includes(options.host)) {
    hosts.add(
      options.host.includes(':') && !options.host.startsWith('[')
        ? `[${options.host}]`
        : options.host,
    );
  }
  const extras = options.extra.map((extra) => new URL(extra).origin);
  let cached: { port: number; origins: Set<string> } | undefined;
  const current = (): Set<string> => {
    const port = options.port();
    if (cached?.port !== port) {
      const origins = new Set(extras);
      for (const host of hosts) {
        for (const scheme of ['http', 'https']) origins.add(`${scheme}://${host}:${port}`);
      }
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
