import WebSocket from 'ws';

export type Frame = Record<string, unknown> & { type: string };

export interface FrameClient {
  socket: WebSocket;
  /** Every frame received so far, in order. */
  frames: Frame[];
  /** The close code, once closed. */
  closed: Promise<number>;
  send(frame: unknown): void;
  /** The first frame received from now on (or already received) that matches. */
  next(match: (frame: Frame) => boolean, timeoutMs?: number): Promise<Frame>;
}

/** A WebSocket client that collects JSON frames and waits for one matching a predicate. */
export async function frameClient(
  url: string,
  headers: Record<string, string> = {},
): Promise<FrameClient> {
  const socket = new WebSocket(url, { headers });
  const frames: Frame[] = [];
  const waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  socket.on('message', (data: Buffer) => {
    const frame = JSON.parse(data.toString()) as Frame;
    frames.push(frame);
    for (const waiter of [...waiters]) {
      if (waiter.match(frame)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(frame);
      }
    }
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    frames,
    closed,
    send: (frame) => socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
    next: (match, timeoutMs = 5_000) =>
      new Promise<Frame>((resolve, reject) => {
        const found = frames.find(match);
        if (found) return resolve(found);
        const timer = setTimeout(() => reject(new Error('no matching frame in time')), timeoutMs);
        waiters.push({
          match,
          resolve: (frame) => {
            clearTimeout(timer);
            resolve(frame);
          },
        });
      }),
  };
}
