import type { WebSocket } from 'ws';

/** Close code for a client that does not read what it is sent (RFC 6455 "try again later"). */
export const CLOSE_TRY_AGAIN_LATER = 1013;

export interface FrameSenderLimits {
  /** Above this many unwritten bytes a streaming sender waits for the socket to drain. */
  highWater: number;
  /** The wait ends when the unwritten bytes fall to this (and the frames to `highWaterFrames / 4`). */
  lowWater: number;
  /** Past this many unwritten bytes the socket is closed with 1013 and `onSlowClose` told. */
  closeAt: number;
  /** Above this many unwritten frames a streaming sender waits too (small frames cost more). */
  highWaterFrames: number;
  /** Past this many unwritten frames the socket is closed with 1013 (unanswered pings). */
  closeAtFrames: number;
  /**
   * While above the high-water mark the socket's frames are not read (so a client that floods
   * without reading costs no work); still not drained after this many ms, it is closed (1013).
   */
  stallMs: number;
}

export const DEFAULT_FRAME_LIMITS: FrameSenderLimits = {
  highWater: 1_048_576,
  lowWater: 262_144,
  closeAt: 4_194_304,
  highWaterFrames: 1_024,
  closeAtFrames: 4_096,
  stallMs: 30_000,
};

/** How long a slow socket gets to take its close frame before it is dropped. */
const CLOSE_GRACE_MS = 5_000;

export interface FrameSender {
  /**
   * Queues a JSON frame without waiting (replies to pings and bad frames). False when the
   * socket is not open or was just closed for being too slow.
   */
  sendNow(frame: unknown): boolean;
  /**
   * Queues a JSON frame, then, when more than `highWater` bytes are unwritten, waits until the
   * socket has written them down to `lowWater` — so a slow reader holds back the generation
   * instead of growing server memory. All callers share one wait per socket, woken by the
   * write callbacks (no polling). Resolves false when the socket is no longer open.
   */
  send(frame: unknown): Promise<boolean>;
}

/**
 * The one way to send to a WebSocket: counts the bytes and frames handed to the socket and not
 * yet written out (through the write callbacks). Above the high-water mark it stops reading the
 * client's frames until they drain, and closes the socket (1013, `onSlowClose`) when they do
 * not drain within `stallMs` or pass `closeAt`/`closeAtFrames` — so a client that floods
 * frames while not reading the answers costs neither memory nor work.
 */
export function createFrameSender(
  socket: WebSocket,
  options: { limits?: Partial<FrameSenderLimits>; onSlowClose?: () => void } = {},
): FrameSender {
  const limits = { ...DEFAULT_FRAME_LIMITS, ...options.limits };
  let unwritten = 0;
  let unwrittenFrames = 0;
  let drained: PromiseWithResolvers<void> | undefined;
  /** Set while reading is paused: the timer that closes the socket if it never drains. */
  let stalled: NodeJS.Timeout | undefined;

  function wake(): void {
    drained?.resolve();
    drained = undefined;
    if (stalled) {
      clearTimeout(stalled);
      stalled = undefined;
      if (socket.readyState === socket.OPEN) socket.resume();
    }
  }
  socket.once('close', wake);

  const aboveHighWater = () =>
    unwritten > limits.highWater || unwrittenFrames > limits.highWaterFrames;

  function holdReading(): void {
    if (stalled) return;
    socket.pause();
    stalled = setTimeout(closeSlow, limits.stallMs).unref();
  }

  function closeSlow(): void {
    if (socket.readyState !== socket.OPEN) return;
    options.onSlowClose?.();
    socket.close(CLOSE_TRY_AGAIN_LATER, 'Client is not reading; too much unsent data');
    setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
    wake();
  }

  function sendNow(frame: unknown): boolean {
    if (socket.readyState !== socket.OPEN) return false;
    const text = JSON.stringify(frame);
    const size = Buffer.byteLength(text);
    if (unwritten + size > limits.closeAt || unwrittenFrames + 1 > limits.closeAtFrames) {
      closeSlow();
      return false;
    }
    unwritten += size;
    unwrittenFrames += 1;
    socket.send(text, () => {
      unwritten -= size;
      unwrittenFrames -= 1;
      if (
        (drained || stalled) &&
        unwritten <= limits.lowWater &&
        unwrittenFrames <= limits.highWaterFrames / 4
      )
        wake();
    });
    if (aboveHighWater()) holdReading();
    return true;
  }

  return {
    sendNow,
    async send(frame) {
      if (!sendNow(frame)) return false;
      if (aboveHighWater()) {
        drained ??= Promise.withResolvers<void>();
        await drained.promise;
      }
      return socket.readyState === socket.OPEN;
    },
  };
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
