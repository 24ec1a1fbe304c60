import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Backend } from '../backends/ports.ts';
import { silentLogger } from '../logger.ts';
import { createSandboxServer } from '../server.ts';
import type { SkillLauncher, SkillProcessEvents } from './launcher.ts';

const TOKEN = 'skill-socket-test-token-0123456789';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const START = JSON.stringify({
  name: 'echo',
  kind: 'mjs',
  files: { 'skill.mjs': b64('x') },
  runtime: { 'runtime.mjs': b64('x') },
});

const backend: Backend = {
  name: 'process',
  isolation: 'process-group',
  run: () => Promise.reject(new Error('not used')),
  ping: () => Promise.resolve(true),
  close: () => Promise.resolve(),
};

/** A launcher whose host echoes each stdin chunk to stdout; it records kills. */
function echoLauncher() {
  const kills: string[] = [];
  const launcher: SkillLauncher = {
    isolation: 'process',
    start(start, events: SkillProcessEvents) {
      return Promise.resolve({
        write: (bytes: Buffer) => events.stdout(bytes),
        kill: () => {
          kills.push(start.name);
          events.exit('signal SIGKILL');
        },
      });
    },
  };
  return { launcher, kills };
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function listen(
  launcher: SkillLauncher,
  extra: { startTimeoutMs?: number; maxHosts?: number } = {},
) {
  server = createSandboxServer({
    backend,
    token: TOKEN,
    logger: silentLogger(),
    skills: { launcher, ...extra },
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}/skills/host`;
}

function connect(url: string) {
  const socket = new WebSocket(url, { headers: { 'x-sandbox-token': TOKEN } });
  const messages: { binary: boolean; text: string }[] = [];
  socket.on('message', (data: Buffer, binary) => messages.push({ binary, text: data.toString() }));
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  const opened = new Promise((resolve, reject) =>
    socket.once('open', resolve).once('error', reject),
  );
  return { socket, messages, closed, opened };
}

describe('GET /skills/host', () => {
  it('lines go to the host’s stdin; its stdout comes back as binary messages; close kills it', async () => {
    const { launcher, kills } = echoLauncher();
    const client = connect(await listen(launcher));
    await client.opened;
    client.socket.send(START);
    client.socket.send('{"id":1,"method":"tools"}\n'); // queued while the host starts
    await expect.poll(() => client.messages.length).toBe(1);
    expect(client.messages[0]).toEqual({ binary: true, text: '{"id":1,"method":"tools"}\n' });
    client.socket.close();
    await client.closed;
    await expect.poll(() => kills).toEqual(['echo']);
  });

  it('no start frame in time: 4408 with a detail', async () => {
    const client = connect(await listen(echoLauncher().launcher, { startTimeoutMs: 100 }));
    expect(await client.closed).toBe(4408);
    expect(JSON.parse(client.messages[0]!.text)).toEqual({ detail: 'no start frame in time' });
  });

  it('a binary message after the start is refused (4400) and the host is killed', async () => {
    const { launcher, kills } = echoLauncher();
    const client = connect(await listen(launcher));
    await client.opened;
    client.socket.send(START);
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.socket.send(Buffer.from('raw'), { binary: true });
    expect(await client.closed).toBe(4400);
    expect(kills).toEqual(['echo']);
  });

  it('more hosts than allowed: 503 before the upgrade; other paths 404', async () => {
    const url = await listen(echoLauncher().launcher, { maxHosts: 1 });
    const first = connect(url);
    await first.opened;
    const second = new WebSocket(url, { headers: { 'x-sandbox-token': TOKEN } });
    const status = await new Promise<number | undefined>((resolve) => {
      second.on('unexpected-response', (_request, response) => resolve(response.statusCode));
      second.on('error', () => resolve(undefined));
    });
    expect(status).toBe(503);
    const other = new WebSocket(url.replace('/skills/host', '/skills/other'), {
      headers: { 'x-sandbox-token': TOKEN },
    });
    const otherStatus = await new Promise<number | undefined>((resolve) => {
      other.on('unexpected-response', (_request, response) => resolve(response.statusCode));
      other.on('error', () => resolve(undefined));
    });
    expect(otherStatus).toBe(404);
    first.socket.close();
  });
});
