/**
 * The skill-host sidecar's address: `http(s)://host:port` or `unix:/path/to/sandbox.sock` (the
 * compose stack's skill-host service, which has no network and listens only on a socket in a
 * volume it shares with the gateway). Gives the WebSocket URL of `GET /skills/host` and reads
 * `GET /health` over either.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

const UNIX = /^unix:(\/\S+)$/;

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
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= 64 * 1024) chunks.push(chunk);
      });
      res.on('error', reject);
      res.on('end', () => {
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
          if (typeof body !== 'object' || body === null) throw new Error('not a JSON object');
          resolve(body as Record<string, unknown>);
        } catch {
          reject(new Error(`the sidecar's /health answered HTTP ${res.statusCode}, not JSON`));
        }
      });
    });
    req.end();
  });
}
