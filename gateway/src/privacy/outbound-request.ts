import { defaultPort, normaliseHostname, type EgressTarget } from './local-hosts.ts';

// Not an ESM import: filling node:http's ESM namespace runs its lazy getters, which load undici
// at start-up (lifecycle/serve-areas.ts says why that is avoided).
const { ClientRequest } = process.getBuiltinModule('node:http');

/** An outbound request as read from a diagnostics-channel message: never headers or bodies. */
export interface OutboundRequest {
  /** The client's request (or stream) object, to record a request announced twice only once. */
  source: object;
  method: string;
  url: URL;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

const absoluteUrl = /^[a-z][a-z0-9+.-]*:\/\//i;

function parse(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/**
 * `undici:request:create` (global fetch and the undici package): `{ request }` with `origin`
 * (string or URL), `method` and `path`.
 */
export function fromUndiciMessage(message: unknown): OutboundRequest | null {
  if (!isRecord(message) || !isRecord(message.request)) return null;
  const source = message.request;
  const { origin, method, path } = source;
  if (typeof method !== 'string' || typeof path !== 'string') return null;
  const base =
    origin instanceof URL ? origin.origin : typeof origin === 'string' ? origin : undefined;
  if (base === undefined) return null;
  const url = parse(absoluteUrl.test(path) ? path : `${base.replace(/\/+$/, '')}${path}`);
  return url && { source, method, url };
}

/**
 * node:http and node:https: `http.client.request.created` (published by the ClientRequest
 * constructor; Node 24 has it, older releases may not) and `http.client.request.start`
 * (published once the request is ended; every supported release), both `{ request }`, an
 * `http.ClientRequest` with `method`, `host`, `path` and `protocol`. The port is no public
 * field: it is read from the Host header Node derives from the options (`host:port` when the
 * port is not the default) if that header names the same host; the header itself is never
 * stored. Requests over a Unix socket (`socketPath`) stay on this machine and yield null.
 */
export function fromHttpClientMessage(message: unknown): OutboundRequest | null {
  if (!isRecord(message) || !(message.request instanceof ClientRequest)) return null;
  const request = message.request;
  if (Reflect.get(request, 'socketPath')) return null;
  if (absoluteUrl.test(request.path)) {
    // A plain-HTTP proxy request: the path is the real target.
    const url = parse(request.path);
    return url && { source: request, method: request.method, url };
  }
  const hostname = request.host.includes(':') ? `[${request.host}]` : request.host;
  const header = request.getHeader('host');
  const authority =
    typeof header === 'string' && sameHost(header, request.host) ? header : hostname;
  const url = parse(`${request.protocol}//${authority}${request.path}`);
  return url && { source: request, method: request.method, url };
}

function sameHost(hostHeader: string, host: string): boolean {
  const url = parse(`http://${hostHeader}`);
  return url !== null && normaliseHostname(url.hostname) === normaliseHostname(host);
}

/**
 * `http2.client.stream.created` (node:http2): `{ stream, headers }`; only the pseudo-headers
 * `:method`, `:scheme`, `:authority` and `:path` are read.
 */
export function fromHttp2Message(message: unknown): OutboundRequest | null {
  if (!isRecord(message) || !isRecord(message.stream) || !isRecord(message.headers)) return null;
  const { stream: source, headers } = message;
  const method = headers[':method'] ?? 'GET';
  const scheme = headers[':scheme'] ?? 'https';
  const authority = headers[':authority'];
  const path = headers[':path'] ?? '/';
  if (typeof method !== 'string' || typeof scheme !== 'string') return null;
  if (typeof authority !== 'string' || typeof path !== 'string') return null;
  const url = parse(`${scheme}://${authority}${path}`);
  return url && { source, method, url };
}

export function targetOf(url: URL): EgressTarget {
  return {
    hostname: normaliseHostname(url.hostname),
    port: url.port === '' ? (defaultPort(url.protocol) ?? 0) : Number(url.port),
  };
}
