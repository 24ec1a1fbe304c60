import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { silentLogger } from '../observability/logger.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import {
  CLOSE_POLICY_VIOLATION,
  createSocketRouter,
  DEFAULT_MAX_PAYLOAD,
} from './socket-router.ts';

function connect(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, { headers });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const opened = new Promise<void>((resolve, reject) => {
    socket.on('open', () => resolve());
    socket.on('error', reject);
  });
  return { socket, opened, closed };
}

describe('WebSocket upgrades', () => {
  let gw: TestGateway;
  let wsUrl: string;
  beforeAll(async () => {
    gw = await startTestGateway();
    gw.gateway.sockets.register('/ws/echo', (socket) => {
      socket.on('message', (data: Buffer) => socket.send(data.toString()));
    });
    gw.gateway.sockets.register(
      '/ws/echo-big',
      (socket) => {
        socket.on('message', (data: Buffer) => socket.send(String(data.length)));
      },
      { maxPayload: 3 * 1_048_576 },
    );
    wsUrl = `ws://127.0.0.1:${gw.port}/ws/echo`;
  });
  afterAll(() => gw.close());

  it('closes a mismatched Origin with 1008', async () => {
    const { closed } = connect(wsUrl, { origin: 'https://evil.example' });
    expect(await closed).toEqual({ code: CLOSE_POLICY_VIOLATION, reason: 'Origin not allowed' });
  });

  it('allows a missing Origin (a non-browser client)', async () => {
    const { socket, opened } = connect(wsUrl);
    await opened;
    const reply = new Promise<string>((resolve) =>
      socket.once('message', (d: Buffer) => resolve(d.toString())),
    );
    socket.send('hello');
    expect(await reply).toBe('hello');
    socket.close();
  });

  it.each(['localhost', '127.0.0.1'])(
    'allows the gateway’s own origin in the %s form',
    async (host) => {
      const { socket, opened } = connect(wsUrl, { origin: `http://${host}:${gw.port}` });
      await opened;
      socket.close();
    },
  );

  it('a frame over the 1 MiB default closes with 1009 and the gateway lives on', async () => {
    const { socket, opened, closed } = connect(wsUrl);
    await opened;
    socket.send('x'.repeat(DEFAULT_MAX_PAYLOAD + 1));
    expect((await closed).code).toBe(1009);
    const again = connect(wsUrl);
    await again.opened;
    again.socket.close();
  });

  it('a route with its own maxPayload takes bigger frames, and closes above its own limit', async () => {
    const big = connect(`ws://127.0.0.1:${gw.port}/ws/echo-big`);
    await big.opened;
    const reply = new Promise<string>((resolve) =>
      big.socket.once('message', (d: Buffer) => resolve(d.toString())),
    );
    big.socket.send('x'.repeat(2 * 1_048_576));
    expect(await reply).toBe(String(2 * 1_048_576));
    big.socket.send('x'.repeat(3 * 1_048_576 + 1));
    expect((await big.closed).code).toBe(1009);
    // The default route kept its own limit.
    const small = connect(wsUrl);
    await small.opened;
    small.socket.send('x'.repeat(2 * 1_048_576));
    expect((await small.closed).code).toBe(1009);
  });

  it('refuses a maxPayload that is not a positive integer', () => {
    for (const maxPayload of [0, -1, 1.5, Number.NaN])
      expect(() =>
        gw.gateway.sockets.register('/ws/bad-limit', () => undefined, { maxPayload }),
      ).toThrow(/maxPayload/);
  });

  it('refuses an unknown path with 404', async () => {
    const { opened } = connect(`ws://127.0.0.1:${gw.port}/ws/nothing`);
    await expect(opened).rejects.toThrow(/404/);
  });

  it('needs the API key when one is set (beyond the spec), then the origin check applies', async () => {
    const keyed = await startTestGateway({ config: { gateway: { api_key: 'k' } } });
    try {
      keyed.gateway.sockets.register('/ws/echo', (socket) => socket.send('hi'));
      const url = `ws://127.0.0.1:${keyed.port}/ws/echo`;
      await expect(connect(url).opened).rejects.toThrow(/401/);
      const { socket, opened } = connect(url, { 'x-api-key': 'k' });
      const first = new Promise<string>((resolve) =>
        socket.once('message', (d: Buffer) => resolve(d.toString())),
      );
      await opened;
      expect(await first).toBe('hi');
      socket.close();
      const foreign = connect(url, { 'x-api-key': 'k', origin: 'https://evil.example' });
      expect((await foreign.closed).code).toBe(CLOSE_POLICY_VIOLATION);
    } finally {
      await keyed.close();
    }
  });
});

describe('open WebSockets are capped', () => {
  it(`answers 503 past the cap (counted), and takes sockets again once one closes`, async () => {
    const refused: number[] = [];
    const router = createSocketRouter({
      origins: { isAllowed: () => true, origins: [] },
      hosts: { isAllowed: () => true },
      apiKey: '',
      logger: silentLogger(),
      maxSockets: 2,
      onRefused: () => refused.push(1),
    });
    router.register('/ws/echo', (socket) => {
      socket.on('message', (data: Buffer) => socket.send(data.toString()));
    });
    const server = createServer();
    router.attach(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws/echo`;
    try {
      const first = connect(url);
      const second = connect(url);
      await Promise.all([first.opened, second.opened]);
      const third = new WebSocket(url);
      const status = await new Promise<number>((resolve) =>
        third.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0)),
      );
      expect(status).toBe(503);
      expect(refused).toHaveLength(1);
      first.socket.close();
      await first.closed;
      const fourth = connect(url);
      await fourth.opened;
      fourth.socket.close();
      second.socket.close();
      await Promise.all([fourth.closed, second.closed]);
    } finally {
      router.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
