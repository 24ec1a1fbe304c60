import type { WebSocket } from 'ws';

/** Above this many buffered bytes a sender waits for the socket to drain. */
const HIGH_WATER = 1_048_576;
const LOW_WATER = 262_144;

/**
 * Sends a JSON frame; when the client reads slowly (more than 1 MiB buffered), waits until the
 * buffer drains below 256 KiB, so a slow client holds back the generation instead of growing
 * server memory. Resolves false when the socket is no longer open.
 */
export async function sendJson(socket: WebSocket, frame: unknown): Promise<boolean> {
  if (socket.readyState !== socket.OPEN) return false;
  socket.send(JSON.stringify(frame));
  while (socket.bufferedAmount > HIGH_WATER && socket.readyState === socket.OPEN) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (socket.bufferedAmount < LOW_WATER) break;
  }
  return socket.readyState === socket.OPEN;
}

/** Parses a client frame; undefined for anything that is not a JSON object with a string `type`. */
export function parseFrame(
  data: unknown,
): ({ type: string } & Record<string, unknown>) | undefined {
  try {
    const text = Buffer.isBuffer(data)
      ? data.toString('utf8')
      : Array.isArray(data)
        ? Buffer.concat(data as Buffer[]).toString('utf8')
        : String(data);
    const frame = JSON.parse(text) as unknown;
    if (
      frame &&
      typeof frame === 'object' &&
      typeof (frame as { type?: unknown }).type === 'string'
    ) {
      return frame as { type: string } & Record<string, unknown>;
    }
  } catch {
    // not JSON
  }
  return undefined;
}
