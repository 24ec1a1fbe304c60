import { Agent, createServer, get, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { trackInFlight } from './drain.ts';

/** A GET over a keep-alive agent; resolves with the response once its body has ended. */
function keepAliveGet(port: number, path = '/'): Promise<IncomingMessage> {
  const agent = new Agent({ keepAlive: true });
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res));
    }).on('error', reject);
  });
}

describe('trackInFlight', () => {
  it('closes a keep-alive connection as soon as its in-flight response is done', async () => {
    const server = createServer((_req, res) => setTimeout(() => res.end('ok'), 200));
    const drain = trackInFlight(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const started = performance.now();
    const response = keepAliveGet(port);
    await new Promise((resolve) => setTimeout(resolve, 50));

    drain.begin();
    const closed = new Promise<number>((resolve) =>
      server.close(() => resolve(performance.now() - started)),
    );
    server.closeIdleConnections();

    expect((await response).headers.connection).toBe('close');
    // Without the drain, close() waits for the client's keep-alive socket (5 s by default).
    expect(await closed).toBeLessThan(1_500);
  });
});

describe('gateway shutdown', () => {
  it('ends promptly after a streaming chat that was in flight on a keep-alive connection', async () => {
    const bed = await startChatTestBed(undefined, {
      config: { gateway: { shutdown_timeout_ms: 10_000 } },
    });
    bed.fake.reply({ text: 'one two three four five six', chunkDelayMs: 40 });
    const agent = new Agent({ keepAlive: true });
    const body = JSON.stringify({ message: 'count', stream: true });
    const answer = new Promise<{ text: string }>((resolve, reject) => {
      const req = request({
        host: '127.0.0.1',
        port: bed.gw.port,
        path: '/api/v1/chat',
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          'content-length': Buffer.byteLength(body),
        },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ text }));
      });
      req.on('error', reject);
      req.end(body);
    });
    await new Promise((resolve) => setTimeout(resolve, 60));

    const started = performance.now();
    await bed.close();
    const { text } = await answer;
    expect(text).toContain('event: message_done');
    // The stream's headers went out before the shutdown (keep-alive); the server still closes
    // the connection once the stream ends instead of waiting for the 10 s shutdown timeout.
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
