/**
 * What the skill-host sidecar (and a host inside it) can send has a cap, a counter and a clear
 * error. The real sidecar process stops a host whose output — stdout or stderr — the gateway
 * does not read; and against a hostile sidecar on 127.0.0.1, the gateway's side gives up on an
 * oversized message, an endless refusal and an endless `/health` answer.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { silentLogger } from '../../observability/logger.ts';
import { sidecarHealth } from './sidecar-address.ts';
import { createSidecarSkillIsolation } from './sidecar-isolation.ts';
import { skillHostUrl } from './sidecar-link.ts';
import type { SkillInputLimit } from './skill-process.ts';
import { createSkillFixture, type SkillFixture } from './testing/skill-fixture.ts';
import { startSidecarProcess, type SidecarProcess } from './testing/sidecar-process.ts';

const RUNTIME_DIR = join(dirname(fileURLToPath(import.meta.url)), 'runtime');
const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

/**
 * Writes 1 GiB to stderr, 1 KiB at a time (waiting out a full pipe), then answers. The sidecar
 * passes at most 8 KiB of each read on: small writes keep every byte of them in its messages.
 */
const SHOUTING = `
import { writeSync } from 'node:fs';
export function shout() {
  const chunk = Buffer.alloc(1_024, 0x65);
  for (let i = 0; i < 1_048_576; i += 1) {
    for (let written = 0; written < chunk.length; ) {
      try {
        written += writeSync(2, chunk, written);
      } catch (error) {
        if (error.code !== 'EAGAIN') throw error;
      }
    }
  }
  return 'done shouting';
}
`;

describe('the real sidecar stops a host whose output the gateway does not read', () => {
  let sidecar: SidecarProcess;
  beforeAll(async () => {
    sidecar = await startSidecarProcess();
  }, 40_000);
  afterAll(() => sidecar.stop());

  it('a host flooding stderr while 32 MiB wait unread is killed, not buffered', async () => {
    const runtime = Object.fromEntries(
      await Promise.all(
        ['runtime.mjs', 'skill-api.mjs'].map(
          async (name) => [name, b64(await readFile(join(RUNTIME_DIR, name)))] as const,
        ),
      ),
    );
    const socket = new WebSocket(skillHostUrl(sidecar.url), {
      headers: { 'x-sandbox-token': sidecar.token },
    });
    const texts: string[] = [];
    const closed = new Promise<number>((resolve) => socket.on('close', resolve));
    socket.on('message', (data: Buffer, binary) => {
      if (binary) texts.push(data.toString('utf8'));
      else if (!data.toString('utf8').startsWith('{"stderr"')) texts.push(data.toString('utf8'));
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.send(
      JSON.stringify({
        name: 'shouting',
        kind: 'mjs',
        files: { 'skill.mjs': b64(SHOUTING) },
        runtime,
      }),
    );
    socket.send('{"id":1,"method":"tools"}\n');
    await expect.poll(() => texts.join(''), { timeout: 15_000 }).toContain('"id":1');
    // The gateway stops reading; the host shouts.
    socket.pause();
    socket.send('{"id":2,"method":"call","params":{"tool":"shout","args":{}}}\n');
    await expect
      .poll(() => sidecar.log(), { timeout: 30_000 })
      .toContain('the gateway does not read its output fast enough');
    socket.resume();
    await closed;
    expect(texts.join('')).not.toContain('done shouting');
    expect(texts.some((text) => text.startsWith('{"exit":"signal SIGKILL"'))).toBe(true);
  }, 60_000);
});

/** A hostile sidecar on 127.0.0.1: what it does with each upgrade is up to the test. */
function hostileSidecar() {
  const server: Server = createServer((req, res) => {
    if (req.url === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      res.write('{"status":"ok","pad":"');
      pump();
      return;
    }
    res.writeHead(404).end();
  });
  const sockets = new WebSocketServer({ noServer: true });
  let onUpgrade: (req: IncomingMessage, socket: Socket, head: Buffer) => void = () => undefined;
  server.on('upgrade', (req, socket: Socket, head: Buffer) => onUpgrade(req, socket, head));
  return {
    server,
    sockets,
    /** Accepts the socket; answers the tool listing with a message of `bytes`. */
    oversized(bytes: number) {
      onUpgrade = (req, socket, head) =>
        sockets.handleUpgrade(req, socket, head, (ws) => {
          ws.on('message', (data: Buffer) => {
            if (data.toString('utf8').includes('"method":"tools"'))
              ws.send(Buffer.alloc(bytes, 0x20), { binary: true });
          });
        });
    },
    /** Refuses the upgrade with a 401 whose body never ends; records when it was cut. */
    endlessRefusal(cut: { at?: number }) {
      onUpgrade = (_req, socket) => {
        socket.write('HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\n\r\n');
        const chunk = Buffer.alloc(16 * 1024, 0x20);
        let written = 0;
        const pump = () => {
          while (!socket.destroyed && socket.write(chunk)) written += chunk.length;
          if (!socket.destroyed) socket.once('drain', pump);
        };
        socket.on('error', () => undefined);
        socket.once('close', () => (cut.at = written));
        pump();
      };
    },
  };
}

describe('against a hostile sidecar, the gateway’s side gives up at its caps', () => {
  const hostile = hostileSidecar();
  let url: string;
  let fixture: SkillFixture;
  const refused: SkillInputLimit[] = [];
  beforeAll(async () => {
    await new Promise<void>((resolve) => hostile.server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(hostile.server.address() as AddressInfo).port}`;
    fixture = await createSkillFixture();
  });
  afterEach(() => {
    refused.length = 0;
  });
  afterAll(async () => {
    for (const client of hostile.sockets.clients) client.terminate();
    hostile.server.closeAllConnections();
    await new Promise((resolve) => hostile.server.close(resolve));
    await fixture.remove();
  });
  const isolation = () =>
    createSidecarSkillIsolation({
      url,
      token: () => 'a-token-for-the-hostile-sidecar',
      logger: silentLogger(),
      limits: { startTimeoutMs: 10_000 },
      onRefused: (limit) => refused.push(limit),
    });

  it('a message over 1 MiB closes the link: the skill fails to load, saying so, counted', async () => {
    hostile.oversized(2 * 1024 * 1024);
    const skill = await fixture.write('big', 'mjs', 'export function a() { return 1; }\n');
    await expect(isolation().start(skill)).rejects.toThrow(
      'skill big: the sandbox sent a message larger than 1048576 bytes; the connection was closed',
    );
    expect(refused).toEqual(['sidecar_message_bytes']);
  });

  it('an endless refusal is read up to 16 KiB, then cut: the start fails with the status', async () => {
    const cut: { at?: number } = {};
    hostile.endlessRefusal(cut);
    const skill = await fixture.write('refused', 'mjs', 'export function a() { return 1; }\n');
    await expect(isolation().start(skill)).rejects.toThrow(
      /^skill refused: the sandbox sidecar refused the skill host \(HTTP 401: the sidecar’s refusal is larger than 16384 bytes/,
    );
    await expect.poll(() => cut.at, { timeout: 5_000 }).toBeDefined();
    expect(cut.at).toBeLessThan(32 * 1024 * 1024);
  });

  it('an endless /health answer is cut at 64 KiB with a clear error', async () => {
    await expect(sidecarHealth(url, {})).rejects.toThrow(
      "the sidecar's /health answer is larger than 65536 bytes: reading it was aborted",
    );
  });
});
