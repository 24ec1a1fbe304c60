/**
 * A Bot API nobody listens on (`api_root` on a closed port): the channel says so — disconnected,
 * `last_error` naming the refused connection — keeps trying with backoff, and is disabled at
 * once whatever it is in the middle of (a connect, a backoff wait). Once the Bot API is there,
 * enabling the channel connects it.
 */
import { createServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { gatewayApi, startChannelTestBed } from '../testing/channel-test-kit.ts';
import { startFakeTelegram, type FakeTelegram } from '../testing/fake-telegram.ts';

const TOKEN = '515151:unreachable-bot-api';

/** A port on 127.0.0.1 nothing listens on (taken, then freed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('Telegram against a Bot API that refuses connections', () => {
  let bed: ChatTestBed;
  let telegram: FakeTelegram | undefined;
  let port: number;
  const api = gatewayApi(() => bed.gw.url);
  const detail = async () => (await api.call('GET', '/channels/tg')).body;

  beforeAll(async () => {
    port = await closedPort();
    bed = await startChannelTestBed('tg', {
      type: 'telegram',
      bot_token: TOKEN,
      api_root: `http://127.0.0.1:${port}`,
    });
  });
  afterAll(async () => {
    await bed.close();
    await telegram?.close();
  });

  it('is disconnected with last_error naming the refused connection, and disables at once', async () => {
    await expect
      .poll(async () => (await detail()).last_error, { timeout: 5_000 })
      .toMatch(/ECONNREFUSED|refused/i);
    // Between attempts (each is over in milliseconds, the waits last seconds).
    await expect.poll(async () => (await detail()).status).toBe('disconnected');
    expect(String((await detail()).last_error)).toContain(`127.0.0.1:${port}`);
    expect(String((await detail()).last_error)).not.toContain(TOKEN);
    expect((await api.call('GET', '/status')).body.backends).toMatchObject({
      'channel.tg': expect.stringMatching(/^telegram: (disconnected|connecting) \(.*refused/i),
    });

    // Disabled while it retries: answered promptly, and it stays stopped.
    const started = Date.now();
    const disabled = await api.call('POST', '/channels/tg/disable');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(disabled).toEqual({ status: 200, body: { disabled: true } });
    expect((await detail()).status).toBe('disabled');
  });

  it('enabled again once the Bot API listens on that port: connected', async () => {
    telegram = await startFakeTelegram(TOKEN, { port });
    const enabled = await api.call('POST', '/channels/tg/enable');
    expect(enabled.status).toBe(200);
    await expect.poll(async () => (await detail()).status, { timeout: 10_000 }).toBe('connected');
    expect((await detail()).last_error).toBeUndefined();
    expect(telegram.calls).toContain('getMe');
  });
});

describe('Telegram against a Bot API that takes connections and never answers', () => {
  let bed: ChatTestBed;
  const sockets = new Set<Socket>();
  const silent = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const api = gatewayApi(() => bed.gw.url);

  beforeAll(async () => {
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    bed = await startChannelTestBed('tg', {
      type: 'telegram',
      bot_token: TOKEN,
      api_root: `http://127.0.0.1:${port}`,
    });
  });
  afterAll(async () => {
    await bed.close();
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('a disable in the middle of the connect (getMe unanswered) answers within 2 s', async () => {
    await expect.poll(() => sockets.size, { timeout: 5_000 }).toBeGreaterThan(0);
    expect(await api.channelStatus('tg')).toBe('connecting');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const started = Date.now();
    const disabled = await api.call('POST', '/channels/tg/disable');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(disabled).toEqual({ status: 200, body: { disabled: true } });
    expect(await api.channelStatus('tg')).toBe('disabled');
  });
});
