/**
 * A far end's HTTP body, counted as it streams. Past `maxBytes` the transfer is aborted (the
 * source is cancelled, which closes the connection) and reading fails with a
 * `BodyTooLargeError` naming the cap and what was being read; a declared `Content-Length` over
 * the cap fails before a byte is read. Nothing is buffered beyond the cap, so a far end that
 * answers without end (or a small compressed body that inflates without end: fetch's bytes are
 * counted after decoding) costs at most `maxBytes` of memory.
 */
import type { IncomingMessage } from 'node:http';

export class BodyTooLargeError extends Error {
  readonly maxBytes: number;
  constructor(what: string, maxBytes: number) {
    super(`${what} is larger than ${maxBytes} bytes: reading it was aborted`);
    this.name = 'BodyTooLargeError';
    this.maxBytes = maxBytes;
  }
}

export interface BodyCap {
  maxBytes: number;
  /** What is being read, for the error: `the Matrix /sync answer`. */
  what: string;
  /** Told each time a body goes over the cap (a counter). */
  onOver?: () => void;
}

/** Statuses whose responses have no body (a `Response` with one cannot be built). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** `response` with its body counted as it is read: over the cap, the read fails. */
export function capResponse(response: Response, cap: BodyCap): Response {
  const tooLarge = () => {
    cap.onOver?.();
    return new BodyTooLargeError(cap.what, cap.maxBytes);
  };
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > cap.maxBytes) {
    void response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body || NULL_BODY.has(response.status)) return response;
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  let total = 0;
  const counted = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        total += value.byteLength;
        if (total > cap.maxBytes) {
          const error = tooLarge();
          controller.error(error);
          await reader.cancel(error).catch(() => undefined);
          return;
        }
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
  const wrapped = new Response(counted, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // What a caller may still read of the original (a library checking where it ended up).
  Object.defineProperties(wrapped, {
    url: { value: response.url },
    redirected: { value: response.redirected },
  });
  return wrapped;
}

/** A fetch whose every response body is counted (see `capResponse`). */
export function cappedFetch(fetch: typeof globalThis.fetch, cap: BodyCap): typeof globalThis.fetch {
  return async (input, init) => capResponse(await fetch(input, init), cap);
}

/**
 * A node:http response read whole, counted as it streams: over the cap the response is
 * destroyed (its connection closed) and the promise rejects with a `BodyTooLargeError`.
 */
export function readIncomingCapped(response: IncomingMessage, cap: BodyCap): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(response.headers['content-length'] ?? Number.NaN);
    const chunks: Buffer[] = [];
    let total = 0;
    const over = () => {
      cap.onOver?.();
      const error = new BodyTooLargeError(cap.what, cap.maxBytes);
      response.destroy(error);
      reject(error);
    };
    if (declared > cap.maxBytes) return over();
    response.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > cap.maxBytes) {
        response.removeAllListeners('data');
        over();
        return;
      }
      chunks.push(chunk);
    });
    response.once('end', () => resolve(Buffer.concat(chunks, total)));
    response.once('error', reject);
    response.once('aborted', () => reject(new Error(`${cap.what} ended early`)));
  });
}
