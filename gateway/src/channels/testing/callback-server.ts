import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../webhook/signature.ts';

export interface CallbackMessage {
  chat: string;
  text: string;
  /** The delivery's signature checked out against the channel's secret. */
  signed: boolean;
}

/**
 * The far end of a webhook channel's replies: an HTTP server on 127.0.0.1 that records every
 * signed `{chat, text}` POST and lets a test wait for the next ones.
 */
export async function startCallbackServer(secret: string) {
  const received: CallbackMessage[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let failNext = 0;
  let cursor = 0;
  const read = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const server = createServer((req, res) => {
    void read(req).then((body) => {
      if (failNext > 0) {
        failNext -= 1;
        res.writeHead(503).end();
        return;
      }
      const verdict = verifyWebhook({
        secret,
        headers: req.headers,
        body,
        nowMs: Date.now(),
        windowSeconds: 300,
      });
      const { chat, text } = JSON.parse(body.toString()) as { chat: string; text: string };
      received.push({ chat, text, signed: verdict.ok });
      res.writeHead(204).end();
      for (const waiter of [...waiters]) {
        if (received.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** The next `n` messages after those already taken with `next` (or skipped). */
    async next(n = 1, timeoutMs = 10_000): Promise<CallbackMessage[]> {
      const from = cursor;
      cursor += n;
      await waitFor(from + n, timeoutMs);
      return received.slice(from, from + n);
    },
    /** Skips every message received so far (a test's leftovers). */
    skip() {
      cursor = received.length;
    },
    /** Resolves when at least `count` messages arrived in all. */
    waitFor: (count: number, timeoutMs = 10_000) => waitFor(count, timeoutMs),
    failNext(n: number) {
      failNext = n;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  function waitFor(count: number, timeoutMs: number): Promise<void> {
    if (received.length >= count) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`expected ${count} callback messages, got ${received.length}`)),
        timeoutMs,
      );
      waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }
}

export type CallbackServer = Awaited<ReturnType<typeof startCallbackServer>>;
