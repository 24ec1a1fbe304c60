import WebSocket from 'ws';

export type Frame = Record<string, unknown> & { type: string };

/** A `/ws/canvas` client that collects frames and can wait for one matching a predicate. */
export async function canvasViewer(
  url: string,
  options: { headers?: Record<string, string>; protocols?: string[] } = {},
) {
  const socket = new WebSocket(url, options.protocols ?? [], { headers: options.headers });
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
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    frames,
    closed,
    send: (frame: unknown) =>
      socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
    next: (match: (f: Frame) => boolean, ms = 10_000) =>
      new Promise<Frame>((resolve, reject) => {
        const found = frames.find(match);
        if (found) return resolve(found);
        const timer = setTimeout(() => reject(new Error('no matching canvas frame')), ms);
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

export type CanvasViewer = Awaited<ReturnType<typeof canvasViewer>>;
