import type { Agent as HttpAgent, ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import type * as Http from 'node:http';
import type * as Https from 'node:https';
import type { Readable } from 'node:stream';

/**
 * The gateway's outbound `fetch` (providers, live checks): the Fetch API over node:http's
 * keep-alive agents. A provider call is the gateway's most frequent request, and Node's own
 * fetch (undici's, with its request and response objects, header guards and WebAssembly HTTP
 * parser) spends about twice node:http's CPU on one (`npm run bench:chat`).
 *
 * What it takes: a string or URL, `http:` or `https:`, a body that is absent, a string or bytes.
 * Everything else goes to the `fallback` (Node's fetch) unchanged: Request objects, FormData,
 * Blob and stream bodies, other schemes, `redirect: 'error'`, and any request while a proxy is
 * set in the environment. A redirect's request (made as the Fetch standard makes it) goes to the
 * fallback, which follows any further ones; `redirect: 'manual'` returns the 3xx.
 * As with Node's fetch: a failure to connect or a broken response rejects with
 * `TypeError('fetch failed')` whose `cause` is the socket's error; an abort rejects with the
 * signal's reason; gzip, deflate and br bodies are decoded; a request whose connection is idle
 * for `idleTimeoutMs` (300 s, undici's headers and body timeouts) fails.
 */
export interface NodeHttpFetchOptions {
  fallback: typeof globalThis.fetch;
  /** The process environment, read for proxy variables. */
  env: Readonly<Record<string, string | undefined>>;
  idleTimeoutMs?: number;
  /** Trusted roots in place of the system's (tests' throwaway server). */
  ca?: string;
}

export interface NodeHttpFetch {
  fetch: typeof globalThis.fetch;
  /** Closes the idle keep-alive connections (requests in flight finish). */
  close(): void;
}

type Fetch = typeof globalThis.fetch;
type Scheme = 'http:' | 'https:';
const isScheme = (protocol: string): protocol is Scheme =>
  protocol === 'http:' || protocol === 'https:';
interface Transport {
  request: typeof Http.request;
  agent: HttpAgent;
}
const transportOf = (module: typeof Http | typeof Https, ca?: string): Transport => ({
  request: module.request,
  agent: new module.Agent({ keepAlive: true, ...(ca === undefined ? {} : { ca }) }),
});

const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy'];
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Statuses whose response has no body, whatever the server sends. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

export function createNodeHttpFetch(options: NodeHttpFetchOptions): NodeHttpFetch {
  const { fallback } = options;
  const proxied = PROXY_VARIABLES.some((name) => Boolean(options.env[name]));
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  // Each taken on first use: node:https loads TLS, which a gateway on a local model never needs.
  const transports: Partial<Record<Scheme, Transport>> = {};
  const transport = (scheme: Scheme): Transport => {
    const found = transports[scheme];
    if (found) return found;
    const made =
      scheme === 'https:'
        ? transportOf(process.getBuiltinModule('node:https'), options.ca)
        : transportOf(process.getBuiltinModule('node:http'));
    transports[scheme] = made;
    return made;
  };

  const fetch: Fetch = (input, init) => {
    const url = typeof input === 'string' || input instanceof URL ? toUrl(input) : undefined;
    if (proxied || url === undefined || !isScheme(url.protocol) || init?.redirect === 'error')
      return fallback(input, init);
    const body = init?.body;
    const bodyBytes =
      body === undefined || body === null
        ? undefined
        : typeof body === 'string'
          ? // Encoded once: its length and what is written (a JSON body holding one character
            // past Latin-1 is a two-byte string, and each encoding of it costs ~20 µs per 30 KB).
            Buffer.from(body, 'utf8')
          : ArrayBuffer.isView(body)
            ? new Uint8Array(body.buffer, body.byteOffset, body.byteLength)
            : body instanceof ArrayBuffer
              ? new Uint8Array(body)
              : null;
    if (bodyBytes === null) return fallback(input, init);
    const sending = { bytes: bodyBytes, text: typeof body === 'string' };
    return send(transport(url.protocol), url, init ?? {}, sending, idleTimeoutMs).then((sent) => {
      if (sent.kind === 'response') return sent.response;
      // A redirect to follow: its request goes to the fallback, which follows any further ones.
      const to = toUrl(sent.location, url);
      if (to === undefined || !isScheme(to.protocol))
        throw new TypeError('fetch failed', {
          cause: new Error(`a redirect to ${sent.location}, which is no http(s) URL`),
        });
      return fallback(to, redirectedInit(url, to, sent.status, init ?? {})).then((response) =>
        Object.defineProperty(response, 'redirected', { value: true }),
      );
    });
  };

  return {
    fetch,
    close: () => {
      for (const made of Object.values(transports)) made.agent.destroy();
    },
  };
}

function toUrl(input: string | URL, base?: URL): URL | undefined {
  try {
    return new URL(input, base);
  } catch {
    return undefined;
  }
}

type Sent =
  { kind: 'response'; response: Response } | { kind: 'redirect'; status: number; location: string };

/** Request headers the Fetch standard drops when a redirect leaves the origin. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
/** Headers of a body, dropped when a redirect turns the request into a GET. */
const BODY_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-location',
];

/**
 * The request a redirect asks for, as the Fetch standard makes it: a 303 (but after HEAD), or a
 * 301/302 after a POST, becomes a GET without the body; the credentials stay behind when it
 * leaves the origin. The request answered with the redirect is never sent again.
 */
function redirectedInit(from: URL, to: URL, status: number, init: RequestInit): RequestInit {
  const method = (init.method ?? 'GET').toUpperCase();
  const headers = givenHeaders(init.headers);
  const toGet =
    (status === 303 && method !== 'GET' && method !== 'HEAD') ||
    ((status === 301 || status === 302) && method === 'POST');
  if (toGet) for (const name of BODY_HEADERS) delete headers[name];
  if (to.origin !== from.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
  return toGet ? { ...init, method: 'GET', body: null, headers } : { ...init, headers };
}

function send(
  transport: Transport,
  url: URL,
  init: RequestInit,
  body: { bytes: Uint8Array | undefined; text: boolean },
  idleTimeoutMs: number,
): Promise<Sent> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  const method = (init.method ?? 'GET').toUpperCase();
  const headers = requestHeaders(init.headers, body);
  const requestOptions: RequestOptions = {
    method,
    headers,
    agent: transport.agent,
    timeout: idleTimeoutMs,
  };

  return new Promise<Sent>((resolve, reject) => {
    let settled = false;
    let response: IncomingMessage | undefined;
    let fail = (error: Error) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    const onAbort = () => {
      const reason = abortReason(signal as AbortSignal);
      fail(reason);
      request.destroy(reason);
      response?.destroy(reason);
    };
    const request: ClientRequest = transport.request(url, requestOptions, (incoming) => {
      response = incoming;
      const status = incoming.statusCode ?? 0;
      const location = incoming.headers.location;
      if (REDIRECTS.has(status) && init.redirect !== 'manual' && location) {
        incoming.resume();
        signal?.removeEventListener('abort', onAbort);
        settled = true;
        resolve({ kind: 'redirect', status, location });
        return;
      }
      settled = true;
      // From here a failure errors the body, not the promise.
      fail = () => undefined;
      resolve({
        kind: 'response',
        response: toResponse(incoming, url, method, signal, onAbort),
      });
    });
    request.on('timeout', () =>
      request.destroy(new Error(`No data from ${url.host} in ${idleTimeoutMs} ms`)),
    );
    request.on('error', (error) => fail(new TypeError('fetch failed', { cause: error })));
    signal?.addEventListener('abort', onAbort, { once: true });
    request.end(body.bytes);
  });
}

/** The caller's headers, names in lower case, repeated names joined, unset values left out. */
function givenHeaders(given: RequestInit['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  if (given !== undefined) {
    const entries: Iterable<[string, string | undefined]> =
      given instanceof Headers
        ? given.entries()
        : Array.isArray(given)
          ? given
          : Object.entries(given);
    for (const [name, value] of entries) {
      if (value === undefined || value === null) continue;
      const key = name.toLowerCase();
      headers[key] = key in headers ? `${headers[key]}, ${value}` : String(value);
    }
  }
  return headers;
}

function requestHeaders(
  given: RequestInit['headers'],
  body: { bytes: Uint8Array | undefined; text: boolean },
): Record<string, string> {
  const headers = givenHeaders(given);
  headers.accept ??= '*/*';
  headers['accept-encoding'] ??= 'gzip, deflate, br';
  if (body.bytes !== undefined) {
    headers['content-length'] = String(body.bytes.byteLength);
    if (body.text) headers['content-type'] ??= 'text/plain;charset=UTF-8';
  }
  return headers;
}

function toResponse(
  incoming: IncomingMessage,
  url: URL,
  method: string,
  signal: AbortSignal | undefined,
  onAbort: () => void,
): Response {
  const status = incoming.statusCode ?? 0;
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2)
    headers.append(raw[index] as string, raw[index + 1] as string);
  const detach = () => signal?.removeEventListener('abort', onAbort);
  let body: ReadableStream<Uint8Array> | null = null;
  if (method === 'HEAD' || NULL_BODY.has(status)) {
    incoming.resume();
    incoming.once('end', detach);
  } else
    body = readableOf(decoded(incoming, headers), detach, (error) =>
      // An abort errors the body with the signal's reason, as Node's fetch does.
      signal?.aborted ? abortReason(signal) : new TypeError('terminated', { cause: error }),
    );
  const response = new Response(body, {
    status,
    statusText: incoming.statusMessage ?? '',
    headers,
  });
  Object.defineProperty(response, 'url', { value: url.href });
  return response;
}

/** The body as sent, or decoded when the server compressed it (what Node's fetch does). */
function decoded(incoming: IncomingMessage, headers: Headers): Readable {
  const coding = headers.get('content-encoding')?.trim().toLowerCase();
  if (coding === undefined || coding === 'identity') return incoming;
  const zlib = process.getBuiltinModule('node:zlib');
  const decoder =
    coding === 'gzip' || coding === 'x-gzip'
      ? zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH })
      : coding === 'deflate'
        ? zlib.createInflate({ flush: zlib.constants.Z_SYNC_FLUSH })
        : coding === 'br'
          ? zlib.createBrotliDecompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH })
          : undefined;
  if (!decoder) return incoming;
  headers.delete('content-encoding');
  headers.delete('content-length');
  incoming.on('error', (error) => decoder.destroy(error));
  incoming.on('aborted', () => decoder.destroy(new Error('The response was cut short')));
  return incoming.pipe(decoder);
}

/** A web stream over a Node stream that reads only as fast as its reader asks. */
function readableOf(
  source: Readable,
  done: () => void,
  errorOf: (error: Error) => Error,
): ReadableStream<Uint8Array> {
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    done();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        source.on('data', (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) source.pause();
        });
        source.once('end', () => {
          finish();
          controller.close();
        });
        source.once('error', (error) => {
          finish();
          controller.error(errorOf(error));
        });
        source.once('close', () => {
          if (source.readableEnded || finished) return;
          finish();
          controller.error(errorOf(new Error('other side closed')));
        });
      },
      pull() {
        source.resume();
      },
      cancel(reason) {
        finish();
        source.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    { highWaterMark: 16 },
  );
}

/** The signal's reason as given (an Error unless the caller aborted with something else). */
function abortReason(signal: AbortSignal): Error {
  return (signal.reason ?? new DOMException('This operation was aborted', 'AbortError')) as Error;
}
