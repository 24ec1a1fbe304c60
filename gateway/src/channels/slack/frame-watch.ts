/**
 * Reads along the frames a WebSocket server sends on a socket (after the HTTP upgrade), only
 * their headers, to tell when one message's payload is declared over `maxBytes`. undici closes
 * such a connection itself (its `maxPayloadSize`) but says nothing about why; this is how the
 * Slack adapter can count it. It never changes the bytes or the flow: undici reads the same data.
 */
import type { EventEmitter } from 'node:events';

/** RFC 6455 §5.2: the header's length once its first two bytes are known. */
function headerLength(bytes: readonly number[]): number | undefined {
  if (bytes.length < 2) return undefined;
  const short = bytes[1]! & 0x7f;
  const extended = short === 126 ? 2 : short === 127 ? 8 : 0;
  return 2 + extended + (bytes[1]! & 0x80 ? 4 : 0);
}

function payloadLength(bytes: readonly number[]): number {
  const short = bytes[1]! & 0x7f;
  if (short < 126) return short;
  const size = short === 126 ? 2 : 8;
  let length = 0;
  for (let i = 0; i < size; i += 1) length = length * 256 + bytes[2 + i]!;
  return length;
}

/**
 * Starts reading along once the WebSocket takes the socket over (it then listens to `data`; the
 * HTTP client before it reads with `read()`, which a `data` listener of ours would starve), so
 * the first byte seen is the first frame's.
 */
export function watchFrameSizes(
  socket: EventEmitter,
  maxBytes: number,
  onOversized: () => void,
): void {
  let header: number[] = [];
  let skip = 0;
  /** Payload bytes of the message being assembled from fragments. */
  let message = 0;
  const onData = (chunk: Buffer) => {
    let at = 0;
    while (at < chunk.length) {
      if (skip > 0) {
        const taken = Math.min(skip, chunk.length - at);
        skip -= taken;
        at += taken;
        continue;
      }
      header.push(chunk[at]!);
      at += 1;
      const needed = headerLength(header);
      if (needed === undefined || header.length < needed) continue;
      const opcode = header[0]! & 0x0f;
      const final = (header[0]! & 0x80) !== 0;
      const length = payloadLength(header);
      header = [];
      skip = length;
      if (opcode >= 0x8) continue; // control frames: small by definition
      message += length;
      if (message > maxBytes) {
        socket.off('data', onData);
        onOversized();
        return;
      }
      if (final) message = 0;
    }
  };
  const onListener = (event: string | symbol) => {
    if (event !== 'data') return;
    socket.off('newListener', onListener);
    socket.on('data', onData);
  };
  socket.on('newListener', onListener);
}
