import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { parseConfig } from '../config/load.ts';
import { openDatabase } from '../db/open-database.ts';
import type { Database } from '../db/ports.ts';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import type { ReplyScript } from '../testing/fakes/fake-llm/script.ts';
import type { RecordedRequest } from '../testing/fakes/fake-llm/wire.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { startTestGateway } from '../testing/gateway/test-gateway.ts';
import { DENIED_TEXT } from './approval-service.ts';
import { pendingApprovals, waitForPending } from '../testing/gateway/approval-polling.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SECRET = 'sk-ant-secret';

type Frame = Record<string, unknown> & { type: string };
type Json = Record<string, unknown>;

/** The fake LLM asks for one shell command. */
const shell = (command: string): ReplyScript => ({
  toolCalls: [{ name: 'shell', arguments: { command } }],
});

/** What the shell tool returns for a command that printed `line` and exited 0. */
const printed = (line: string) => `exit code 0\nstdout:\n${line}\n`;

/** The tool results the gateway sent back to the model in one request. */
const toolResults = (request: RecordedRequest | undefined): string[] =>
  request ? INSPECTORS['openai-chat'].toolResults(request).map((r) => r.output) : [];

/** A request to the bed's gateway, with or without a JSON body. */
async function call(bed: ChatTestBed, method: string, path: string, body?: unknown) {
  const res = await fetch(`${bed.gw.url}/api/v1${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

/** One counter of GET /metrics/snapshot, by label string. */
async function counter(bed: ChatTestBed, name: string): Promise<Record<string, number>> {
  const snapshot = (await bed.get('/metrics/snapshot')).body as Record<
    string,
    { values: Record<string, number> }
  >;
  return snapshot[name]?.values ?? {};
}

/** Differences of a counter between two readings (labels that did not move are left out). */
function moved(before: Record<string, number>, after: Record<string, number>) {
  const out: Record<string, number> = {};
  for (const [label, value] of Object.entries(after)) {
    const delta = value - (before[label] ?? 0);
    if (delta !== 0) out[label] = delta;
  }
  return out;
}

/** A WebSocket client that collects frames and can wait for one matching a predicate. */
async function client(url: string) {
  const socket = new WebSocket(url);
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
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    frames,
    send: (frame: unknown) => socket.send(JSON.stringify(frame)),
    next: (match: (f: Frame) => boolean) =>
      new Promise<Frame>((resolve) => {
        const found = frames.find(match);
        if (found) resolve(found);
        else waiters.push({ match, resolve });
      }),
  };
}

describe('a gated shell command in a full chat turn', () => {
  let bed: ChatTestBed;
  beforeAll(async () => {
    bed = await startChatTestBed(undefined, {
      processEnv: { PATH: '/usr/local/bin:/usr/bin:/bin', ANTHROPIC_API_KEY: SECRET },
    });
  });
  afterAll(() => bed.close());
  afterEach(async () => {
    bed.fake.reset();
    await bed.post('/approvals/policy', {
      security: 'allowlist',
      ask: 'on-miss',
      require_shell_approval: true,
    });
    const { entries } = (await bed.get('/approvals/allowlist')).body as {
      entries: { id: number }[];
    };
    for (const entry of entries) await call(bed, 'DELETE', `/approvals/allowlist/${entry.id}`);
  });

  it('approved over REST: pending with the spec fields, then it runs and the turn finishes', async () => {
    const decisions = await counter(bed, 'approval_decisions_total');
    const notices = await counter(bed, 'approval_notifications_total');
    bed.fake.reply(shell('echo hearth-approved'), { text: 'It printed hearth-approved.' });
    const startedAt = Math.floor(Date.now() / 1000);
    const turn = bed.post('/chat', { message: 'run the echo', session_id: 'gate-approve' });

    const waiting = await waitForPending(bed, 'echo hearth-approved');
    expect(waiting).toEqual({
      id: expect.stringMatching(UUID),
      tool_name: 'shell',
      command: 'echo hearth-approved',
      arguments: {
        command: 'echo hearth-approved',
        timeout: 60,
        workdir: join(bed.gw.home, 'workspace'),
      },
      session_id: 'gate-approve',
      created_at: expect.any(Number),
      // Beyond the spec, additive: when the approval is denied unless decided first.
      expires_at: (waiting as { created_at: number }).created_at + 120,
    });
    expect(waiting.created_at).toBeGreaterThanOrEqual(startedAt);
    expect(waiting.created_at).toBeLessThanOrEqual(Date.now() / 1000);
    // The turn is held: the model has not seen a tool result yet.
    expect(bed.fake.requests).toHaveLength(1);

    // No body at all: `always` is optional.
    expect(await call(bed, 'POST', `/approvals/${waiting.id}/approve`)).toEqual({
      status: 200,
      body: { approved: true, id: waiting.id, always_allowed: false },
    });
    const { status, body } = await turn;
    expect(status).toBe(200);
    expect(body.reply).toBe('It printed hearth-approved.');
    expect(bed.fake.requests).toHaveLength(2);
    expect(toolResults(bed.fake.requests[1])).toEqual([printed('hearth-approved')]);

    expect(await pendingApprovals(bed)).toEqual([]);
    const again = await call(bed, 'POST', `/approvals/${waiting.id}/approve`, {});
    expect(again.status).toBe(404);
    expect(again.body.detail).toBe(
      `Approval ${waiting.id} not found (unknown, expired or already decided)`,
    );
    expect((await call(bed, 'POST', `/approvals/${waiting.id}/deny`)).status).toBe(404);

    expect(moved(decisions, await counter(bed, 'approval_decisions_total'))).toEqual({
      'decision=prompted': 1,
    });
    // A REST-only session has no live connection to notify.
    expect(moved(notices, await counter(bed, 'approval_notifications_total'))).toEqual({
      'outcome=failed': 1,
    });
  });

  it('denied over REST: the model gets exactly the denial text, the command never ran', async () => {
    bed.fake.reply(shell('touch denied-marker'), { text: 'Understood, I will not.' });
    const turn = bed.post('/chat', { message: 'make a marker', session_id: 'gate-deny' });
    const waiting = await waitForPending(bed, 'touch denied-marker');
    expect(await call(bed, 'POST', `/approvals/${waiting.id}/deny`)).toEqual({
      status: 200,
      body: { denied: true, id: waiting.id },
    });
    expect((await turn).body.reply).toBe('Understood, I will not.');
    expect(toolResults(bed.fake.requests[1])).toEqual([DENIED_TEXT]);
    expect(DENIED_TEXT).toBe('Command denied by user approval gate.');
    await expect(
      readFile(join(bed.gw.home, 'workspace', 'denied-marker'), 'utf8'),
    ).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await call(bed, 'POST', `/approvals/${waiting.id}/approve`)).status).toBe(404);
  });

  it('always: true stores "an allowlist entry for the program name"; the program then runs without prompting', async () => {
    bed.fake.reply(shell('echo hearth-approved'), { text: 'first' });
    const first = bed.post('/chat', { message: 'echo it', session_id: 'gate-always' });
    const waiting = await waitForPending(bed, 'echo hearth-approved');
    const entry = {
      id: expect.any(Number),
      pattern: 'echo',
      arg_pattern: null,
      directory: null,
      created_at: expect.any(Number),
      note: null,
    };
    expect((await bed.post(`/approvals/${waiting.id}/approve`, { always: true })).body).toEqual({
      approved: true,
      id: waiting.id,
      always_allowed: true,
      allowlist_entry: entry,
    });
    expect((await first).body.reply).toBe('first');
    const { entries, count } = (await bed.get('/approvals/allowlist')).body;
    expect(count).toBe(1);
    expect(entries).toEqual([entry]);

    const decisions = await counter(bed, 'approval_decisions_total');
    bed.fake.reset();
    bed.fake.reply(shell('echo other words'), { text: 'second' });
    const second = await bed.post('/chat', { message: 'echo again', session_id: 'gate-always' });
    expect(second.body.reply).toBe('second');
    expect(toolResults(bed.fake.requests[1])).toEqual([printed('other words')]);
    expect(moved(decisions, await counter(bed, 'approval_decisions_total'))).toEqual({
      'decision=auto_approved': 1,
    });
  });

  it('always: true on a program that can run other code stores exactly the command, with a note saying why', async () => {
    bed.fake.reply(shell("sh -c 'git --version'"), { text: 'first' });
    const first = bed.post('/chat', { message: 'git version', session_id: 'gate-always-git' });
    const waiting = await waitForPending(bed, "sh -c 'git --version'");
    const approved = (await bed.post(`/approvals/${waiting.id}/approve`, { always: true })).body;
    const note =
      'git can run other code (-c settings, aliases and hooks run programs): only this exact command is allowed';
    expect(approved).toEqual({
      approved: true,
      id: waiting.id,
      always_allowed: true,
      always_note: note,
      allowlist_entry: {
        id: expect.any(Number),
        pattern: 'git',
        arg_pattern: '^git --version$',
        directory: join(bed.gw.home, 'workspace'),
        created_at: expect.any(Number),
        note,
      },
    });
    expect((await first).body.reply).toBe('first');
    expect((await bed.get('/approvals/allowlist')).body.entries).toEqual([
      approved.allowlist_entry,
    ]);
    // Another git command is a new request for the human.
    bed.fake.reset();
    bed.fake.reply(shell('git -c core.pager=id log'), { text: 'second' });
    const second = bed.post('/chat', { message: 'log', session_id: 'gate-always-git' });
    const wider = await waitForPending(bed, 'git -c core.pager=id log');
    await bed.post(`/approvals/${wider.id}/deny`, {});
    expect((await second).body.reply).toBe('second');
  });

  it('policy: defaults, then security=deny refuses outright with no pending entry', async () => {
    expect((await bed.get('/approvals/policy')).body).toEqual({
      security: 'allowlist',
      ask: 'on-miss',
      require_shell_approval: true,
    });
    expect((await bed.post('/approvals/policy', { security: 'deny' })).body).toEqual({
      applied: true,
      security: 'deny',
      ask: 'on-miss',
      require_shell_approval: true,
    });
    const decisions = await counter(bed, 'approval_decisions_total');
    bed.fake.reply(shell('echo never'), { text: 'Refused.' });
    const { body } = await bed.post('/chat', { message: 'echo', session_id: 'gate-policy-deny' });
    expect(body.reply).toBe('Refused.');
    expect(toolResults(bed.fake.requests[1])).toEqual([DENIED_TEXT]);
    expect(await pendingApprovals(bed)).toEqual([]);
    expect(moved(decisions, await counter(bed, 'approval_decisions_total'))).toEqual({
      'decision=denied_outright': 1,
    });
  });

  it('policy: require_shell_approval=false runs commands without a prompt, and persists into [security]', async () => {
    expect(
      (await bed.post('/approvals/policy', { require_shell_approval: false, ask: 'always' })).body,
    ).toEqual({
      applied: true,
      security: 'allowlist',
      ask: 'always',
      require_shell_approval: false,
    });
    const decisions = await counter(bed, 'approval_decisions_total');
    bed.fake.reply(shell('echo ungated'), { text: 'ran' });
    const { body } = await bed.post('/chat', { message: 'echo', session_id: 'gate-off' });
    expect(body.reply).toBe('ran');
    expect(toolResults(bed.fake.requests[1])).toEqual([printed('ungated')]);
    expect(moved(decisions, await counter(bed, 'approval_decisions_total'))).toEqual({});

    const file = join(bed.gw.home, 'config.toml');
    const written = parseConfig(await readFile(file, 'utf8'), file);
    expect(written.security).toMatchObject({
      security: 'allowlist',
      ask: 'always',
      require_shell_approval: false,
    });
  });

  it('policy: rejects an empty change and unknown values with 422', async () => {
    expect((await bed.post('/approvals/policy', {})).status).toBe(422);
    expect((await bed.post('/approvals/policy', { security: 'maybe' })).status).toBe(422);
    expect((await bed.post('/approvals/policy', { ask: 'sometimes' })).status).toBe(422);
    expect((await bed.post('/approvals/policy', { require_shell_approval: 'yes' })).status).toBe(
      422,
    );
    expect((await bed.get('/approvals/policy')).body).toEqual({
      security: 'allowlist',
      ask: 'on-miss',
      require_shell_approval: true,
    });
  });

  it('gives the child process a scrubbed environment (no provider key)', async () => {
    await bed.post('/approvals/policy', { require_shell_approval: false });
    bed.fake.reply(shell('printenv'), { text: 'env shown' });
    await bed.post('/chat', { message: 'show env', session_id: 'gate-env' });
    const [result] = toolResults(bed.fake.requests[1]);
    expect(result).toMatch(/^exit code 0\nstdout:\n/);
    expect(result).toMatch(/^PATH=\/usr\/local\/bin:\/usr\/bin:\/bin$/m);
    expect(result).not.toContain(SECRET);
    expect(result).not.toContain('ANTHROPIC_API_KEY');
    // The bed's configured provider keys are not inherited either.
    expect(result).not.toContain('sk-ant-test');
  });

  it('allowlist REST: add, list, remove; 422 for a bad regex or a path; 404 for an unknown id', async () => {
    const added = await bed.post('/approvals/allowlist', {
      pattern: 'git',
      arg_pattern: '^git (status|log)( |$)',
    });
    expect(added).toEqual({
      status: 200,
      body: {
        id: expect.any(Number),
        pattern: 'git',
        arg_pattern: '^git (status|log)( |$)',
        directory: null,
        created_at: expect.any(Number),
        note: null,
      },
    });
    const plain = (await bed.post('/approvals/allowlist', { pattern: 'ls' })).body;
    expect(plain).toMatchObject({ pattern: 'ls', arg_pattern: null });
    expect((await bed.get('/approvals/allowlist')).body).toEqual({
      entries: [added.body, plain],
      count: 2,
    });

    const badRegex = await bed.post('/approvals/allowlist', { pattern: 'git', arg_pattern: '(' });
    expect(badRegex.status).toBe(422);
    expect(String(badRegex.body.detail)).toContain('must be an RE2 regular expression');
    const path = await bed.post('/approvals/allowlist', { pattern: '/usr/bin/ls' });
    expect(path.status).toBe(422);
    expect(String(path.body.detail)).toContain('without spaces or slashes');
    expect((await bed.post('/approvals/allowlist', { pattern: '' })).status).toBe(422);

    expect(await call(bed, 'DELETE', `/approvals/allowlist/${String(plain.id)}`)).toEqual({
      status: 200,
      body: { deleted: true, id: plain.id },
    });
    const unknown = await call(bed, 'DELETE', `/approvals/allowlist/${String(plain.id)}`);
    expect(unknown).toEqual({
      status: 404,
      body: { detail: `Allowlist entry ${String(plain.id)} not found` },
    });
    expect((await bed.get('/approvals/allowlist')).body).toEqual({
      entries: [added.body],
      count: 1,
    });
  });

  it('chat reply over /ws: the originating session approves by the short id; another session cannot', async () => {
    const base = `ws://127.0.0.1:${bed.gw.port}/ws`;
    const notices = await counter(bed, 'approval_notifications_total');
    const owner = await client(base);
    const intruder = await client(base);
    bed.fake.reply(shell('echo via-chat'), { text: 'Done via chat.' });
    owner.send({ type: 'chat', message: 'run it', session_id: 'ws-owner' });

    const request = await owner.next((f) => f.type === 'approval_request');
    const id = String(request.id);
    const short = id.slice(0, 8);
    expect(request).toEqual({
      type: 'approval_request',
      id: expect.stringMatching(UUID),
      short_id: short,
      tool_name: 'shell',
      command: 'echo via-chat',
      text:
        `Approval needed [${short}] shell: echo via-chat\n` +
        `in ${join(bed.gw.home, 'workspace')}\n` +
        `Reply "approve ${short}" or "deny ${short}" within 120 s; ` +
        `"approve ${short} always" always allows echo with any arguments in the workspace from now on.`,
    });
    expect(moved(notices, await counter(bed, 'approval_notifications_total'))).toEqual({
      'outcome=sent': 1,
    });

    intruder.send({ type: 'chat', message: `approve ${short}`, session_id: 'ws-intruder' });
    expect(await intruder.next((f) => f.type === 'message_done')).toEqual({
      type: 'message_done',
      text: `No pending approval ${short} in this conversation.`,
    });
    expect((await pendingApprovals(bed)).map((p) => p.id)).toEqual([id]);
    expect(bed.fake.requests).toHaveLength(1);

    // A shorter prefix never decides, even in the conversation that asked.
    owner.send({ type: 'chat', message: `approve ${short.slice(0, 5)}`, session_id: 'ws-owner' });
    expect(await owner.next((f) => f.type === 'message_done')).toEqual({
      type: 'message_done',
      text: `Send the full 8-character id shown in the approval request, e.g. "approve ${short}".`,
    });
    expect((await pendingApprovals(bed)).map((p) => p.id)).toEqual([id]);

    owner.send({ type: 'chat', message: `approve ${short}`, session_id: 'ws-owner' });
    expect(
      await owner.next((f) => f.type === 'message_done' && f.text === `Approved ${short}.`),
    ).toBeTruthy();
    expect(
      await owner.next((f) => f.type === 'message_done' && f.text === 'Done via chat.'),
    ).toBeTruthy();
    expect(toolResults(bed.fake.requests[1])).toEqual([printed('via-chat')]);
    expect(await pendingApprovals(bed)).toEqual([]);
    owner.socket.close();
    intruder.socket.close();
  });
});

describe('an approval nobody decides', () => {
  let bed: ChatTestBed;
  beforeAll(async () => {
    bed = await startChatTestBed(undefined, { approvalExpiryMs: 400 });
  });
  afterAll(() => bed.close());

  it('expires: the model gets the denial text and the id is gone', async () => {
    bed.fake.reply(shell('echo too-late'), { text: 'It expired.' });
    const turn = bed.post('/chat', { message: 'echo', session_id: 'gate-expire' });
    const waiting = await waitForPending(bed, 'echo too-late');
    const { body } = await turn;
    expect(body.reply).toBe('It expired.');
    expect(toolResults(bed.fake.requests[1])).toEqual([DENIED_TEXT]);
    expect(await pendingApprovals(bed)).toEqual([]);
    expect((await call(bed, 'POST', `/approvals/${waiting.id}/approve`)).status).toBe(404);
  });
});

describe('the approval policy before the tools exist, and the allowlist across restarts', () => {
  it('reports require_shell_approval null until the tool registry is available', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const gw = await startTestGateway({
      openDatabase: async (location): Promise<Database> => {
        await held;
        return openDatabase(location);
      },
    });
    try {
      const early = await fetch(`${gw.url}/api/v1/approvals/policy`);
      expect(await early.json()).toEqual({
        security: 'allowlist',
        ask: 'on-miss',
        require_shell_approval: null,
      });
      release();
      await gw.gateway.whenReady();
      const ready = await fetch(`${gw.url}/api/v1/approvals/policy`);
      expect(await ready.json()).toEqual({
        security: 'allowlist',
        ask: 'on-miss',
        require_shell_approval: true,
      });
    } finally {
      release();
      await gw.close();
    }
  });

  it('keeps the allowlist in the database: a restarted gateway on the same state dir has it', async () => {
    const home = await mkdtemp(join(tmpdir(), 'hearth-restart-'));
    const first = await startTestGateway({ home });
    await first.gateway.whenReady();
    const res = await fetch(`${first.url}/api/v1/approvals/allowlist`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pattern: 'make', arg_pattern: '^make (build|test)$' }),
    });
    const entry = (await res.json()) as Json;
    await first.gateway.close(); // keeps the state directory

    const second = await startTestGateway({ home });
    try {
      await second.gateway.whenReady();
      const listed = await fetch(`${second.url}/api/v1/approvals/allowlist`);
      expect(await listed.json()).toEqual({ entries: [entry], count: 1 });
      const gate = second.gateway.approvals();
      const request = {
        toolName: 'shell',
        arguments: { command: '', timeout: 60, workdir: '' },
        sessionId: 'restart',
      };
      expect(await gate.gate({ ...request, command: 'make test' })).toEqual({
        allowed: true,
        outcome: 'auto_approved',
      });
    } finally {
      await second.close();
    }
  });
});
