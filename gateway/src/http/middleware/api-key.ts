import { timingSafeEqual, createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import { HearthError } from '../../errors.ts';

export interface ApiKeyOptions {
  /** The configured key; empty disables the check. */
  apiKey: string;
  /** Normalised paths that never need the key. */
  exempt?: readonly string[];
  /** Raw paths of pages that need no key (matched exactly by their owner). */
  isPublic?: (rawPath: string) => boolean;
}

const DEFAULT_EXEMPT = ['/health', '/ready', '/docs', '/redoc', '/openapi.json'];

/**
 * Exemptions are decided on the raw path, exactly: anything else needs the key (deny by
 * default), so no spelling of a path (case, double slashes, percent-encoding, `..`, a trailing
 * slash) can reach an /api handler without it.
 */
export function isExemptPath(rawPath: string, exempt: ReadonlySet<string>): boolean {
  if (exempt.has(rawPath)) return true;
  const isAsset = rawPath.startsWith('/docs/') || rawPath.startsWith('/redoc/');
  return isAsset && !/\.\.|%|\\|\/\//.test(rawPath);
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Constant-time check of a presented key against the configured one (over SHA-256 digests). */
export function keyMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * `keyMatches` against a fixed key whose digest is taken once, not on every request (the
 * middlewares check each request against the one configured key).
 */
export function keyMatcher(expected: string): (given: string | undefined) => boolean {
  const expectedDigest = digest(expected);
  return (given) => given !== undefined && timingSafeEqual(digest(given), expectedDigest);
}

/**
 * When an API key is configured, every request except the exempt root paths (health,
 * readiness, docs) must carry `X-API-Key` with that value, compared in constant time over
 * SHA-256 digests so the key's length does not leak either.
 */
export function apiKeyAuth(options: ApiKeyOptions): RequestHandler {
  const exempt = new Set(options.exempt ?? DEFAULT_EXEMPT);
  const matches = keyMatcher(options.apiKey);
  return function apiKeyAuthMiddleware(req, _res, next) {
    if (options.apiKey === '') return next();
    if (isExemptPath(req.path, exempt) || options.isPublic?.(req.path)) return next();
    if (matches(req.get('x-api-key'))) return next();
    next(new HearthError('unauthorized', 'Missing or invalid X-API-Key header'));
  };
}
