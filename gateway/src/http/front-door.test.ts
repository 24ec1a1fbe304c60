import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { configSchema } from '../config/schema.ts';
import { rawRequest } from '../testing/fakes/raw-request.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';

/** The HTTP status an upgrade was refused with, or 101 when the socket opened. */
function upgradeStatus(
  url: string,
  options: { headers?: Record<string, string>; protocols?: string[] } = {},
): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, options.protocols ?? [], { headers: options.headers ?? {} });
    socket.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('open', () => {
      resolve(101);
      socket.close();
    });
    socket.on('error', () => undefined);
  });
}

/**
 * Opens a socket and resolves with its close code, or 'open' when it stayed open. `host` stands
 * for the address the client used (a published port) when given.
 */
function originOutcome(url: string, origin: string, host?: string): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers: { origin, ...(host ? { host } : {}) } });
    const timer = setTimeout(() => {
      resolve('open');
      socket.close();
    }, 500);
    socket.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    socket.on('error', () => undefined);
  });
}

const keyProtocol = (secret: string) => `hearth.key.${Buffer.from(secret).toString('base64url')}`;

/** One route of each family: status, data reads, state changes, docs, 404. */
const ROUTES: [method: string, path: string][] = [
  ['GET', '/ready'],
  ['GET', '/api/v1/status'],
  ['GET', '/api/v1/memory/entries'],
  ['GET', '/api/v1/settings'],
  ['GET', '/api/v1/sessions'],
  ['GET', '/api/v1/approvals/pending'],
  ['GET', '/api/v1/privacy/report'],
  ['POST', '/api/v1/settings/privacy'],
  ['POST', '/api/v1/chat'],
  ['GET', '/openapi.json'],
  ['GET', '/docs'],
  ['GET', '/no/such/route'],
];

const FOREIGN_HOSTS = [
  'attacker.example:7432',
  'attacker.example',
  'localhost.attacker.example',
  '127.0.0.1.nip.io',
  'evil@localhost',
  'localhost:80@evil.example',
  '127.0.0.1:7432 evil.example',
];

describe('Host check (DNS rebinding), default configuration', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
    await gw.gateway.whenReady();
  });
  afterAll(() => gw.close());

  it.each(ROUTES)(
    '%s %s with a foreign Host is 403 naming gateway.allowed_hosts',
    async (method, path) => {
      for (const host of FOREIGN_HOSTS) {
        const response = await rawRequest(gw.port, path, {
          method,
          headers: { host, 'content-type': 'application/json' },
          body: method === 'POST' ? '{"enabled": true, "message": "hi"}' : undefined,
        });
        expect(response.status, `Host ${JSON.stringify(host)}`).toBe(403);
        expect(JSON.parse(response.body).detail).toMatch(/gateway\.allowed_hosts/);
      }
    },
  );

  it('a state change with a foreign Host changes nothing', async () => {
    await rawRequest(gw.port, '/api/v1/settings/privacy', {
      method: 'POST',
      headers: { host: 'attacker.example:7432', 'content-type': 'application/json' },
      body: '{"enabled": true}',
    });
    const settings = await fetch(`${gw.url}/api/v1/settings`);
    expect(JSON.stringify(await settings.json())).not.toMatch(/"privacy_mode":\s*true/);
  });

  it.each([
    `localhost:PORT`,
    'localhost',
    'app.localhost:PORT',
    'LOCALHOST.:PORT',
    '127.0.0.1:PORT',
    '[::1]:PORT',
    '10.0.0.7:PORT',
  ])('allows Host %s', async (host) => {
    const response = await rawRequest(gw.port, '/api/v1/status', {
      headers: { host: host.replace('PORT', String(gw.port)) },
    });
    expect(response.status).toBe(200);
  });

  it('exempts only /health: it answers any Host', async () => {
    const health = await rawRequest(gw.port, '/health', { headers: { host: 'attacker.example' } });
    expect(health.status).toBe(200);
    const near = await rawRequest(gw.port, '/health/', { headers: { host: 'attacker.example' } });
    expect(near.status).toBe(403);
  });

  it.each(['/ws', '/ws/chat', '/ws/terminal', '/ws/nothing'])(
    'refuses a WebSocket upgrade to %s with a foreign Host (403)',
    async (path) => {
      const status = await upgradeStatus(`ws://127.0.0.1:${gw.port}${path}`, {
        headers: { host: 'attacker.example:7432' },
      });
      expect(status).toBe(403);
    },
  );
});

describe('Host check with names configured', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({
      config: {
        gateway: {
          allowed_hosts: ['hearth.example.org'],
          cors_origins: ['https://dash.example.net'],
        },
      },
    });
  });
  afterAll(() => gw.close());

  it.each(['hearth.example.org', 'HEARTH.example.org:443', 'dash.example.net'])(
    'allows %s (gateway.allowed_hosts, hosts of gateway.cors_origins)',
    async (host) => {
      expect((await rawRequest(gw.port, '/api/v1/status', { headers: { host } })).status).toBe(200);
      expect(await upgradeStatus(`ws://127.0.0.1:${gw.port}/ws`, { headers: { host } })).toBe(101);
    },
  );

  it('still refuses other names, including subdomains of allowed ones', async () => {
    for (const host of ['evil.hearth.example.org', 'example.org', 'attacker.example']) {
      expect((await rawRequest(gw.port, '/api/v1/status', { headers: { host } })).status).toBe(403);
    }
  });

  it.each(['https://x.example', 'x.example:443', 'x.example/path', ''])(
    'the config rejects allowed_hosts entry %j, naming the key',
    (entry) => {
      const parsed = configSchema.safeParse({ gateway: { allowed_hosts: [entry] } });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(['gateway', 'allowed_hosts', 0]);
    },
  );
});

describe('with gateway.api_key set', () => {
  const KEY = 'front-door-key-0123456789';
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ config: { gateway: { api_key: KEY } } });
    await gw.gateway.whenReady();
  });
  afterAll(() => gw.close());

  it('a request with the valid key passes with any Host; a wrong key does not', async () => {
    const withKey = await rawRequest(gw.port, '/api/v1/status', {
      headers: { host: 'hearth.proxy.internal', 'x-api-key': KEY },
    });
    expect(withKey.status).toBe(200);
    const wrong = await rawRequest(gw.port, '/api/v1/status', {
      headers: { host: 'hearth.proxy.internal', 'x-api-key': 'nope' },
    });
    expect(wrong.status).toBe(403);
  });

  it.each(['/ws', '/ws/chat', '/ws/terminal'])(
    '%s refuses the upgrade with 401 without the key or with a wrong one',
    async (path) => {
      const url = `ws://127.0.0.1:${gw.port}${path}`;
      expect(await upgradeStatus(url)).toBe(401);
      expect(await upgradeStatus(url, { headers: { 'x-api-key': 'wrong' } })).toBe(401);
      expect(await upgradeStatus(url, { protocols: [keyProtocol('wrong')] })).toBe(401);
      expect(await upgradeStatus(url, { protocols: ['hearth.key.%%%'] })).toBe(401);
    },
  );

  it.each(['/ws', '/ws/chat', '/ws/terminal'])(
    '%s accepts the key as X-API-Key, or as subprotocol which the handshake selects',
    async (path) => {
      const url = `ws://127.0.0.1:${gw.port}${path}`;
      expect(await upgradeStatus(url, { headers: { 'x-api-key': KEY } })).toBe(101);
      const socket = new WebSocket(url, [keyProtocol(KEY)]);
      await new Promise((resolve, reject) => {
        socket.once('open', resolve);
        socket.once('error', reject);
      });
      expect(socket.protocol).toBe(keyProtocol(KEY));
      socket.send(JSON.stringify({ type: 'ping' }));
      const reply = await new Promise<string>((resolve) =>
        socket.once('message', (data: Buffer) => resolve(data.toString())),
      );
      expect(JSON.parse(reply)).toEqual({ type: 'pong' });
      socket.close();
    },
  );

  it('a keyless client cannot flip settings over /ws/chat (it never gets a socket)', async () => {
    expect(await upgradeStatus(`ws://127.0.0.1:${gw.port}/ws/chat`)).toBe(401);
  });
});

describe('own origins are exactly the scheme, port and names the gateway serves', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({
      config: { gateway: { cors_origins: ['https://dash.example.net'] } },
    });
  });
  afterAll(() => gw.close());

  const own = (port: number) => [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
  const foreign = (port: number) => [
    `https://localhost:${port}`,
    `https://127.0.0.1:${port}`,
    `http://[::1]:${port}`,
    `https://[::1]:${port}`,
    `http://localhost:${port + 1}`,
    'http://localhost',
    'https://evil.example',
  ];

  it('CORS echoes the own origins and cors_origins, and refuses the rest with 403', async () => {
    for (const origin of [...own(gw.port), 'https://dash.example.net']) {
      const response = await rawRequest(gw.port, '/api/v1/status', { headers: { origin } });
      expect(response.status, origin).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe(origin);
    }
    for (const origin of foreign(gw.port)) {
      const response = await rawRequest(gw.port, '/api/v1/status', { headers: { origin } });
      expect(response.status, origin).toBe(403);
    }
  });

  it('every socket keeps the own origins and closes the rest with 1008', async () => {
    for (const path of ['/ws', '/ws/chat']) {
      const url = `ws://127.0.0.1:${gw.port}${path}`;
      for (const origin of own(gw.port))
        expect(await originOutcome(url, origin), origin).toBe('open');
      for (const origin of foreign(gw.port))
        expect(await originOutcome(url, origin), origin).toBe(1008);
    }
  });
});

describe('the origin a request arrives under is the gateway’s own (a published port, a forwarded one)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  // Docker publishes the container's 7432 on the host's 8080: the browser's page, its scripts
  // and its sockets all say Origin http://127.0.0.1:8080 and Host 127.0.0.1:8080.
  const published = [
    ['127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['localhost:8080', 'http://localhost:8080'],
    ['[::1]:9000', 'http://[::1]:9000'],
    ['hearth.localhost:8080', 'http://hearth.localhost:8080'],
  ] as const;

  it.each(published)(
    'REST with Host %s and Origin %s is served, with CORS headers',
    async (host, origin) => {
      const response = await rawRequest(gw.port, '/api/v1/status', { headers: { host, origin } });
      expect(response.status).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe(origin);
    },
  );

  it.each([
    ['another port than the Host', '127.0.0.1:8080', 'http://127.0.0.1:8081'],
    ['another name than the Host', '127.0.0.1:8080', 'http://localhost:8080'],
    ['https, which the gateway does not serve', '127.0.0.1:8080', 'https://127.0.0.1:8080'],
    ['a Host the gateway does not serve', 'attacker.example:8080', 'http://attacker.example:8080'],
    ['a rebinding name', '127.0.0.1.nip.io:8080', 'http://127.0.0.1.nip.io:8080'],
    ['no port on the Origin', '127.0.0.1:8080', 'http://127.0.0.1'],
    ['an Origin with a path trick', '127.0.0.1:8080', 'http://127.0.0.1:8080@evil.example'],
    ['the literal null', '127.0.0.1:8080', 'null'],
  ])('REST with %s is refused with 403', async (_name, host, origin) => {
    const response = await rawRequest(gw.port, '/api/v1/status', { headers: { host, origin } });
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body).detail).toEqual(expect.any(String));
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('a socket opened under the published address stays open; a mismatched one closes with 1008', async () => {
    const outcome = (host: string, origin: string) =>
      originOutcome(`ws://127.0.0.1:${gw.port}/ws/chat`, origin, host);
    expect(await outcome('127.0.0.1:8080', 'http://127.0.0.1:8080')).toBe('open');
    expect(await outcome('127.0.0.1:8080', 'http://127.0.0.1:8081')).toBe(1008);
    expect(await outcome('127.0.0.1:8080', 'https://127.0.0.1:8080')).toBe(1008);
  });
});
