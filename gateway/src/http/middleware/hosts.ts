import type { RequestHandler } from 'express';
import { isIP } from 'node:net';
import { HearthError } from '../../errors.ts';
import { keyMatcher } from './api-key.ts';

export interface HostPolicy {
  /** Whether a request's raw `Host` header names the gateway. */
  isAllowed(host: string | undefined): boolean;
}

/** `name[:port]` or `[v6][:port]`; nothing that a URL parser could read differently (`@`, `/`…). */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(:\d{1,5})?$/i;

/** How many distinct `Host` values a policy remembers its verdict on. */
const MAX_KEPT_VERDICTS = 256;

/** The bare, lower-case name of a `Host` value or URL host, without brackets or a final dot. */
function bareName(host: string): string {
  return host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/**
 * DNS rebinding defence: a browser that was pointed at 127.0.0.1 under a foreign name still
 * sends that name in `Host`. Allowed are `localhost` and `*.localhost` (they never leave the
 * machine), IP literals (a page cannot get a literal to rebind), the configured bind host, the
 * hosts of `gateway.cors_origins`, and `gateway.allowed_hosts` (a reverse proxy's public name).
 */
export function createHostPolicy(options: {
  bindHost: string;
  corsOrigins: readonly string[];
  allowedHosts: readonly string[];
}): HostPolicy {
  const names = new Set(
    [
      options.bindHost,
      ...options.corsOrigins.map((origin) => new URL(origin).hostname),
      ...options.allowedHosts,
    ].map(bareName),
  );
  const decide = (host: string): boolean => {
    const match = HOST_HEADER.exec(host.trim());
    if (!match) return false;
    const name = bareName(match[1] ?? '');
    return (
      name === 'localhost' || name.endsWith('.localhost') || isIP(name) !== 0 || names.has(name)
    );
  };
  // The policy never changes and clients send the same few Host values, so each verdict is
  // kept; a bounded number, as the header is the client's to choose.
  const verdicts = new Map<string, boolean>();
  return {
    isAllowed(host) {
      if (host === undefined) return false;
      let verdict = verdicts.get(host);
      if (verdict === undefined) {
        verdict = decide(host);
        if (verdicts.size < MAX_KEPT_VERDICTS) verdicts.set(host, verdict);
      }
      return verdict;
    },
  };
}

/** The 403 detail for a refused `Host`, naming the setting that would allow it. */
export function hostNotAllowedDetail(host: string | undefined): string {
  const shown = host === undefined ? '(none)' : JSON.stringify(host.slice(0, 100));
  return (
    `Host ${shown} is not a name this gateway serves; if a reverse proxy forwards it, add it ` +
    'to gateway.allowed_hosts in config.toml'
  );
}

/**
 * The `Host` rule of every request, decided on its path, `Host` and `X-API-Key` (read only when
 * needed): `/health`
 * passes by any name (probes), anything else needs an allowed `Host` or the valid API key.
 * The gateway's middleware and the early listener (lifecycle/early-listener.ts) both apply it.
 */
export function hostGate(options: {
  policy: HostPolicy;
  apiKey: string;
}): (path: string, host: string | undefined, key: () => string | undefined) => boolean {
  const matches = keyMatcher(options.apiKey);
  return (path, host, key) =>
    path === '/health' ||
    options.policy.isAllowed(host) ||
    (options.apiKey !== '' && matches(key()));
}

/**
 * Checks `Host` before any routing, on every request except `GET /health` (probes by any name).
 * A request carrying the valid API key passes with any `Host`.
 */
export function hostCheck(options: { policy: HostPolicy; apiKey: string }): RequestHandler {
  const passes = hostGate(options);
  return function hostCheckMiddleware(req, _res, next) {
    const host = req.headers.host;
    if (passes(req.path, host, () => req.get('x-api-key'))) return next();
    next(new HearthError('forbidden', hostNotAllowedDetail(host)));
  };
}
