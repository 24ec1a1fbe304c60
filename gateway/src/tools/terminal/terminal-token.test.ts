import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestGateway, type TestGateway } from '../../testing/gateway/test-gateway.ts';

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

const keyProtocol = (secret: string) => `hearth.key.${Buffer.from(secret).toString('base64url')}`;

/** A Node binary another account can run, for the other-uid attempt; undefined when none. */
function nodeForNobody(): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const candidate of [process.execPath, '/usr/bin/node', '/usr/local/bin/node']) {
    const probe = spawnSync('runuser', ['-u', 'nobody', '--', candidate, '-e', '0'], {
      timeout: 10_000,
    });
    if (probe.status === 0) return candidate;
  }
  return undefined;
}
const OTHER_UID_NODE = nodeForNobody();

describe('/ws/terminal without an API key: the local token', () => {
  let gw: TestGateway;
  let url: string;
  let token: string;
  beforeAll(async () => {
    gw = await startTestGateway();
    url = `ws://127.0.0.1:${gw.port}/ws/terminal`;
    token = (await readFile(join(gw.home, 'terminal.token'), 'utf8')).trim();
  });
  afterAll(() => gw.close());

  it('is created on first start in {data_dir}/terminal.token, 0600, 256 random bits', async () => {
    const info = await stat(join(gw.home, 'terminal.token'));
    expect(info.mode & 0o777).toBe(0o600);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses the upgrade with 401 without the token, with a wrong one, or an empty one', async () => {
    expect(await upgradeStatus(url)).toBe(401);
    expect(await upgradeStatus(url, { headers: { 'x-api-key': 'wrong' } })).toBe(401);
    expect(await upgradeStatus(url, { headers: { 'x-api-key': '' } })).toBe(401);
    expect(await upgradeStatus(url, { protocols: [keyProtocol(token.slice(1))] })).toBe(401);
  });

  it('accepts the token as X-API-Key or as subprotocol, and selects the subprotocol', async () => {
    expect(await upgradeStatus(url, { headers: { 'x-api-key': token } })).toBe(101);
    const socket = new WebSocket(url, [keyProtocol(token)]);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    expect(socket.protocol).toBe(keyProtocol(token));
    socket.close();
  });

  it('keeps the chat sockets open to loopback clients without a secret, as before', async () => {
    expect(await upgradeStatus(`ws://127.0.0.1:${gw.port}/ws`)).toBe(101);
    expect(await upgradeStatus(`ws://127.0.0.1:${gw.port}/ws/chat`)).toBe(101);
  });

  it.skipIf(OTHER_UID_NODE === undefined)(
    'another account on the machine (uid nobody) can neither read the token nor open the terminal',
    async () => {
      // Skipped when not root, without runuser, or with no Node binary that nobody can run.
      const script = `
        const http = require('node:http');
        let readable = 'yes';
        try { require('node:fs').readFileSync(${JSON.stringify(join(gw.home, 'terminal.token'))}); }
        catch (error) { readable = error.code; }
        const req = http.request({ host: '127.0.0.1', port: ${gw.port}, path: '/ws/terminal',
          headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13',
                     'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' } });
        req.on('upgrade', () => { console.log(JSON.stringify({ uid: process.getuid(), readable, status: 101 })); process.exit(0); });
        req.on('response', (res) => { console.log(JSON.stringify({ uid: process.getuid(), readable, status: res.statusCode })); process.exit(0); });
        req.end();`;
      // Asynchronously: the gateway answers from this process's event loop.
      const { stdout } = await promisify(execFile)(
        'runuser',
        ['-u', 'nobody', '--', OTHER_UID_NODE!, '-e', script],
        { encoding: 'utf8', timeout: 15_000 },
      );
      expect(JSON.parse(stdout)).toEqual({ uid: 65534, readable: 'EACCES', status: 401 });
    },
  );
});

describe('the local token across restarts', () => {
  it('is kept while it is private, and replaced when others could read it', async () => {
    const first = await startTestGateway();
    const file = join(first.home, 'terminal.token');
    const token = (await readFile(file, 'utf8')).trim();
    await first.gateway.close();

    const again = await startTestGateway({ home: first.home });
    await again.gateway.close();
    expect((await readFile(file, 'utf8')).trim()).toBe(token);

    await chmod(file, 0o644);
    const loosened = await startTestGateway({ home: first.home });
    try {
      const replaced = (await readFile(file, 'utf8')).trim();
      expect(replaced).not.toBe(token);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const url = `ws://127.0.0.1:${loosened.port}/ws/terminal`;
      expect(await upgradeStatus(url, { headers: { 'x-api-key': token } })).toBe(401);
      expect(await upgradeStatus(url, { headers: { 'x-api-key': replaced } })).toBe(101);
    } finally {
      await loosened.close();
    }
  });

  it('replaces a malformed token file', async () => {
    const gw = await startTestGateway();
    const file = join(gw.home, 'terminal.token');
    await gw.gateway.close();
    await writeFile(file, 'short\n', { mode: 0o600 });
    const again = await startTestGateway({ home: gw.home });
    try {
      expect((await readFile(file, 'utf8')).trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    } finally {
      await again.close();
    }
  });
});
