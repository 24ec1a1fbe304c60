import { createServer, type IncomingMessage } from 'node:http';
import { verifyWebhook } from '../webhook/signature.ts';
import { listenRestartable } from './restartable-server.ts';
import { createSentLog } from './sent-log.ts';

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
  const log = createSentLog<CallbackMessage>('callback messages');
  let failNext = 0;
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
      log.push({ chat, text, signed: verdict.ok });
      res.writeHead(204).end();
    });
  });
  const { port, close } = await listenRestartable(server);
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received: log.items,
    /** The next `n` messages after those already taken with `next` (or skipped). */
    next: (n = 1, timeoutMs = 10_000): Promise<CallbackMessage[]> => log.next(n, timeoutMs),
    /** Skips every message received so far (a test's leftovers). */
    skip: () => log.skip(),
    /** Resolves when at least `count` messages arrived in all. */
    waitFor: (count: number, timeoutMs = 10_000) => log.waitFor(count, timeoutMs),
    failNext(n: number) {
      failNext = n;
    },
    close,
  };
}

export type CallbackServer = Awaited<ReturnType<typeof startCallbackServer>>;
