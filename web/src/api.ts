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

/** One REST call under `/api/v1`, with the key when there is one; errors carry the `detail`. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const key = storedKey();
  const response = await fetch(`/api/v1${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(key ? { 'x-api-key': key } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401) onUnauthorized();
  if (response.status === 204) return undefined as T;
  const data = (await response.json().catch(() => ({}))) as { detail?: unknown };
  if (!response.ok) {
    throw new ApiError(
      response.status,
      typeof data.detail === 'string' ? data.detail : `HTTP ${response.status}`,
    );
  }
  return data as T;
}

/** A WebSocket to the gateway; `/ws` gets this browser's client id. The key rides as a subprotocol. */
export function openSocket(path: '/ws' | '/ws/canvas'): WebSocket {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const query = path === '/ws' ? `?client_id=${encodeURIComponent(clientId())}` : '';
  const key = storedKey();
  return new WebSocket(`${scheme}//${location.host}${path}${query}`, key ? [keyProtocol(key)] : []);
}
