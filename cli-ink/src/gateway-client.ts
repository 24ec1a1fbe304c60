import { errorMessage } from './cli-error.ts';
import { keyProtocol } from './socket-key.ts';

/** What the client needs of a response: fetch's Response has it, and so has http-fetch.ts. */
export interface GatewayResponse {
  ok: boolean;
  status: number;
  statusText: string;
  text(): Promise<string>;
  body?: { cancel(): Promise<void> } | null;
  /** Response headers (only `Retry-After` is read). */
  headers?: { get(name: string): string | null };
}

/** The HTTP call the client makes: fetch, or http-fetch.ts (quicker to load). */
export type GatewayFetch = (
  url: string,
  init: {
    method: string;
    headers: Record<string, string>;
    body?: string;
    signal?: AbortSignal;
  },
) => Promise<GatewayResponse>;

export interface GatewayClientOptions {
  baseUrl: string;
  /** Read when a request is made; undefined or '' sends no X-API-Key header. */
  apiKey?: () => Promise<string | undefined>;
  fetch?: GatewayFetch;
  timeoutMs?: number;
}

/** Nothing answered at the URL (connection refused, DNS failure, timeout). */
export class GatewayUnreachableError extends Error {
  readonly url: string;

  constructor(url: string, cause: unknown) {
    super(`no gateway answering at ${url} (${describeFailure(cause)})`, { cause });
    this.name = 'GatewayUnreachableError';
    this.url = url;
  }
}

/** The gateway answered with an error status; `detail` is the server's message. */
export class GatewayHttpError extends Error {
  readonly status: number;
  readonly detail: string;

  constructor(method: string, path: string, status: number, detail: string) {
    super(`${method} ${path} failed with ${status}: ${detail}`);
    this.name = 'GatewayHttpError';
    this.status = status;
    this.detail = detail;
  }
}

export interface GatewayClient {
  readonly baseUrl: string;
  /** GET a JSON document from the REST API; throws GatewayUnreachableError or GatewayHttpError. */
  getJson(path: string): Promise<unknown>;
  /**
   * POST/PATCH/DELETE with an optional JSON body; same errors as getJson. `options.timeoutMs`
   * null waits as long as the gateway takes (a tool call waiting for an approval); `signal`
   * abandons the request.
   */
  sendJson(
    method: 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    options?: RequestOptions,
  ): Promise<unknown>;
  /** True when GET /ready answers 200; false for 503 or when nothing answers. */
  isReady(): Promise<boolean>;
  /** True when anything answers GET /health. */
  isAnswering(): Promise<boolean>;
  /** The subprotocols a WebSocket to the gateway offers: the key's, when one is configured. */
  socketProtocols(): Promise<string[]>;
}

export interface RequestOptions {
  timeoutMs?: number | null;
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 5_000;
const PROBE_TIMEOUT_MS = 1_000;

/** A small REST client for a running gateway. */
export function createGatewayClient(options: GatewayClientOptions): GatewayClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  async function request(
    path: string,
    init: {
      timeoutMs: number | null;
      withKey: boolean;
      method?: string;
      body?: unknown;
      signal?: AbortSignal;
    },
  ): Promise<GatewayResponse> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const key = init.withKey ? await options.apiKey?.() : undefined;
    if (key) headers['x-api-key'] = key;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const signals = [
      ...(init.timeoutMs === null ? [] : [AbortSignal.timeout(init.timeoutMs)]),
      ...(init.signal ? [init.signal] : []),
    ];
    try {
      return await doFetch(`${baseUrl}${path}`, {
        method: init.method ?? 'GET',
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: signals.length === 0 ? undefined : AbortSignal.any(signals),
      });
    } catch (error) {
      throw new GatewayUnreachableError(baseUrl, error);
    }
  }

  async function probe(path: string): Promise<GatewayResponse | undefined> {
    try {
      const response = await request(path, { timeoutMs: PROBE_TIMEOUT_MS, withKey: false });
      await response.body?.cancel();
      return response;
    } catch (error) {
      if (error instanceof GatewayUnreachableError) return undefined;
      throw error;
    }
  }

  /**
   * A GET, asked again while the gateway answers 503 with `Retry-After` (it is starting: the
   * whole process while it loads, or the part the path needs) and the wait still fits the
   * request's time.
   */
  async function getWaitingForStart(path: string): Promise<GatewayResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const response = await request(path, {
        timeoutMs: Math.max(1, deadline - Date.now()),
        withKey: true,
      });
      const waitMs = retryAfterMs(response);
      if (waitMs === undefined || Date.now() + waitMs >= deadline) return response;
      await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }

  return {
    baseUrl,
    async getJson(path) {
      const response = await getWaitingForStart(path);
      const text = await response.text();
      if (!response.ok)
        throw new GatewayHttpError('GET', path, response.status, detailOf(text, response));
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new GatewayHttpError('GET', path, response.status, 'the response is not JSON');
      }
    },
    async sendJson(method, path, body, options = {}) {
      const response = await request(path, {
        timeoutMs: options.timeoutMs === undefined ? timeoutMs : options.timeoutMs,
        withKey: true,
        method,
        body,
        signal: options.signal,
      });
      const text = await response.text();
      if (!response.ok)
        throw new GatewayHttpError(method, path, response.status, detailOf(text, response));
      return text === '' ? undefined : (JSON.parse(text) as unknown);
    },
    async isReady() {
      return (await probe('/ready'))?.status === 200;
    },
    async isAnswering() {
      return (await probe('/health')) !== undefined;
    },
    async socketProtocols() {
      const key = await options.apiKey?.();
      return key ? [keyProtocol(key)] : [];
    },
  };
}

/** How long a 503's `Retry-After` (seconds) asks to wait; undefined for anything else. */
function retryAfterMs(response: GatewayResponse): number | undefined {
  if (response.status !== 503) return undefined;
  const value = response.headers?.get('retry-after');
  if (value === null || value === undefined || !/^\d{1,4}$/.test(value.trim())) return undefined;
  return Number(value.trim()) * 1_000;
}

/** The server's `{detail}` when the body has one, else the status text. */
function detailOf(text: string, response: GatewayResponse): string {
  try {
    const body = JSON.parse(text) as unknown;
    if (body && typeof body === 'object' && 'detail' in body && typeof body.detail === 'string') {
      return body.detail;
    }
  } catch {
    // not JSON: fall through
  }
  return response.statusText || 'no detail';
}

function describeFailure(error: unknown): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return 'timed out';
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause && typeof cause === 'object' && 'code' in cause && typeof cause.code === 'string')
    return cause.code;
  return errorMessage(error);
}
