/**
 * DESIGN "Scale-out" for approvals: gateways sharing one Redis (`[memory] cache_url`) and one
 * PostgreSQL database. A command gated by a turn on gateway A is listed, approved or denied on
 * gateway B, its approval_request notice reaches B's sockets of the session, and of two racing
 * decisions exactly one wins. A throw-away redis-server keeps other runs' keys out of the lists.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  redisServerProcess,
  type RedisServerProcess,
} from '../memory/short-term/testing/redis-server.ts';
import {
  createScratchDatabase,
  type ScratchDatabase,
} from '../db/postgres/testing/scratch-database.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { startTcpProxy } from '../testing/fakes/tcp-proxy.ts';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import type { ReplyScript } from '../testing/fakes/fake-llm/script.ts';
import type { RecordedRequest } from '../testing/fakes/fake-llm/wire.ts';
import { DENIED_TEXT } from './approval-service.ts';
import { TEST_CLUSTER_SECRET } from '../scale-out/testing/test-seal.ts';
import { pendingApprovals, waitForPending } from '../testing/gateway/approval-polling.ts';

type Json = Record<string, unknown>;
type Frame = Json & { type: string };

const shell = (command: string): ReplyScript => ({
  toolCalls: [{ name: 'shell', arguments: { command } }],
});
const printed = (line: string) => `exit code 0\nstdout:\n${line}\n`;
const toolResults = (request: RecordedRequest | undefined): string[] =>
  request ? INSPECTORS['openai-chat'].toolResults(request).map((r) => r.output) : [];

async function call(bed: ChatTestBed, method: string, path: string, body?: unknown) {
  const res = await fetch(`${bed.gw.url}/api/v1${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

async function counter(bed: ChatTestBed, name: string): Promise<Record<string, number>> {
  const snapshot = (await bed.get('/metrics/snapshot')).body as Record<
    string,
    { values: Record<string, number> }
  >;
  return snapshot[name]?.values ?? {};
}

/** A /ws client that collects frames and waits for one matching a predicate. */
async function client(url: string) {
  const socket = new WebSocket(url);
  const frames: Frame[] = [];
  socket.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString()) as Frame));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    send: (frame: unknown) => socket.send(JSON.stringify(frame)),
    async next(match: (f: Frame) => boolean): Promise<Frame> {
      await expect.poll(() => frames.some(match), { timeout: 10_000, interval: 10 }).toBe(true);
      return frames.find(match)!;
    },
  };
}

let redis: RedisServerProcess;
let a: ChatTestBed;
let b: ChatTestBed;
let database: ScratchDatabase | undefined;
const databaseUrl = () => database!.url;

/** A gateway on the shared Redis and PostgreSQL, its models on its own fake LLM. */
const gateway = (approvalExpiryMs?: number) =>
  startChatTestBed(undefined, {
    approvalExpiryMs,
    config: {
      gateway: { cluster_secret: TEST_CLUSTER_SECRET },
      memory: { cache_url: redis.url, db_path: databaseUrl() },
    },
  });

beforeAll(async () => {
  redis = await redisServerProcess();
  await redis.start();
  database = await createScratchDatabase('hearth_scale', process.env);
  a = await gateway();
  b = await gateway();
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await redis?.kill();
  await database?.drop();
});

afterEach(async () => {
  a.fake.reset();
  b.fake.reset();
  const { entries } = (await a.get('/approvals/allowlist')).body as { entries: { id: number }[] };
  for (const entry of entries) await call(a, 'DELETE', `/approvals/allowlist/${entry.id}`);
});

describe('pending approvals shared by two gateways', () => {
  it('both report the shared backends in /status', async () => {
    for (const bed of [a, b]) {
      const { backends } = (await bed.get('/status')).body as { backends: Json };
      expect(backends).toMatchObject({
        approvals: 'redis',
        events: 'redis',
        short_term: 'redis',
        database: 'postgresql',
      });
    }
  });

  it('gated on A, listed on B, approved over REST on B: it runs on A', async () => {
    const decisions = await counter(a, 'approval_decisions_total');
    a.fake.reply(shell('echo from-a'), { text: 'A ran it.' });
    const turn = a.post('/chat', { message: 'run it', session_id: 'scale-approve' });

    const onB = await waitForPending(b, 'echo from-a', 10_000);
    expect(onB).toMatchObject({ tool_name: 'shell', session_id: 'scale-approve' });
    expect(await pendingApprovals(a)).toEqual([onB]);
    expect(await call(b, 'POST', `/approvals/${onB.id}/approve`)).toEqual({
      status: 200,
      body: { approved: true, id: onB.id, always_allowed: false },
    });

    expect((await turn).body.reply).toBe('A ran it.');
    expect(toolResults(a.fake.requests[1])).toEqual([printed('from-a')]);
    expect(b.fake.requests).toHaveLength(0);
    expect(await pendingApprovals(a)).toEqual([]);
    expect(await pendingApprovals(b)).toEqual([]);
    for (const bed of [a, b]) {
      expect((await call(bed, 'POST', `/approvals/${onB.id}/approve`)).status).toBe(404);
      expect((await call(bed, 'POST', `/approvals/${onB.id}/deny`)).status).toBe(404);
    }
    const after = await counter(a, 'approval_decisions_total');
    expect((after['decision=prompted'] ?? 0) - (decisions['decision=prompted'] ?? 0)).toBe(1);
  });

  it('denied on B: the model on A gets exactly the denial text', async () => {
    a.fake.reply(shell('echo never-a'), { text: 'Not run.' });
    const turn = a.post('/chat', { message: 'run it', session_id: 'scale-deny' });
    const onB = await waitForPending(b, 'echo never-a', 10_000);
    expect(await call(b, 'POST', `/approvals/${onB.id}/deny`)).toEqual({
      status: 200,
      body: { denied: true, id: onB.id },
    });
    expect((await turn).body.reply).toBe('Not run.');
    expect(toolResults(a.fake.requests[1])).toEqual([DENIED_TEXT]);
    expect((await call(a, 'POST', `/approvals/${onB.id}/approve`)).status).toBe(404);
  });

  it('always: true on B stores the program in the shared allowlist; A then runs it unprompted', async () => {
    a.fake.reply(shell('echo always-a'), { text: 'first' });
    const first = a.post('/chat', { message: 'run it', session_id: 'scale-always' });
    const onB = await waitForPending(b, 'echo always-a', 10_000);
    expect((await b.post(`/approvals/${onB.id}/approve`, { always: true })).body).toMatchObject({
      approved: true,
      id: onB.id,
      always_allowed: true,
      // B judges the directory the command runs in on A: outside B's own workspace (each test
      // gateway has its own state directory), so the entry holds exactly that directory.
      allowlist_entry: { pattern: 'echo', arg_pattern: null, directory: `${a.gw.home}/workspace` },
    });
    expect((await first).body.reply).toBe('first');
    const listed = (await a.get('/approvals/allowlist')).body as { entries: { pattern: string }[] };
    expect(listed.entries.map((e) => e.pattern)).toEqual(['echo']);

    a.fake.reset();
    a.fake.reply(shell('echo always-a again'), { text: 'second' });
    expect(
      (await a.post('/chat', { message: 'again', session_id: 'scale-always' })).body.reply,
    ).toBe('second');
    expect(toolResults(a.fake.requests[1])).toEqual([printed('always-a again')]);
  });

  it('a double approve racing across both gateways gives one 200 and one 404', async () => {
    a.fake.reply(shell('echo race'), { text: 'raced' });
    const turn = a.post('/chat', { message: 'run it', session_id: 'scale-race' });
    const { id } = await waitForPending(b, 'echo race', 10_000);
    const results = await Promise.all([
      call(a, 'POST', `/approvals/${id}/approve`),
      call(b, 'POST', `/approvals/${id}/approve`),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 404]);
    expect((await turn).body.reply).toBe('raced');
    expect(toolResults(a.fake.requests[1])).toEqual([printed('race')]);
  });

  it('approve racing deny across both gateways: exactly one outcome reaches the turn', async () => {
    a.fake.reply(shell('echo approve-or-deny'), { text: 'decided' });
    const turn = a.post('/chat', { message: 'run it', session_id: 'scale-race-2' });
    const { id } = await waitForPending(a, 'echo approve-or-deny', 10_000);
    const [approved, denied] = await Promise.all([
      call(b, 'POST', `/approvals/${id}/approve`),
      call(a, 'POST', `/approvals/${id}/deny`),
    ]);
    expect([approved.status, denied.status].sort()).toEqual([200, 404]);
    await turn;
    expect(toolResults(a.fake.requests[1])).toEqual([
      approved.status === 200 ? printed('approve-or-deny') : DENIED_TEXT,
    ]);
  });

  it("the approval_request notice reaches B's socket; a chat reply there approves by the short id", async () => {
    const onB = await client(`ws://127.0.0.1:${b.gw.port}/ws`);
    try {
      // The socket is bound to the session by a first turn on B.
      b.fake.reply({ text: 'Hello from B.' });
      onB.send({ type: 'chat', message: 'hello', session_id: 'scale-ws' });
      await onB.next((f) => f.type === 'message_done' && f.text === 'Hello from B.');

      const notices = await counter(a, 'approval_notifications_total');
      a.fake.reply(shell('echo via-b'), { text: 'Done on A.' });
      const turn = a.post('/chat', { message: 'run it', session_id: 'scale-ws' });
      const request = await onB.next((f) => f.type === 'approval_request');
      const short = String(request.id).slice(0, 8);
      expect(request).toEqual({
        type: 'approval_request',
        id: expect.any(String),
        short_id: short,
        tool_name: 'shell',
        command: 'echo via-b',
        text:
          `Approval needed [${short}] shell: echo via-b\n` +
          `in ${a.gw.home}/workspace\n` +
          `Reply "approve ${short}" or "deny ${short}" within 120 s; ` +
          `"approve ${short} always" always allows echo with any arguments in the workspace from now on.`,
      });
      const after = await counter(a, 'approval_notifications_total');
      expect((after['outcome=sent'] ?? 0) - (notices['outcome=sent'] ?? 0)).toBe(1);

      onB.send({ type: 'chat', message: `approve ${short}`, session_id: 'scale-ws' });
      await onB.next((f) => f.type === 'message_done' && f.text === `Approved ${short}.`);
      expect((await turn).body.reply).toBe('Done on A.');
      expect(toolResults(a.fake.requests[1])).toEqual([printed('via-b')]);
    } finally {
      onB.socket.close();
    }
  });
});

describe('a session cleared on one gateway', () => {
  it("DELETE on B closes the session's socket on A (4000); another session's stays", async () => {
    const [target, other] = [
      await client(`ws://127.0.0.1:${a.gw.port}/ws`),
      await client(`ws://127.0.0.1:${a.gw.port}/ws`),
    ];
    const closed = new Promise<[number, string]>((resolve) =>
      target.socket.once('close', (code, reason) => resolve([code, reason.toString()])),
    );
    try {
      a.fake.reply({ text: 'one' }, { text: 'two' });
      target.send({ type: 'chat', message: 'hello', session_id: 'scale-clear' });
      await target.next((f) => f.type === 'message_done' && f.text === 'one');
      other.send({ type: 'chat', message: 'hello', session_id: 'scale-keep' });
      await other.next((f) => f.type === 'message_done' && f.text === 'two');

      // B never had the live session, but the stored history both share: cleared, and A
      // closes its socket.
      expect(await call(b, 'DELETE', '/sessions/scale-clear')).toEqual({
        status: 200,
        body: { cleared: true },
      });
      expect(await closed).toEqual([4000, 'Session cleared']);
      const { sessions } = (await a.get('/sessions')).body as { sessions: { id: string }[] };
      expect(sessions.map((s) => s.id)).not.toContain('scale-clear');
      expect(sessions.map((s) => s.id)).toContain('scale-keep');
      expect(other.socket.readyState).toBe(WebSocket.OPEN);
    } finally {
      target.socket.close();
      other.socket.close();
    }
  });
});

describe('an approval owned by a gateway with a short expiry', () => {
  it('expires on its owner: gone from B, 404 there, the model gets the denial text', async () => {
    const owner = await gateway(1_500);
    try {
      owner.fake.reply(shell('echo too-late'), { text: 'It expired.' });
      const turn = owner.post('/chat', { message: 'run it', session_id: 'scale-expire' });
      const onB = await waitForPending(b, 'echo too-late', 10_000);
      expect((await turn).body.reply).toBe('It expired.');
      expect(toolResults(owner.fake.requests[1])).toEqual([DENIED_TEXT]);
      expect(await pendingApprovals(b)).toEqual([]);
      expect((await call(b, 'POST', `/approvals/${onB.id}/approve`)).status).toBe(404);
    } finally {
      await owner.close();
    }
  });
});

describe('an approval whose gateway crashed', () => {
  it('is no longer listed on B and approving it answers 404; a live owner is unaffected', async () => {
    // The doomed gateway reaches Redis through a proxy that the test cuts: a crash as its
    // peers see it (no clean close, its presence key lapses), while PostgreSQL stays up.
    const proxy = await startTcpProxy(redis.port);
    const doomed = await startChatTestBed(undefined, {
      config: {
        gateway: { cluster_secret: TEST_CLUSTER_SECRET },
        memory: { cache_url: `redis://127.0.0.1:${proxy.port}`, db_path: databaseUrl() },
      },
      presenceTiming: { ttlMs: 600, refreshMs: 200 },
    });
    let orphanTurn: ReturnType<ChatTestBed['post']> | undefined;
    try {
      doomed.fake.reply(shell('echo orphan'), { text: 'never decided' });
      orphanTurn = doomed.post('/chat', { message: 'run it', session_id: 'scale-crash' });
      const orphan = await waitForPending(b, 'echo orphan', 10_000);
      a.fake.reply(shell('echo alive'), { text: 'A ran it.' });
      const liveTurn = a.post('/chat', { message: 'run it', session_id: 'scale-alive' });
      const live = await waitForPending(b, 'echo alive', 10_000);

      proxy.cut();
      await expect
        .poll(async () => (await pendingApprovals(b)).map((p) => p.command), {
          timeout: 5_000,
          interval: 50,
        })
        .toEqual(['echo alive']);
      expect(await pendingApprovals(a)).toEqual([live]);
      expect(await call(b, 'POST', `/approvals/${orphan.id}/approve`)).toMatchObject({
        status: 404,
      });
      expect((await call(a, 'POST', `/approvals/${orphan.id}/deny`)).status).toBe(404);

      // The live owner's approval is decided on B as before.
      expect((await call(b, 'POST', `/approvals/${live.id}/approve`)).status).toBe(200);
      expect((await liveTurn).body.reply).toBe('A ran it.');
      expect(toolResults(a.fake.requests[1])).toEqual([printed('alive')]);

      // Only cut off here, not dead: what waits there is still decided there, in process.
      expect((await call(doomed, 'POST', `/approvals/${orphan.id}/deny`)).status).toBe(200);
      expect((await orphanTurn).body.reply).toBe('never decided');
      expect(toolResults(doomed.fake.requests[1])).toEqual([DENIED_TEXT]);
    } finally {
      await doomed.close();
      await orphanTurn?.catch(() => undefined);
      await proxy.close();
    }
  });
});

describe('a gateway whose Redis is unreachable', () => {
  it('keeps approvals in process, says so in /status, and still gates and decides', async () => {
    const alone = await startChatTestBed(undefined, {
      config: {
        gateway: { cluster_secret: TEST_CLUSTER_SECRET },
        memory: { cache_url: 'redis://127.0.0.1:1' },
      },
    });
    try {
      const { backends } = (await alone.get('/status')).body as { backends: Json };
      expect(backends).toMatchObject({
        approvals: 'in-process (redis unreachable)',
        events: 'in-process (redis unreachable)',
      });
      alone.fake.reply(shell('echo offline'), { text: 'Ran offline.' });
      const turn = alone.post('/chat', { message: 'run it', session_id: 'scale-offline' });
      const waiting = await waitForPending(alone, 'echo offline', 10_000);
      expect((await call(alone, 'POST', `/approvals/${waiting.id}/approve`)).status).toBe(200);
      expect((await turn).body.reply).toBe('Ran offline.');
      expect(toolResults(alone.fake.requests[1])).toEqual([printed('offline')]);
      expect((await call(alone, 'POST', `/approvals/${waiting.id}/approve`)).status).toBe(404);
    } finally {
      await alone.close();
    }
  });
});
