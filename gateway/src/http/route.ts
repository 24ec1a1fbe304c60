import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

type Empty = z.ZodObject<Record<string, never>>;

export interface RouteInput<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  headers: IncomingHttpHeaders;
  /** A `webhook` route's body exactly as received (empty when there was none). */
  rawBody?: Buffer;
}

/**
 * A signed webhook from a third party: it authenticates its caller itself (a signature over the
 * raw body), so it needs no X-API-Key — the Host check still applies — and its body reaches the
 * handler unparsed (`rawBody`), at most `limitBytes`, to be verified before anything parses it.
 */
export interface WebhookOptions {
  limitBytes: number;
}

/**
 * One HTTP operation: its path (OpenAPI style, `{id}` for parameters), the zod schemas of its
 * request and response, and a handler that knows nothing of HTTP. The same definition drives
 * Express routing, request validation (422 naming the field), response validation, and the
 * OpenAPI document.
 */
export interface RouteDefinition<
  P extends z.ZodType = Empty,
  Q extends z.ZodType = Empty,
  B extends z.ZodType = Empty,
  R extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  path: string;
  summary: string;
  tags?: string[];
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  /** Success status; 200 unless stated. A function picks it from the result (e.g. /ready's 503). */
  status?: number | ((result: z.output<R>) => number);
  /** `text/plain` responses send the handler's string as is (for example Prometheus text). */
  contentType?: 'application/json' | 'text/plain';
  webhook?: WebhookOptions;
  handler: (input: RouteInput<P, Q, B>) => Promise<z.input<R>> | z.input<R>;
}

/** A route definition with its generic types erased, as stored in a route table. */
export interface AnyRoute {
  method: HttpMethod;
  path: string;
  summary: string;
  tags?: string[];
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  status?: number | ((result: never) => number);
  contentType?: 'application/json' | 'text/plain';
  webhook?: WebhookOptions;
  handler: (input: RouteInput<z.ZodType, z.ZodType, z.ZodType>) => unknown;
}

export function defineRoute<
  P extends z.ZodType = Empty,
  Q extends z.ZodType = Empty,
  B extends z.ZodType = Empty,
  R extends z.ZodType = z.ZodType,
>(definition: RouteDefinition<P, Q, B, R>): AnyRoute {
  return definition;
}

/** `/memory/entries/{id}` → `/memory/entries/:id` (Express path syntax). */
export function toExpressPath(path: string): string {
  return path.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, ':$1');
}
