import type { ApiBody, ApiMethod, ApiParams, ApiPath, ApiQuery, ApiResponse } from '@hearth/client';
import { clientId, keyProtocol, storedKey } from './session.ts';

export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, detail: string) {
    super(detail);
    this.status = status;
  }
}

/** Told when the gateway answers 401: the page then asks for the key. */
let onUnauthorized: () => void = () => undefined;
export function whenUnauthorized(listener: () => void): void {
  onUnauthorized = listener;
}

/** What a call fills in: the path's `{parameters}`, the query string, the JSON body. */
export interface ApiRequest<P extends ApiPath, M extends ApiMethod<P>> {
  params?: ApiParams<P, M>;
  query?: ApiQuery<P, M>;
  body?: ApiBody<P, M>;
}

/**
 * One REST call under `/api/v1`, typed by the gateway's OpenAPI document (`@hearth/client`),
 * with the key when there is one; errors carry the `detail`.
 */
export async function api<P extends ApiPath, M extends ApiMethod<P>>(
  method: M,
  path: P,
  request: ApiRequest<P, M> = {},
): Promise<ApiResponse<P, M>> {
  const { body } = request;
  const key = storedKey();
  const response = await fetch(`/api/v1${url(path, request)}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(key ? { 'x-api-key': key } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401) onUnauthorized();
  if (response.status === 204) return undefined as ApiResponse<P, M>;
  const data = (await response.json().catch(() => ({}))) as { detail?: unknown };
  if (!response.ok) {
    throw new ApiError(
      response.status,
      typeof data.detail === 'string' ? data.detail : `HTTP ${response.status}`,
    );
  }
  return data as ApiResponse<P, M>;
}

/** The path with its `{parameters}` filled in and the query string, each value encoded. */
function url(path: string, request: { params?: unknown; query?: unknown }): string {
  const params = (request.params ?? {}) as Record<string, string | number>;
  const filled = path.replace(/\{(\w+)\}/g, (_match, name: string) =>
    encodeURIComponent(String(params[name])),
  );
  const query = Object.entries((request.query ?? {}) as Record<string, unknown>)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`);
  return query.length === 0 ? filled : `${filled}?${query.join('&')}`;
}

/**
 * A WebSocket to the gateway; `/ws` and `/ws/voice` get this browser's client id (one session,
 * one memory), and `/ws` asks for the tool, approval-outcome and memory frames
 * (`events=tools,session`). The key rides as a subprotocol.
 */
export function openSocket(path: '/ws' | '/ws/canvas' | '/ws/voice'): WebSocket {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const id = `client_id=${encodeURIComponent(clientId())}`;
  const query =
    path === '/ws' ? `?${id}&events=tools,session` : path === '/ws/voice' ? `?${id}` : '';
  const key = storedKey();
  return new WebSocket(`${scheme}//${location.host}${path}${query}`, key ? [keyProtocol(key)] : []);
}
