/**
 * The early listener on its own, in this process: what it answers while the gateway loads, the
 * same Host and key rules as the real gateway (compared request by request), and the handover
 * of its socket to another server with no connection refused or reset.
 */
import dns from 'node:dns';
import { request, createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EarlySettings } from '../config/early-settings.ts';
import { healthResponse, readinessResponse } from '../status/schemas.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import { VERSION } from '../version.ts';
import { bindEarlyListener, EARLY_STARTING_DETAIL, type EarlyListener } from './early-listener.ts';

const settings = (patch: Partial<EarlySettings> = {}): EarlySettings => ({
  host: '127.0.0.1',
  port: 0,
  apiKey: '',
  corsOrigins: [],
  allowedHosts: [],
  allowUnauthenticated: false,
  channelsConfigured: false,
  ...patch,
});
const identity = { version: VERSION, agent: 'hearth' };

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function send(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; setHost?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: options.headers,
        setHost: options.setHost ?? true,
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const listeners: EarlyListener[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const listener of listeners.splice(0)) listener.close();
  await Promise.all(
    servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))),
  );
});

async function bind(patch: Partial<EarlySettings> = {}): Promise<EarlyListener> {
  const listener = await bindEarlyListener(settings(patch), identity);
  listeners.push(listener);
  return listener;
}

describe('the early listener while the gateway loads', () => {
  it('answers GET /health 200 with the body the real /health has', async () => {
    const { address } = await bind();
    const answer = await send(address.port, '/health');
    expect(answer.status).toBe(200);
    const body: unknown = JSON.parse(answer.body);
    expect(healthResponse.strict().parse(body)).toEqual({
      status: 'ok',
      version: VERSION,
      agent: 'hearth',
    });
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers.connection).toBe('close');
    // A query string does not change the path (as in Express's req.path).
    expect((await send(address.port, '/health?probe=1')).status).toBe(200);
  });

  it('answers HEAD /health 200 without a body', async () => {
    const { address } = await bind();
    const answer = await send(address.port, '/health', { method: 'HEAD' });
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('');
    expect(Number(answer.headers['content-length'])).toBeGreaterThan(0);
  });

  it('answers /ready 503 with the readiness object of a gateway whose start-up is not done', async () => {
    const plain = await bind();
    const answer = await send(plain.address.port, '/ready');
    expect(answer.status).toBe(503);
    expect(readinessResponse.strict().parse(JSON.parse(answer.body))).toEqual({
      ready: false,
      checks: { phase: false, runtime: false },
    });
    expect(answer.headers.connection).toBe('close');
    const withChannels = await bind({ channelsConfigured: true });
    expect(JSON.parse((await send(withChannels.address.port, '/ready')).body)).toEqual({
      ready: false,
      checks: { phase: false, runtime: false, channel_connected: false },
    });
  });

  it.each([
    ['GET', '/api/v1/status'],
    ['POST', '/api/v1/chat'],
    ['GET', '/'],
    ['GET', '/health/'],
    ['GET', '/HEALTH'],
    ['DELETE', '/health'],
    ['GET', '/ws'],
  ])('answers %s %s 503 with a detail and Retry-After: 1', async (method, path) => {
    const { address } = await bind();
    const answer = await send(address.port, path, { method });
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body)).toEqual({ detail: EARLY_STARTING_DETAIL });
    expect(answer.headers['retry-after']).toBe('1');
    expect(answer.headers.connection).toBe('close');
  });

  it('closes a keep-alive connection after each answer (Connection: close)', async () => {
    const { address } = await bind();
    const socket = connect(address.port, '127.0.0.1');
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    socket.write(
      'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n' +
        'GET /ready HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n',
    );
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(received).toMatch(/\r\nConnection: close\r\n/i);
    // The second, pipelined request is never answered: the connection closed after the first.
    expect(received.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });

  it('rejects with the bind error when the port is taken', async () => {
    const { address } = await bind();
    await expect(bindEarlyListener(settings({ port: address.port }), identity)).rejects.toThrow(
      /EADDRINUSE/,
    );
  });

  it('binds a numeric address without a name lookup, and a host name through one', async () => {
    const lookup = vi.spyOn(dns, 'lookup');
    try {
      const numeric = await bind({ host: '127.0.0.1' });
      expect(numeric.address).toMatchObject({ host: '127.0.0.1' });
      expect((await send(numeric.address.port, '/health')).status).toBe(200);
      expect(lookup).not.toHaveBeenCalled();
      const named = await bind({ host: 'localhost' });
      expect((await send(named.address.port, '/health', { setHost: true })).status).toBe(200);
      expect(lookup).toHaveBeenCalledWith('localhost', expect.anything(), expect.any(Function));
    } finally {
      lookup.mockRestore();
    }
  });

  it('frees the port on close before a handover', async () => {
    const listener = await bindEarlyListener(settings(), identity);
    listener.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(send(listener.address.port, '/health')).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('the Host and key rules, request by request the same as the real gateway’s', () => {
  const KEY = 'early-key-0123456789';
  let gw: TestGateway;
  let early: EarlyListener;
  beforeAll(async () => {
    gw = await startTestGateway({
      config: { gateway: { api_key: KEY, allowed_hosts: ['hearth.lan'] } },
    });
    await gw.gateway.whenReady();
    early = await bindEarlyListener(
      settings({ apiKey: KEY, allowedHosts: ['hearth.lan'] }),
      identity,
    );
  });
  afterAll(async () => {
    early.close();
    await gw.close();
  });

  const hosts = ['127.0.0.1', 'localhost:1', 'hearth.lan', 'evil.example', 'a@b', undefined];
  const keys = [undefined, KEY, 'wrong'];
  const paths = ['/health', '/ready', '/api/v1/status', '/nowhere'];
  const cases = paths.flatMap((path) =>
    hosts.flatMap((host) => keys.map((key) => ({ path, host, key }))),
  );

  it.each(cases)('$path, Host $host, key $key', async ({ path, host, key }) => {
    const headers: Record<string, string> = {};
    if (host !== undefined) headers.host = host;
    if (key !== undefined) headers['x-api-key'] = key;
    const options = { headers, setHost: false };
    const [real, starting] = await Promise.all([
      send(gw.port, path, options),
      send(early.address.port, path, options),
    ]);
    // Refused by Host on one exactly when refused on the other, with the same detail.
    expect(starting.status === 403, `real ${real.status}, early ${starting.status}`).toBe(
      real.status === 403,
    );
    if (real.status === 403) expect(starting.body).toBe(real.body);
    // No Host at all in HTTP/1.1: Node itself refuses it (400) on both, before any handler.
    else if (host === undefined) expect([real.status, starting.status]).toEqual([400, 400]);
    else if (path === '/health') expect([real.status, starting.status]).toEqual([200, 200]);
    else if (path === '/ready') expect(starting.status).toBe(503);
    else expect(starting.status).toBe(503);
    if (path === '/health' && real.status === 200)
      expect(JSON.parse(starting.body)).toEqual(JSON.parse(real.body));
  });
});

describe('the handover', () => {
  /** A stand-in for the gateway's server: answers 200 "real", keep-alive. */
  function realServer(): Server {
    const server = createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/plain');
      res.end('real');
    });
    servers.push(server);
    return server;
  }

  it('passes the listening socket: no request refused or reset across it, the new server answers after', async () => {
    const early = await bind();
    const { port } = early.address;
    const target = realServer();
    const failures: string[] = [];
    const answers: string[] = [];
    let handedOver = false;
    const after: string[] = [];
    const loop = async () => {
      for (let i = 0; i < 60; i += 1) {
        try {
          const answer = await send(port, '/health');
          const who = answer.body === 'real' ? 'real' : `early ${answer.status}`;
          answers.push(who);
          if (handedOver) after.push(who);
        } catch (error) {
          failures.push((error as NodeJS.ErrnoException).code ?? String(error));
        }
        if (i === 20 && !handedOver) {
          handedOver = true;
          await early.handOver(target);
        }
      }
    };
    await Promise.all([loop(), loop(), loop(), loop()]);
    expect(failures).toEqual([]);
    expect(answers).toContain('early 200');
    expect(answers).toContain('real');
    // Once the handover is done, new connections reach only the new server.
    const next = await send(port, '/health');
    expect(next.body).toBe('real');
    expect(target.address()).toMatchObject({ port });
  });

  it('lets a request that reached the early listener finish after the handover', async () => {
    const early = await bind();
    const { port } = early.address;
    const socket: Socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    // Let the early listener accept the connection and read the first half of the request.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await early.handOver(realServer());
    socket.write('\r\n');
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(received).toContain('"status":"ok"');
    expect(received).toMatch(/\r\nConnection: close\r\n/i);
  });

  it('does nothing on close after the handover: the new server keeps the socket', async () => {
    const early = await bind();
    await early.handOver(realServer());
    early.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await send(early.address.port, '/anything')).body).toBe('real');
  });
});
