import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestGateway, type TestGateway } from '../../testing/gateway/test-gateway.ts';

type Frame = Record<string, unknown> & { type: string };

/** A WebSocket client that collects frames and can wait for one matching a predicate. */
async function client(
  url: string,
  options: { headers?: Record<string, string>; protocols?: string[] } = {},
) {
  const socket = new WebSocket(url, options.protocols ?? [], { headers: options.headers ?? {} });
  const frames: Frame[] = [];
  const waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  socket.on('message', (data: Buffer) => {
    const frame = JSON.parse(data.toString()) as Frame;
    frames.push(frame);
    for (const waiter of [...waiters]) {
      if (waiter.match(frame)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(frame);
      }
    }
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    frames,
    closed,
    send: (frame: unknown) => socket.send(JSON.stringify(frame)),
    next: (match: (f: Frame) => boolean, ms = 5_000) =>
      new Promise<Frame>((resolve, reject) => {
        const found = frames.find(match);
        if (found) return resolve(found);
        const timer = setTimeout(
          () => reject(new Error(`no matching frame in ${ms} ms: ${JSON.stringify(frames)}`)),
          ms,
        );
        waiters.push({
          match,
          resolve: (frame) => {
            clearTimeout(timer);
            resolve(frame);
          },
        });
      }),
  };
}

/** The HTTP status an upgrade was refused with (the socket never opened). */
function refusedStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('open', () => reject(new Error(`${url} opened`)));
    socket.on('error', () => undefined);
  });
}

/** Runs one command on a fresh terminal socket and returns every frame up to its exit. */
async function runOnce(url: string, command: string, headers: Record<string, string> = {}) {
  const terminal = await client(url, { headers });
  terminal.send({ type: 'run', command });
  const exit = await terminal.next((f) => f.type === 'exit');
  terminal.socket.close();
  const output = (stream: string) =>
    terminal.frames
      .filter((f) => f.type === 'output' && f.stream === stream)
      .map((f) => f.data)
      .join('');
  return { frames: terminal.frames, exit, stdout: output('stdout'), stderr: output('stderr') };
}

const processAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The program a process runs now ('' when it is gone). */
function programOf(pid: number): string {
  try {
    return execFileSync('ps', ['-o', 'comm=', '-p', String(pid)], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

async function eventually(check: () => boolean | Promise<boolean>, ms = 3_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const PROVIDER_SECRET = 'sk-ant-secret';
const CONFIGURED_SECRET = 'cfg-openai-key-4711';

describe('/ws/terminal, the embedded terminal', () => {
  let gw: TestGateway;
  let url: string;
  /** The local token from {data_dir}/terminal.token: no API key is set here. */
  let auth: Record<string, string>;
  beforeAll(async () => {
    gw = await startTestGateway({
      config: { models: { openai_api_key: CONFIGURED_SECRET } },
      processEnv: {
        PATH: '/usr/local/bin:/usr/bin:/bin',
        LANG: 'C.UTF-8',
        ANTHROPIC_API_KEY: PROVIDER_SECRET,
        // An innocent name carrying a configured secret value is dropped too.
        NOTES: `key is ${CONFIGURED_SECRET}`,
        HEARTH_TERMINAL_PROBE: 'visible',
      },
    });
    await gw.gateway.whenReady();
    url = `ws://127.0.0.1:${gw.port}/ws/terminal`;
    auth = { 'x-api-key': (await readFile(join(gw.home, 'terminal.token'), 'utf8')).trim() };
  });
  afterAll(() => gw.close());

  it('runs a command and streams both output streams as frames, then its exit code', async () => {
    const { frames, exit, stdout, stderr } = await runOnce(url, 'echo hi; echo err 1>&2', auth);
    expect(frames[0]).toEqual({
      type: 'started',
      command: 'echo hi; echo err 1>&2',
      pid: expect.any(Number),
    });
    expect(stdout).toBe('hi\n');
    expect(stderr).toBe('err\n');
    expect(exit).toEqual({ type: 'exit', code: 0, signal: null });
    expect(frames.at(-1)).toBe(exit);
    expect((await runOnce(url, 'exit 3', auth)).exit).toEqual({
      type: 'exit',
      code: 3,
      signal: null,
    });
  });

  it('appends every command to {data_dir}/terminal_history.log with a timestamp', async () => {
    const before = Date.now();
    await runOnce(url, 'echo history-one', auth);
    await runOnce(url, "printf 'a\\nb'\necho two-lines", auth);
    const file = join(gw.home, 'terminal_history.log');
    let lines: string[] = [];
    await eventually(async () => {
      lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
      return lines.some((line) => line.endsWith('echo two-lines'));
    });
    const one = lines.find((line) => line.endsWith(' echo history-one'));
    expect(one).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z echo history-one$/);
    const stamp = Date.parse(one!.split(' ')[0]!);
    expect(stamp).toBeGreaterThanOrEqual(before - 1_000);
    expect(stamp).toBeLessThanOrEqual(Date.now());
    // A multi-line command stays one line of history.
    expect(lines.at(-1)).toMatch(/^\S+Z printf 'a\\nb'\\necho two-lines$/);
  });

  it('writes control characters to the history as escapes, so a reader sees what ran', async () => {
    await runOnce(url, 'echo shown #\u001b[2K\r\u001b[32mls -la\u202e\u0085', auth);
    const file = join(gw.home, 'terminal_history.log');
    let text = '';
    await eventually(async () => {
      text = await readFile(file, 'utf8');
      return text.includes('echo shown');
    });
    const line = text.split('\n').find((l) => l.includes('echo shown'));
    expect(line).toMatch(/Z echo shown #\\x1b\[2K\\r\\x1b\[32mls -la\\u202e\\x85$/);
    for (const hidden of ['\u001b', '\r', '\u202e', '\u0085']) expect(text).not.toContain(hidden);
  });

  it('interrupt stops a running command well within a second, and the terminal runs the next one', async () => {
    const terminal = await client(url, { headers: auth });
    // `exec` makes the started pid the sleep itself; the interrupt is sent once it is running
    // (a SIGINT that reaches `sh -c` before it started the command is swallowed by the shell).
    terminal.send({ type: 'run', command: 'exec sleep 30' });
    const started = await terminal.next((f) => f.type === 'started');
    await eventually(() => programOf(started.pid as number) === 'sleep');
    const sent = performance.now();
    terminal.send({ type: 'interrupt' });
    const exit = await terminal.next((f) => f.type === 'exit');
    const elapsed = performance.now() - sent;
    expect(exit).toEqual({ type: 'exit', code: null, signal: 'SIGINT' });
    expect(elapsed).toBeLessThan(1_000);

    terminal.send({ type: 'run', command: 'echo after-interrupt' });
    const next = await terminal.next((f) => f.type === 'exit' && f !== exit);
    expect(next).toEqual({ type: 'exit', code: 0, signal: null });
    expect(terminal.frames).toContainEqual({
      type: 'output',
      stream: 'stdout',
      data: 'after-interrupt\n',
    });
    expect(terminal.frames.filter((f) => f.type === 'error')).toEqual([]);
    terminal.socket.close();
  });

  it('a second interrupt kills a command that ignores SIGINT', async () => {
    const terminal = await client(url, { headers: auth });
    terminal.send({ type: 'run', command: "trap '' INT; echo ignoring; sleep 30" });
    await terminal.next((f) => f.type === 'output' && f.data === 'ignoring\n');
    terminal.send({ type: 'interrupt' });
    terminal.send({ type: 'interrupt' });
    expect(await terminal.next((f) => f.type === 'exit')).toEqual({
      type: 'exit',
      code: null,
      signal: 'SIGKILL',
    });
    terminal.socket.close();
  });

  it('refuses a second run while one is running, and kills the command when the socket closes', async () => {
    const terminal = await client(url, { headers: auth });
    terminal.send({ type: 'run', command: 'sleep 30' });
    const started = await terminal.next((f) => f.type === 'started');
    terminal.send({ type: 'run', command: 'echo second' });
    expect(await terminal.next((f) => f.type === 'error')).toEqual({
      type: 'error',
      detail: 'A command is already running; interrupt it first',
    });
    const pid = started.pid as number;
    expect(processAlive(pid)).toBe(true);
    terminal.socket.close();
    await eventually(() => !processAlive(pid), 1_000);
  });

  it('answers bad frames with an error and keeps the socket open', async () => {
    const terminal = await client(url, { headers: auth });
    terminal.send({ type: 'run', command: '   ' });
    expect(await terminal.next((f) => f.type === 'error')).toEqual({
      type: 'error',
      detail: 'command: must be a non-empty string',
    });
    terminal.send({ type: 'dance' });
    expect(await terminal.next((f) => f.detail === "Unknown frame type 'dance'")).toBeTruthy();
    terminal.send({ type: 'ping' });
    expect(await terminal.next((f) => f.type === 'pong')).toEqual({ type: 'pong' });
    terminal.socket.close();
  });

  it('gives commands a scrubbed environment: no provider key, no configured secret', async () => {
    const { stdout, exit } = await runOnce(url, 'printenv', auth);
    expect(exit).toMatchObject({ code: 0 });
    expect(stdout).not.toContain(PROVIDER_SECRET);
    expect(stdout).not.toContain(CONFIGURED_SECRET);
    expect(stdout).not.toMatch(/^ANTHROPIC_API_KEY=/m);
    expect(stdout).not.toMatch(/^NOTES=/m);
    expect(stdout).not.toMatch(/^HEARTH_TERMINAL_PROBE=/m);
    expect(stdout).toMatch(/^PATH=\/usr\/local\/bin:\/usr\/bin:\/bin$/m);
    expect(stdout).toMatch(/^LANG=C\.UTF-8$/m);
  });

  it('is not approval-gated: security "deny" does not stop it and nothing becomes pending', async () => {
    const policy = await fetch(`${gw.url}/api/v1/approvals/policy`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ security: 'deny' }),
    });
    expect(((await policy.json()) as { security: string }).security).toBe('deny');
    try {
      const { stdout, exit } = await runOnce(url, 'echo ungated', auth);
      expect(stdout).toBe('ungated\n');
      expect(exit).toMatchObject({ code: 0 });
      const pending = await fetch(`${gw.url}/api/v1/approvals/pending`);
      expect(await pending.json()).toEqual({ pending: [] });
    } finally {
      await fetch(`${gw.url}/api/v1/approvals/policy`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ security: 'allowlist' }),
      });
    }
  });

  it('closes a foreign Origin with 1008 and accepts the gateway’s own origin', async () => {
    const foreign = new WebSocket(url, { headers: { ...auth, origin: 'https://evil.example' } });
    const code = await new Promise<number>((resolve) => foreign.on('close', (c) => resolve(c)));
    expect(code).toBe(1008);
    const own = await client(url, {
      headers: { ...auth, origin: `http://localhost:${gw.port}` },
    });
    own.send({ type: 'ping' });
    expect(await own.next((f) => f.type === 'pong')).toEqual({ type: 'pong' });
    own.socket.close();
  });
});

describe('/ws/terminal with gateway.api_key set', () => {
  const KEY = 'terminal-key-0123456789';
  let gw: TestGateway;
  let url: string;
  beforeAll(async () => {
    gw = await startTestGateway({ config: { gateway: { api_key: KEY } } });
    await gw.gateway.whenReady();
    url = `ws://127.0.0.1:${gw.port}/ws/terminal`;
  });
  afterAll(() => gw.close());

  it('refuses the upgrade with 401 without the key or with a wrong one', async () => {
    expect(await refusedStatus(url)).toBe(401);
    expect(await refusedStatus(url, { 'x-api-key': 'wrong' })).toBe(401);
    expect(
      await refusedStatus(url, {
        'sec-websocket-protocol': `hearth.key.${Buffer.from('wrong').toString('base64url')}`,
      }),
    ).toBe(401);
  });

  it('accepts the key in the X-API-Key header', async () => {
    const { stdout, exit } = await runOnce(url, 'echo with-header', { 'x-api-key': KEY });
    expect(stdout).toBe('with-header\n');
    expect(exit).toMatchObject({ code: 0 });
  });

  it('accepts the key as a subprotocol token hearth.key.<base64url(key)> (browsers)', async () => {
    const token = `hearth.key.${Buffer.from(KEY).toString('base64url')}`;
    const terminal = await client(url, { protocols: ['hearth.terminal', token] });
    terminal.send({ type: 'run', command: 'echo with-token' });
    expect(await terminal.next((f) => f.type === 'exit')).toMatchObject({ code: 0 });
    expect(terminal.frames).toContainEqual({
      type: 'output',
      stream: 'stdout',
      data: 'with-token\n',
    });
    terminal.socket.close();
  });

  it('selects the key subprotocol in the handshake when only it was offered (browsers)', async () => {
    const token = `hearth.key.${Buffer.from(KEY).toString('base64url')}`;
    const terminal = await client(url, { protocols: [token] });
    expect(terminal.socket.protocol).toBe(token);
    terminal.socket.close();
  });

  it('the key replaces the local token: no token file is written', async () => {
    await expect(readFile(join(gw.home, 'terminal.token'), 'utf8')).rejects.toThrow(/ENOENT/);
  });
});

describe('/ws/terminal on a non-loopback bind', () => {
  const KEY = 'wide-open-key-0123456789';
  const start = (terminal: 'auto' | 'on' | 'off', host = '0.0.0.0') =>
    startTestGateway({ config: { gateway: { host, api_key: KEY }, security: { terminal } } });

  it('is off by default (terminal = auto): the upgrade is answered 404', async () => {
    const gw = await start('auto');
    try {
      expect(gw.gateway.sockets.paths()).not.toContain('/ws/terminal');
      expect(
        await refusedStatus(`ws://127.0.0.1:${gw.port}/ws/terminal`, { 'x-api-key': KEY }),
      ).toBe(404);
    } finally {
      await gw.close();
    }
  });

  it('is served when terminal = on (with the key)', async () => {
    const gw = await start('on');
    try {
      await gw.gateway.whenReady();
      const { stdout } = await runOnce(`ws://127.0.0.1:${gw.port}/ws/terminal`, 'echo on', {
        'x-api-key': KEY,
      });
      expect(stdout).toBe('on\n');
    } finally {
      await gw.close();
    }
  });

  it('terminal = off removes it even on loopback', async () => {
    const gw = await start('off', '127.0.0.1');
    try {
      expect(await refusedStatus(`ws://127.0.0.1:${gw.port}/ws/terminal`)).toBe(404);
    } finally {
      await gw.close();
    }
  });
});
