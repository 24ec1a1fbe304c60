import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { watchFrameSizes } from './frame-watch.ts';

/** A server frame (unmasked) of `opcode` with `length` payload bytes, `final` or a fragment. */
function frame(opcode: number, length: number, final = true): Buffer {
  const first = (final ? 0x80 : 0) | opcode;
  const header =
    length < 126
      ? Buffer.from([first, length])
      : length < 65_536
        ? Buffer.from([first, 126, length >> 8, length & 0xff])
        : Buffer.concat([Buffer.from([first, 127]), bigEndian64(length)]);
  return Buffer.concat([header, Buffer.alloc(length, 0x61)]);
}

function bigEndian64(value: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(value));
  return bytes;
}

/** A socket-like emitter the watcher reads along, fed in chunks of `chunkSize` bytes. */
function watched(maxBytes: number) {
  const socket = new EventEmitter();
  let oversized = 0;
  watchFrameSizes(socket, maxBytes, () => (oversized += 1));
  socket.on('data', () => undefined); // the WebSocket takes the socket over
  return {
    feed(bytes: Buffer, chunkSize = 7) {
      for (let at = 0; at < bytes.length; at += chunkSize)
        socket.emit('data', bytes.subarray(at, at + chunkSize));
    },
    oversized: () => oversized,
  };
}

describe('reading along a WebSocket server’s frames for one over the cap', () => {
  it('messages up to the cap, control frames and 16/64-bit lengths pass; one over it is seen once', () => {
    const socket = watched(70_000);
    socket.feed(Buffer.concat([frame(1, 10), frame(9, 4), frame(2, 300), frame(1, 70_000)]));
    expect(socket.oversized()).toBe(0);
    socket.feed(Buffer.concat([frame(1, 70_001), frame(1, 80_000)]), 1_000);
    expect(socket.oversized()).toBe(1);
  });

  it('counts a message’s fragments together, and starts afresh after its final one', () => {
    const socket = watched(1_000);
    socket.feed(Buffer.concat([frame(1, 600, false), frame(0, 400, true), frame(1, 900)]));
    expect(socket.oversized()).toBe(0);
    socket.feed(Buffer.concat([frame(1, 600, false), frame(10, 2), frame(0, 401, true)]));
    expect(socket.oversized()).toBe(1);
  });

  it('reads nothing before the WebSocket listens (the HTTP answer is not a frame)', () => {
    const socket = new EventEmitter();
    let oversized = 0;
    watchFrameSizes(socket, 10, () => (oversized += 1));
    socket.emit('data', Buffer.from('HTTP/1.1 101 Switching Protocols\r\n\r\n'));
    socket.on('data', () => undefined);
    socket.emit('data', frame(1, 5));
    expect(oversized).toBe(0);
  });
});
