import type { GatewayFetch, GatewayResponse } from './gateway-client.ts';

// Not ESM imports: filling node:http's ESM namespace runs its lazy getters (WebSocket,
// CloseEvent, MessageEvent), which load Node's whole fetch stack (undici), the very cost this
// module is here to avoid: ~30 % of `hearth status`'s CPU.
const { request: httpRequest } = process.getBuiltinModule('node:http');
const { request: httpsRequest } = process.getBuiltinModule('node:https');

/** The most of a response body kept (a gateway's answers are far smaller). */
const MAX_BODY = 16 * 1_048_576;

/**
 * The gateway client's HTTP over node:http(s). Node's fetch loads its whole HTTP stack on first
 * use, which costs a short command like `hearth status` more than the rest of its run; this
 * does the same request with the modules Node already has. Failures look like fetch's: a
 * TypeError whose cause carries the system error code, or the signal's reason on abort.
 */
export const httpFetch: GatewayFetch = (url, init) =>
  new Promise<GatewayResponse>((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const { signal } = init;
    /** Why `signal` aborted (a TimeoutError DOMException for AbortSignal.timeout). */
    const aborted = () =>
      signal?.reason instanceof Error
        ? signal.reason
        : new Error('aborted', { cause: signal?.reason });
    if (signal?.aborted) return reject(aborted());
    const fail = (error: unknown) =>
      reject(signal?.aborted ? aborted() : new TypeError('fetch failed', { cause: error }));
    const request = send(target, { method: init.method, headers: init.headers, signal }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY) request.destroy(new Error('the response is too large'));
        else chunks.push(chunk);
      });
      res.once('error', fail);
      res.once('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const status = res.statusCode ?? 0;
        resolve({
          ok: status >= 200 && status < 300,
          status,
          statusText: res.statusMessage ?? '',
          text: () => Promise.resolve(text),
          body: null,
          headers: {
            get: (name) => {
              const value = res.headers[name.toLowerCase()];
              return Array.isArray(value) ? value.join(', ') : (value ?? null);
            },
          },
        });
      });
    });
    request.once('error', fail);
    request.end(init.body);
  });
