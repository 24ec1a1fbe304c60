import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/** An answer (or one SSE event) of an external server that went over the size cap. */
export class OverLimitError extends Error {
  override readonly name = 'OverLimitError';
}

const LF = 10;
const CR = 13;

/** Counts bytes since the last blank line (an SSE event's end); the text when over `max`. */
function eventCounter(max: number): (chunk: Uint8Array) => string | null {
  let size = 0;
  let lineEnds = 0;
  let afterCr = false;
  return (chunk) => {
    for (let i = 0; i < chunk.length; i += 1) {
      const byte = chunk[i];
      if (byte === LF) {
        // CR LF is one line end.
        if (!afterCr) lineEnds += 1;
        afterCr = false;
      } else if (byte === CR) {
        lineEnds += 1;
        afterCr = true;
      } else {
        lineEnds = 0;
        afterCr = false;
      }
      if (lineEnds >= 2) size = 0;
      else size += 1;
      if (size > max) return `an event of more than ${max} bytes`;
    }
    return null;
  };
}

/** Counts every byte of the answer; the text when over `max`. */
function totalCounter(max: number): (chunk: Uint8Array) => string | null {
  let size = 0;
  return (chunk) => {
    size += chunk.length;
    return size > max ? `an answer of more than ${max} bytes` : null;
  };
}

const mediaType = (header: string | null): string =>
  (header ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * `fetch` for the Streamable HTTP transport that never lets an answer grow past `maxBytes`: the
 * body is counted as it arrives (a JSON answer whole, an SSE stream per event) and, the moment it
 * is over, the stream fails, the request is aborted (the server's connection is closed) and
 * `onOver` is told why. A `Content-Length` over the cap fails before a byte is read. Nothing is
 * buffered here; what the transport buffers is at most `maxBytes`.
 */
export function cappedFetch(
  maxBytes: number,
  onOver: (detail: string) => void,
  base: FetchLike = fetch,
): FetchLike {
  return async (url, init) => {
    // The request is aborted when its answer goes over, as well as its body failed: the
    // connection is torn down whatever the transport still does with the stream.
    const abort = new AbortController();
    const signal = init?.signal ? AbortSignal.any([init.signal, abort.signal]) : abort.signal;
    const response = await base(url, { ...init, signal });
    if (response.body === null) return response;
    const sse = mediaType(response.headers.get('content-type')) === 'text/event-stream';
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (!sse && declared > maxBytes) {
      const detail = `an answer of ${declared} bytes, over ${maxBytes}`;
      abort.abort(new OverLimitError(detail));
      await response.body.cancel().catch(() => undefined);
      onOver(detail);
      throw new OverLimitError(detail);
    }
    const count = sse ? eventCounter(maxBytes) : totalCounter(maxBytes);
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          const over = count(chunk);
          if (over === null) return controller.enqueue(chunk);
          const error = new OverLimitError(over);
          abort.abort(error);
          onOver(over);
          // Fails the reader: nothing more is read.
          controller.error(error);
        },
      }),
    );
    const capped = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    Object.defineProperty(capped, 'url', { value: response.url });
    return capped;
  };
}
