/**
 * The skill-host sidecar's address: `http(s)://host:port` or `unix:/path/to/sandbox.sock` (the
 * compose stack's skill-host service, which has no network and listens only on a socket in a
 * volume it shares with the gateway). Gives the WebSocket URL of `GET /skills/host` and reads
 * `GET /health` over either.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { readIncomingCapped } from '../../http/outbound/capped-body.ts';

const UNIX = /^unix:(\/\S+)$/;
/** The most of a `/health` answer read: it is a few hundred bytes. */
const MAX_HEALTH_BYTES = 64 * 1024;

/** The socket path of a `unix:` address, else null. */
export function unixSocketPath(base: string): string | null {
  return UNIX.exec(base)?.[1] ?? null;
}

/** `http(s)://host:port/…` → `ws(s)://host:port/skills/host`; `unix:/p` → `ws+unix:///p:/skills/host`. */
export function skillHostUrl(base: string): string {
  const socket = unixSocketPath(base);
  if (socket !== null) return `ws+unix://${socket}:/skills/host`;
  const url = new URL(base);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/skills/host`;
  url.search = '';
  return url.href;
}

/** `GET /health` of the sidecar: its JSON body (any status), or a rejection saying why not. */
export function sidecarHealth(
  base: string,
  headers: Record<string, string>,
  timeoutMs = 5_000,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const socketPath = unixSocketPath(base);
    const target = socketPath === null ? new URL('health', base.replace(/\/?$/, '/')) : null;
    const options = {
      method: 'GET',
      headers,
      timeout: timeoutMs,
      ...(socketPath !== null ? { socketPath, path: '/health' } : {}),
    };
    const req =
      target === null
        ? httpRequest(options)
        : (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, options);
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.on('response', (res) => {
      readIncomingCapped(res, { maxBytes: MAX_HEALTH_BYTES, what: "the sidecar's /health answer" })
        .then((bytes) => {
          let body: unknown;
          try {
            body = JSON.parse(bytes.toString('utf8')) as unknown;
          } catch {
            body = null;
          }
          if (typeof body !== 'object' || body === null)
            throw new Error(`the sidecar's /health answered HTTP ${res.statusCode}, not JSON`);
          resolve(body as Record<string, unknown>);
        })
        .catch(reject);
    });
    req.end();
  });
}
