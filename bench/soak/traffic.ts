/**
 * The soak's mixed traffic: one operation per kind, each checking its own outcome end to end
 * (a reply that does not carry the token the soak sent, a wrong status, a far end that never
 * hears back: each is a failure with its reason). `runLoop` repeats one kind until stopped.
 */
import { execFile } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import WebSocket from 'ws';
import { signedHeaders } from '../../gateway/src/channels/webhook/signature.ts';
import { WEBHOOK_SECRET, type FarEnds } from './far-ends.ts';
import type { Recorder } from './recorder.ts';

const run = promisify(execFile);

let sequence = 0;
/** A token the fake model echoes (`ack soak#<n>`), unique for the whole run. */
export const nextToken = (): string => `soak#${(sequence += 1)}`;

export interface Api {
  readonly baseUrl: string;
  call(
    method: string,
    path: string,
    body?: unknown,
    timeoutMs?: number,
  ): Promise<{ status: number; json: Record<string, unknown> }>;
}

export function createApi(baseUrl: string): Api {
  return {
    baseUrl,
    async call(method, path, body, timeoutMs = 30_000) {
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      let json: Record<string, unknown> = {};
      if (text !== '') {
        try {
          json = JSON.parse(text) as Record<string, unknown>;
        } catch {
          json = { text };
        }
      }
      return { status: res.status, json };
    },
  };
}

function expectStatus(
  what: string,
  res: { status: number; json: Record<string, unknown> },
  status: number,
): void {
  if (res.status !== status)
    throw new Error(`${what}: ${res.status} ${JSON.stringify(res.json).slice(0, 300)}`);
}

function expectText(what: string, text: unknown, needle: string): void {
  if (typeof text !== 'string' || !text.includes(needle))
    throw new Error(`${what}: expected “${needle}” in ${JSON.stringify(text).slice(0, 300)}`);
}

/** Polls `find` until it returns a value or `timeoutMs` passes. */
async function until<T>(
  what: string,
  find: () => T | undefined | Promise<T | undefined>,
  timeoutMs: number,
  everyMs = 20,
): Promise<T> {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (performance.now() > end) throw new Error(`${what}: nothing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

// ── REST chat ─────────────────────────────────────────────────────────────────────────────

/**
 * A REST turn: one of 12 long-lived sessions, every 20th a new session (sessions come and go as
 * they would); one message in ten states a preference, important enough for the long-term store.
 */
export function restChat(api: Api) {
  return async (n: number): Promise<void> => {
    const token = nextToken();
    const sessionId = n % 20 === 0 ? `soak-rest-new-${n}` : `soak-rest-${n % 12}`;
    const message =
      n % 10 === 0
        ? `Please remember that I prefer green tea in the afternoon (${token}).`
        : `What should I water next in the garden? (${token})`;
    const res = await api.call('POST', '/api/v1/chat', { message, session_id: sessionId });
    expectStatus('POST /chat', res, 200);
    expectText('POST /chat reply', res.json.reply, `ack ${token}`);
  };
}

// ── /ws/chat ─────────────────────────────────────────────────────────────────────────────

type Frame = Record<string, unknown> & { type?: string };

/** One /ws/chat connection with a frame buffer a turn reads from. */
class ChatSocket {
  readonly frames: Frame[] = [];
  private wake: (() => void) | undefined;
  private closedWith: string | undefined;
  readonly socket: WebSocket;

  constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (data: Buffer) => {
      try {
        this.frames.push(JSON.parse(data.toString()) as Frame);
      } catch {
        this.frames.push({ type: 'unparsable', text: data.toString().slice(0, 200) });
      }
      this.wake?.();
    });
    socket.on('close', (code, reason) => {
      this.closedWith = `closed ${code} ${reason.toString()}`;
      this.wake?.();
    });
    socket.on('error', (error) => {
      this.closedWith = `error ${error.message}`;
      this.wake?.();
    });
  }

  static open(url: string): Promise<ChatSocket> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      const chat = new ChatSocket(socket);
      socket.once('open', () => resolve(chat));
      socket.once('error', reject);
    });
  }

  send(frame: Frame): void {
    this.socket.send(JSON.stringify(frame));
  }

  /** Takes frames until one matches `done`; an `error` frame or a close fails the wait. */
  async read(done: (frame: Frame) => boolean, timeoutMs: number): Promise<Frame[]> {
    const taken: Frame[] = [];
    const end = performance.now() + timeoutMs;
    for (;;) {
      while (this.frames.length > 0) {
        const frame = this.frames.shift()!;
        if (frame.type === 'error') throw new Error(`error frame: ${String(frame.detail)}`);
        taken.push(frame);
        if (done(frame)) return taken;
      }
      if (this.closedWith) throw new Error(`socket ${this.closedWith}`);
      const left = end - performance.now();
      if (left <= 0)
        throw new Error(`no answer after ${timeoutMs} ms (${JSON.stringify(taken).slice(0, 200)})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  close(): void {
    this.socket.close(1000);
  }
}

/**
 * Streamed turns on /ws/chat (form B) as a web client makes them: its client id, `hello` with
 * one of 4 sessions, a `ping` now and then; a fresh connection every 25 turns.
 */
export function wsChat(wsUrl: string) {
  let current: ChatSocket | undefined;
  let turns = 0;
  let connections = 0;
  return {
    async turn(n: number): Promise<void> {
      if (!current || turns >= 25) {
        current?.close();
        current = undefined;
        connections += 1;
        const opened = await ChatSocket.open(`${wsUrl}/ws/chat?client_id=soak-ws-client`);
        opened.send({ type: 'hello', session_id: `soak-ws-${connections % 4}` });
        await opened.read((frame) => frame.type === 'hello', 10_000);
        current = opened;
        turns = 0;
      }
      turns += 1;
      const socket = current;
      try {
        if (n % 10 === 0) {
          socket.send({ type: 'ping' });
          await socket.read((frame) => frame.type === 'pong', 10_000);
        }
        const token = nextToken();
        socket.send({ type: 'message', content: `Tell me about compost, please (${token})` });
        const frames = await socket.read((frame) => frame.type === 'message_done', 30_000);
        const text = frames
          .filter((frame) => frame.type === 'message_chunk')
          .map((frame) => String(frame.delta))
          .join('');
        expectText('/ws/chat streamed reply', text, `ack ${token}`);
      } catch (error) {
        // A connection in an unknown state is not reused.
        socket.close();
        current = undefined;
        throw error;
      }
    },
    close(): void {
      current?.close();
    },
  };
}

// ── Channels ──────────────────────────────────────────────────────────────────────────────

/** A signed webhook delivery; the reply must reach the callback server, signed. */
export function webhookChannel(baseUrl: string, farEnds: FarEnds) {
  return async (n: number): Promise<void> => {
    const token = nextToken();
    const from = farEnds.callback.received.length;
    const body = JSON.stringify({
      id: `soak-${n}`,
      sender: 'soak',
      chat: `room-${n % 4}`,
      text: `Hello from the webhook (${token})`,
    });
    const res = await fetch(`${baseUrl}/api/v1/channels/webhook/hooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signedHeaders(WEBHOOK_SECRET, Date.now(), body),
      },
      body,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`webhook delivery: ${res.status} ${text.slice(0, 300)}`);
    const reply = await until(
      'webhook reply at the callback',
      () =>
        farEnds.callback.received
          .slice(from)
          .find((message) => message.text.includes(`ack ${token}`)),
      30_000,
    );
    if (!reply.signed) throw new Error('webhook reply: the callback was not signed correctly');
  };
}

export const TELEGRAM_CHATS = [5_001, 5_002, 5_003, 5_004, 5_005];

/** A Telegram message through the fake Bot API (grammY long polling); the reply comes back there. */
export function telegramChannel(farEnds: FarEnds) {
  return async (n: number): Promise<void> => {
    const token = nextToken();
    const chat = TELEGRAM_CHATS[n % TELEGRAM_CHATS.length]!;
    const from = farEnds.telegram.sent.length;
    farEnds.telegram.message({ from: chat, text: `Hi from Telegram (${token})` });
    await until(
      'Telegram reply at the Bot API',
      () =>
        farEnds.telegram.sent
          .slice(from)
          .find((sent) => sent.chat_id === String(chat) && sent.text.includes(`ack ${token}`)),
      30_000,
    );
  };
}

// ── Approvals ─────────────────────────────────────────────────────────────────────────────

/**
 * The model asks for `echo soak-approval-<n>`; the gate prompts; the soak approves (odd n) or
 * denies (even n) over REST and checks what the agent got: the command's output, or the denial.
 */
export function gatedCommand(api: Api) {
  return async (n: number): Promise<void> => {
    const command = `echo soak-approval-${n}`;
    const turn = api.call(
      'POST',
      '/api/v1/chat',
      { message: `run: ${command}`, session_id: `soak-approvals-${n % 3}` },
      60_000,
    );
    // The turn fails on its own if the gate never prompts; keep its rejection handled meanwhile.
    turn.catch(() => undefined);
    const pending = await until(
      'pending approval',
      async () => {
        const res = await api.call('GET', '/api/v1/approvals/pending');
        expectStatus('GET /approvals/pending', res, 200);
        return (res.json.pending as { id: string; command: string }[]).find(
          (p) => p.command === command,
        );
      },
      20_000,
      50,
    );
    const approve = n % 2 === 1;
    const decision = await api.call(
      'POST',
      `/api/v1/approvals/${pending.id}/${approve ? 'approve' : 'deny'}`,
    );
    expectStatus(approve ? 'approve' : 'deny', decision, 200);
    const res = await turn;
    expectStatus('POST /chat (gated)', res, 200);
    if (approve) {
      expectText('approved command output', res.json.reply, `soak-approval-${n}`);
      if (String(res.json.reply).includes('denied'))
        throw new Error(`approved command reported denied: ${String(res.json.reply)}`);
    } else {
      expectText('denied command', res.json.reply, 'Command denied by user approval gate.');
    }
  };
}

// ── Skill and MCP tools ───────────────────────────────────────────────────────────────────

/** The installed skill's `soak_add`: asked for by the model (odd n) or called over REST (even n). */
export function skillCall(api: Api) {
  return async (n: number): Promise<void> => {
    const a = 1_000 + n;
    const b = 7;
    const sum = String(a + b);
    if (n % 2 === 1) {
      const res = await api.call('POST', '/api/v1/chat', {
        message: `call: soak_add {"a":${a},"b":${b}}`,
        session_id: 'soak-skill',
      });
      expectStatus('POST /chat (skill)', res, 200);
      expectText('skill result through the model', res.json.reply, `Tool output: `);
      expectText('skill result through the model', res.json.reply, sum);
      return;
    }
    const res = await api.call('POST', '/api/v1/mcp/tools/soak_add/call', {
      arguments: { a, b },
    });
    expectStatus('POST /mcp/tools/soak_add/call', res, 200);
    if (res.json.is_error !== false)
      throw new Error(`skill tool error: ${JSON.stringify(res.json).slice(0, 300)}`);
    expectText('skill result', res.json.content, sum);
  };
}

/**
 * The external MCP server's `echo` (allowlisted as mcp:fx/echo): by the model or over REST. A
 * turn that offers the tool has read a third party's tool description, so the gate prompts even
 * for an allowlisted call (untrusted content); the soak approves that prompt as its user would.
 */
export function mcpCall(api: Api) {
  return async (n: number): Promise<void> => {
    const token = nextToken();
    if (n % 2 === 1) {
      const turn = api.call(
        'POST',
        '/api/v1/chat',
        { message: `call: fx__echo {"text":"${token}"}`, session_id: 'soak-mcp' },
        60_000,
      );
      let settled = false;
      turn.then(
        () => (settled = true),
        () => (settled = true),
      );
      while (!settled) {
        const pending = await api.call('GET', '/api/v1/approvals/pending');
        expectStatus('GET /approvals/pending', pending, 200);
        const ours = (pending.json.pending as { id: string; command: string }[]).find((p) =>
          p.command.includes(token),
        );
        if (ours) {
          expectStatus(
            'approve (MCP)',
            await api.call('POST', `/api/v1/approvals/${ours.id}/approve`),
            200,
          );
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const res = await turn;
      expectStatus('POST /chat (MCP)', res, 200);
      expectText('MCP echo through the model', res.json.reply, `Tool output: `);
      expectText('MCP echo through the model', res.json.reply, token);
      return;
    }
    const res = await api.call('POST', '/api/v1/mcp/tools/fx__echo/call', {
      arguments: { text: token },
    });
    expectStatus('POST /mcp/tools/fx__echo/call', res, 200);
    if (res.json.is_error !== false)
      throw new Error(`MCP tool error: ${JSON.stringify(res.json).slice(0, 300)}`);
    expectText('MCP echo', res.json.content, token);
  };
}

// ── Canvas ────────────────────────────────────────────────────────────────────────────────

/**
 * Blocks rendered over REST (201) and seen by a viewer on /ws/canvas; every 10th operation
 * clears the canvas (204), which the viewer sees too. The viewer reconnects every 100.
 */
export function canvas(api: Api, wsUrl: string) {
  let viewer: ChatSocket | undefined;
  let operations = 0;
  return {
    async step(n: number): Promise<void> {
      if (!viewer || operations >= 100) {
        viewer?.close();
        viewer = undefined;
        const opened = await ChatSocket.open(`${wsUrl}/ws/canvas`);
        await opened.read((frame) => frame.type === 'state', 10_000);
        viewer = opened;
        operations = 0;
      }
      operations += 1;
      const watching = viewer;
      try {
        if (n % 10 === 9) {
          const res = await api.call('DELETE', '/api/v1/canvas/clear');
          expectStatus('DELETE /canvas/clear', res, 204);
          await watching.read((frame) => frame.type === 'clear', 10_000);
          return;
        }
        const token = nextToken();
        const res = await api.call('POST', '/api/v1/canvas/render', {
          type: 'markdown',
          content: `## Soak ${token}\n\nA block rendered by the soak, number ${n}.`,
        });
        expectStatus('POST /canvas/render', res, 201);
        await watching.read(
          (frame) =>
            frame.type === 'add' &&
            JSON.stringify((frame.block as { content?: unknown } | undefined)?.content).includes(
              token,
            ),
          10_000,
        );
      } catch (error) {
        watching.close();
        viewer = undefined;
        throw error;
      }
    },
    close(): void {
      viewer?.close();
    },
  };
}

// ── Backups ───────────────────────────────────────────────────────────────────────────────

/**
 * `hearth backup create --dir <dir> --json` against the running gateway's state directory (the
 * built CLI, as a user runs it), then `hearth backup verify`; only the newest two archives are
 * kept.
 */
export function backup(options: { cli: string; home: string; dir: string }) {
  const env = { ...process.env, HEARTH_HOME: options.home, NODE_OPTIONS: '' };
  return async (): Promise<void> => {
    const created = await run(
      process.execPath,
      [options.cli, 'backup', 'create', '--dir', options.dir, '--json'],
      { env, timeout: 600_000, maxBuffer: 16 * 1024 * 1024 },
    );
    const { archive } = JSON.parse(created.stdout) as { archive?: string };
    if (typeof archive !== 'string') throw new Error(`backup create: no archive in its output`);
    const verified = await run(
      process.execPath,
      [options.cli, 'backup', 'verify', archive, '--json'],
      {
        env,
        timeout: 600_000,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const report = JSON.parse(verified.stdout) as { ok?: boolean; problems?: string[] };
    if (report.ok !== true)
      throw new Error(`backup verify: ${(report.problems ?? []).join('; ') || 'not ok'}`);
    const archives = (await readdir(options.dir)).filter((name) => name.endsWith('.tar.gz')).sort();
    for (const old of archives.slice(0, -2)) await rm(join(options.dir, old), { force: true });
  };
}

// ── The loop ──────────────────────────────────────────────────────────────────────────────

/**
 * Runs `operation` again and again (its index as argument), `pauseMs` apart, until `stopped()`;
 * each outcome goes to the recorder under `kind`.
 */
export async function runLoop(
  kind: string,
  pauseMs: number,
  operation: (n: number) => Promise<void>,
  recorder: Recorder,
  stopped: () => boolean,
): Promise<void> {
  for (let n = 1; !stopped(); n += 1) {
    const started = performance.now();
    try {
      await operation(n);
      recorder.ok(kind, performance.now() - started);
    } catch (error) {
      recorder.fail(kind, error);
    }
    const left = pauseMs;
    for (let waited = 0; waited < left && !stopped(); waited += 250)
      await new Promise((resolve) => setTimeout(resolve, Math.min(250, left - waited)));
  }
}
