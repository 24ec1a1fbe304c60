import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { CLOSE_TRY_AGAIN_LATER, createFrameSender, type FrameSender } from './send.ts';

/** A real server socket (wrapped in a frame sender) and a real client that can stop reading. */
async function pair(limits: Parameters<typeof createFrameSender>[1] = {}) {
  const server: Server = createServer();
  const wss = new WebSocketServer({ server });
  const accepted = new Promise<{ sender: FrameSender; socket: WebSocket }>((resolve) =>
    wss.once('connection', (socket) =>
      resolve({ socket, sender: createFrameSender(socket, limits) }),
    ),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  let received = 0;
  client.on('message', () => {
    received += 1;
  });
  const closed = new Promise<number>((resolve) => client.on('close', (code) => resolve(code)));
  await new Promise((resolve) => client.once('open', resolve));
  const { sender, socket } = await accepted;
  return {
    sender,
    socket,
    client,
    closed,
    received: () => received,
    async close() {
      client.terminate();
      wss.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const big = { type: 'chunk', text: 'z'.repeat(64 * 1024) };

describe('createFrameSender', () => {
  let current: Awaited<ReturnType<typeof pair>> | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });

  it('holds a streaming sender back while the reader is paused and lets it go when it reads', async () => {
    let slowCloses = 0;
    current = await pair({
      limits: { highWater: 256 * 1024, lowWater: 64 * 1024, closeAt: 64 * 1_048_576 },
      onSlowClose: () => (slowCloses += 1),
    });
    const c = current;
    c.client.pause();
    let sent = 0;
    let waited = false;
    // Kernel buffers take a few MB first; within 64 MB a send must start waiting.
    while (sent < 1_000) {
      const outcome = await Promise.race([
        c.sender.send(big).then(() => 'sent'),
        new Promise((resolve) => setTimeout(() => resolve('waiting'), 200)),
      ]);
      sent += 1;
      if (outcome === 'waiting') {
        waited = true;
        break;
      }
    }
    expect(waited).toBe(true);
    c.client.resume();
    expect(await c.sender.send(big)).toBe(true);
    expect(slowCloses).toBe(0);
  }, 20_000);

  it('stops reading a client that does not drain and closes it with 1013 after the stall', async () => {
    let slowCloses = 0;
    current = await pair({
      limits: { highWater: 64 * 1024, lowWater: 16 * 1024, closeAt: 256 * 1_048_576, stallMs: 300 },
      onSlowClose: () => (slowCloses += 1),
    });
    const c = current;
    c.client.pause();
    let read = 0;
    c.socket.on('message', () => (read += 1));
    // Fill the kernel buffers until the sender is above its high-water mark.
    for (let i = 0; i < 400 && slowCloses === 0; i += 1) {
      c.sender.sendNow(big);
      if (i % 20 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    c.client.send('frame while paused');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(slowCloses).toBe(1);
    expect(read).toBe(0);
    c.client.resume();
    expect(await c.closed).toBe(CLOSE_TRY_AGAIN_LATER);
  }, 20_000);

  it('closes with 1013 and reports it once unanswered frames pass the limit', async () => {
    let slowCloses = 0;
    current = await pair({
      limits: { closeAt: 1_048_576, closeAtFrames: 100_000 },
      onSlowClose: () => (slowCloses += 1),
    });
    const c = current;
    c.client.pause();
    let accepted = 0;
    for (let i = 0; i < 2_000 && c.sender.sendNow(big); i += 1) {
      accepted += 1;
      if (i % 50 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(accepted).toBeLessThan(2_000);
    expect(slowCloses).toBe(1);
    expect(c.sender.sendNow({ type: 'pong' })).toBe(false);
    c.client.resume();
    expect(await c.closed).toBe(CLOSE_TRY_AGAIN_LATER);
  }, 20_000);
});
