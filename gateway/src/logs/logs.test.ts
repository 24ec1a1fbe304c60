import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createLogTail } from '../observability/log-tail.ts';
import { createLogger, type Logger } from '../observability/logger.ts';
import { rawRequest } from '../testing/fakes/raw-request.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';

const KEY = 'log-pane key';
const keyProtocol = (key: string) => `hearth.key.${Buffer.from(key).toString('base64url')}`;

interface Frame {
  type: string;
  available?: boolean;
  lines?: { msg: string }[];
  line?: { msg: string; level: string };
}

/** Opens /ws/logs; resolves with the socket and a queue of the frames it received. */
async function openLogs(
  url: string,
  options: { protocols?: string[]; headers?: Record<string, string> } = {},
) {
  const socket = new WebSocket(url, options.protocols ?? [], { headers: options.headers ?? {} });
  const frames: Frame[] = [];
  socket.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString('utf8')) as Frame));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const next = async (predicate: (frame: Frame) => boolean): Promise<Frame> => {
    for (let i = 0; i < 200; i += 1) {
      const found = frames.find(predicate);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no matching frame in ${JSON.stringify(frames)}`);
  };
  return { socket, frames, next };
}

describe('the gateway log over the API (GET /api/v1/logs, /ws/logs)', () => {
  let gw: TestGateway;
  let logger: Logger;
  const headers = { 'x-api-key': KEY };
  beforeAll(async () => {
    const tail = createLogTail({ capacity: 50 });
    logger = createLogger({
      level: 'info',
      pretty: false,
      destination: { write: () => true },
      tail,
    });
    gw = await startTestGateway({ config: { gateway: { api_key: KEY } }, logger, logTail: tail });
    await gw.gateway.whenReady();
  });
  afterAll(() => gw.close());

  it('returns the newest lines, oldest first, and says the tail is live in /status backends', async () => {
    logger.warn('the marker line');
    const res = await rawRequest(gw.port, '/api/v1/logs?limit=5', { headers });
    expect(res.status).toBe(200);
    const body = JSON.parse(res.body) as { available: boolean; lines: { msg: string }[] };
    expect(body.available).toBe(true);
    expect(body.lines.length).toBeLessThanOrEqual(5);
    expect(body.lines.at(-1)).toMatchObject({ msg: 'the marker line', level: 'warn' });

    const status = JSON.parse((await rawRequest(gw.port, '/api/v1/status', { headers })).body) as {
      backends: Record<string, string>;
    };
    expect(status.backends.logs).toBe('live tail (last 50 lines)');
  });

  it('is behind the API key, REST and socket alike', async () => {
    const res = await rawRequest(gw.port, '/api/v1/logs');
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toEqual({ detail: 'Missing or invalid X-API-Key header' });
    const refused = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${gw.port}/ws/logs`, [keyProtocol('wrong')]);
      socket.on('unexpected-response', (_req, response) => {
        resolve(response.statusCode ?? 0);
        socket.terminate();
      });
      socket.on('open', () => resolve(101));
      socket.on('error', () => undefined);
    });
    expect(refused).toBe(401);
  });

  it('refuses a limit out of range or not a number with 422 naming the field', async () => {
    for (const limit of ['0', '1001', 'abc', '-5', '1e9']) {
      const res = await rawRequest(gw.port, `/api/v1/logs?limit=${limit}`, { headers });
      expect(res.status, limit).toBe(422);
      expect((JSON.parse(res.body) as { detail: string }).detail).toContain('limit');
    }
  });

  it('streams: the backlog first, then each new line as it is logged', async () => {
    logger.info('before connecting');
    const { socket, next } = await openLogs(`ws://127.0.0.1:${gw.port}/ws/logs`, {
      protocols: [keyProtocol(KEY)],
    });
    const backlog = await next((frame) => frame.type === 'log_lines');
    expect(backlog.available).toBe(true);
    expect(backlog.lines?.map((line) => line.msg)).toContain('before connecting');

    logger.error('after connecting');
    const live = await next(
      (frame) => frame.type === 'log' && frame.line?.msg === 'after connecting',
    );
    expect(live.line?.level).toBe('error');
    socket.close();
  });

  it('answers ping, ignores garbage and binary frames, and stays up', async () => {
    const { socket, next, frames } = await openLogs(`ws://127.0.0.1:${gw.port}/ws/logs`, {
      protocols: [keyProtocol(KEY)],
    });
    socket.send('not json');
    socket.send(Buffer.from([0xff, 0x00, 0xfe]));
    socket.send(JSON.stringify({ type: 'subscribe', level: '../../etc' }));
    socket.send(JSON.stringify({ type: 'ping' }));
    await next((frame) => frame.type === 'pong');
    expect(frames.filter((frame) => frame.type !== 'log_lines' && frame.type !== 'log')).toEqual([
      { type: 'pong' },
    ]);
    expect(socket.readyState).toBe(WebSocket.OPEN);
    socket.close();
  });

  it('closes a socket from a foreign browser origin with 1008', async () => {
    const code = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${gw.port}/ws/logs`, [keyProtocol(KEY)], {
        headers: { origin: 'https://evil.example' },
      });
      socket.on('close', (closeCode) => resolve(closeCode));
      socket.on('unexpected-response', (_req, response) => {
        resolve(response.statusCode ?? 0);
        socket.terminate();
      });
      socket.on('error', () => undefined);
    });
    expect([1008, 403]).toContain(code);
  });
});

describe('a client that does not read the log socket', () => {
  it('is closed with 1013 instead of growing the gateway’s memory', async () => {
    const tail = createLogTail();
    const logger = createLogger({
      level: 'info',
      pretty: false,
      destination: { write: () => true },
      tail,
    });
    const gw = await startTestGateway({
      logger,
      logTail: tail,
      socketFrameLimits: { closeAtFrames: 20, highWaterFrames: 10 },
    });
    try {
      const socket = new WebSocket(`ws://127.0.0.1:${gw.port}/ws/logs`);
      await new Promise((resolve) => socket.once('open', resolve));
      // Stop reading: the gateway's unwritten frames pile up past the limit.
      (socket as unknown as { _socket: { pause(): void } })._socket.pause();
      const closed = new Promise<number>((resolve) => socket.once('close', resolve));
      for (let i = 0; i < 5_000; i += 1) logger.info(`flood ${i} ${'x'.repeat(1_000)}`);
      (socket as unknown as { _socket: { resume(): void } })._socket.resume();
      expect(await closed).toBe(1013);
      expect((await rawRequest(gw.port, '/api/v1/logs?limit=1')).status).toBe(200);
    } finally {
      await gw.close();
    }
  });
});

describe('a gateway whose logger keeps no tail', () => {
  it('answers available: false and says so in /status backends', async () => {
    const gw = await startTestGateway();
    try {
      await gw.gateway.whenReady();
      const res = await rawRequest(gw.port, '/api/v1/logs');
      expect(JSON.parse(res.body)).toEqual({ available: false, lines: [] });
      const status = JSON.parse((await rawRequest(gw.port, '/api/v1/status')).body) as {
        backends: Record<string, string>;
      };
      expect(status.backends.logs).toBe('unavailable (this logger keeps no tail)');
    } finally {
      await gw.close();
    }
  });
});
