import { afterEach, describe, expect, it } from 'vitest';
import { GatewayHttpError, GatewayUnreachableError } from '../gateway-client.ts';
import { createDashboardCore, type DashboardCore, type SocketLike } from './dashboard-core.ts';

/** A socket the test plays the gateway's side of. */
function fakeSocket() {
  const listeners = new Map<string, ((event: { data: unknown }) => void)[]>();
  const sent: unknown[] = [];
  const socket = {
    readyState: 1,
    send: (data: string) => void sent.push(JSON.parse(data)),
    close() {
      socket.readyState = 3;
      for (const l of listeners.get('close') ?? []) l({ data: undefined });
    },
    addEventListener(type: string, listener: (event: { data: unknown }) => void) {
      listeners.set(type, [...(listeners.get(type) ?? []), listener]);
    },
    /** The gateway sends a frame (any text, to test bad ones too). */
    receive(data: unknown) {
      for (const l of listeners.get('message') ?? [])
        l({ data: typeof data === 'string' ? data : JSON.stringify(data) });
    },
    sent,
  };
  return socket;
}

const NOW = 1_800_000_000_000;
const STATUS = {
  status: 'ok',
  version: '0.1.0',
  uptime_seconds: 5,
  init_phase: 'ready',
  backends: {},
};
const routes: Record<string, unknown> = {
  '/api/v1/status': STATUS,
  '/api/v1/sessions': {
    sessions: [{ id: 's1', message_count: 2, last_active: '2026-11-26T05:00:00Z' }],
  },
  '/api/v1/approvals/pending': {
    pending: [
      {
        id: 'aaaaaaaa-0000',
        tool_name: 'shell',
        command: 'ls',
        session_id: 's1',
        created_at: NOW / 1000 - 20,
        expires_at: NOW / 1000 + 100,
      },
      {
        id: 'bbbbbbbb-0000',
        tool_name: 'shell',
        command: 'pwd',
        session_id: 's1',
        created_at: NOW / 1000 - 10,
        expires_at: NOW / 1000 + 110,
      },
    ],
  },
  '/api/v1/usage': {
    models: { 'gpt-4o': { input_tokens: 5, output_tokens: 7, cost_usd: 0.001 } },
    total_cost_usd: 0.001,
  },
  '/api/v1/metrics/snapshot': { memory_entries_total: { type: 'gauge', values: { '': 9 } } },
  '/api/v1/models?live=true': {
    providers: [
      { provider: 'openai', configured: true, live_checked: true, reachable: true },
      { provider: 'ollama', configured: true, live_checked: true, reachable: false },
    ],
  },
};

function fakeClient(overrides: Record<string, unknown> = {}) {
  const calls: { method: string; path: string; body?: unknown }[] = [];
  const table: Record<string, unknown> = { ...routes, ...overrides };
  return {
    calls,
    baseUrl: 'http://127.0.0.1:7432',
    getJson(path: string) {
      calls.push({ method: 'GET', path });
      const answer = table[path];
      if (answer instanceof Error) return Promise.reject(answer);
      if (answer === undefined)
        return Promise.reject(new GatewayHttpError('GET', path, 404, 'Not found'));
      return Promise.resolve(answer);
    },
    sendJson(method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) {
      calls.push({ method, path, body });
      const answer = table[`${method} ${path}`];
      if (answer instanceof Error) return Promise.reject(answer);
      return Promise.resolve(answer ?? {});
    },
  };
}

let core: DashboardCore | undefined;
afterEach(() => core?.stop());

function build(client = fakeClient()) {
  const sockets: Record<string, ReturnType<typeof fakeSocket>> = {};
  core = createDashboardCore({
    client,
    openSocket: (path) => {
      const socket = fakeSocket();
      sockets[path.split('?')[0]!] = socket;
      return Promise.resolve(socket as SocketLike);
    },
    clientId: 'cli-1',
    now: () => NOW,
    setInterval: () => 0,
    clearInterval: () => undefined,
  });
  return { core, sockets, client };
}

describe('dashboard core', () => {
  it('fills the state from the REST API; channels stay "none" when the route is absent', async () => {
    const { core } = build();
    await core.start();
    const s = core.getState();
    expect(s.connection).toBe('ok');
    expect(s.status?.init_phase).toBe('ready');
    expect(s.sessions).toHaveLength(1);
    expect(s.pending.map((p) => p.command)).toEqual(['ls', 'pwd']);
    expect(s.usage?.models).toEqual([
      { model: 'gpt-4o', input_tokens: 5, output_tokens: 7, cost_usd: 0.001 },
    ]);
    expect(s.memoryEntries).toBe(9);
    expect(s.channels).toBeNull();
    expect(s.needsSetup).toBe(false);
  });

  it('shows channels when GET /channels answers', async () => {
    const { core } = build(
      fakeClient({
        '/api/v1/channels': {
          channels: [{ name: 'telegram', status: 'connected', unread: 2, messages_total: 5 }],
        },
      }),
    );
    await core.start();
    expect(core.getState().channels).toEqual([
      { name: 'telegram', status: 'connected', unread: 2, messages_total: 5 },
    ]);
  });

  it('offers setup when no provider works: none configured, or every live check failed', async () => {
    for (const providers of [
      [
        { provider: 'openai', configured: false },
        { provider: 'bedrock', configured: null, live_checked: false, reachable: null },
      ],
      [
        { provider: 'openai', configured: false },
        { provider: 'ollama', configured: true, live_checked: true, reachable: false },
      ],
    ]) {
      const { core } = build(fakeClient({ '/api/v1/models?live=true': { providers } }));
      await core.start();
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(core.getState().needsSetup, JSON.stringify(providers)).toBe(true);
    }
  });

  it('does not offer setup when a provider without a live check is configured', async () => {
    const { core } = build(
      fakeClient({
        '/api/v1/models?live=true': {
          providers: [
            { provider: 'anthropic', configured: true, live_checked: false, reachable: null },
            { provider: 'ollama', configured: true, live_checked: true, reachable: false },
          ],
        },
      }),
    );
    await core.start();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(core.getState().needsSetup).toBe(false);
  });

  it('offers setup when /status says no model can answer, whatever the providers say', async () => {
    const notReady = {
      ...STATUS,
      model_ready: { ok: false, detail: 'no model can answer: Ollama is not reachable', fix: 'x' },
    };
    const working = [{ provider: 'anthropic', configured: true, reachable: null }];
    const { core } = build(
      fakeClient({
        '/api/v1/status': notReady,
        '/api/v1/models?live=true': { providers: working },
      }),
    );
    await core.start();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(core.getState().needsSetup).toBe(true);
    expect(core.getState().status?.model_ready).toEqual({
      ok: false,
      detail: 'no model can answer: Ollama is not reachable',
    });
  });

  it('does not offer setup when /status says a model is ready, though a live check failed', async () => {
    const ready = {
      ...STATUS,
      model_ready: { ok: true, detail: 'ready: gpt-4o', fix: '' },
    };
    const failing = [
      { provider: 'ollama', configured: true, live_checked: true, reachable: false },
    ];
    const { core } = build(
      fakeClient({ '/api/v1/status': ready, '/api/v1/models?live=true': { providers: failing } }),
    );
    await core.start();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(core.getState().needsSetup).toBe(false);
  });

  it('reads a hostile model_ready as absent', async () => {
    for (const model_ready of [null, 'yes', { ok: 'true' }, [true]]) {
      const { core } = build(fakeClient({ '/api/v1/status': { ...STATUS, model_ready } }));
      await core.start();
      expect(core.getState().status?.model_ready, JSON.stringify(model_ready)).toBeNull();
      core.stop();
    }
  });

  it('says the gateway is unreachable, keeps the last figures, and recovers', async () => {
    const down = fakeClient({
      '/api/v1/status': new GatewayUnreachableError(
        'http://127.0.0.1:7432',
        new Error('ECONNREFUSED'),
      ),
    });
    const { core } = build(down);
    await core.start();
    expect(core.getState()).toMatchObject({ connection: 'unreachable' });
    expect(core.getState().problem).toContain('no gateway answering');
  });

  it('reports a wrong API key (401) as the problem, not as unreachable', async () => {
    const { core } = build(
      fakeClient({
        '/api/v1/status': new GatewayHttpError(
          'GET',
          '/api/v1/status',
          401,
          'Missing or invalid X-API-Key header',
        ),
      }),
    );
    await core.start();
    expect(core.getState()).toMatchObject({
      connection: 'ok',
      problem: expect.stringContaining('401'),
    });
  });

  it('approves, approves always and denies the selected approval over REST', async () => {
    const { core, client } = build();
    await core.start();
    await core.approveSelected(false);
    expect(core.getState().notice).toBe('Approved aaaaaaaa.');
    core.select(1);
    await core.approveSelected(true);
    expect(core.getState().notice).toBe('Approved bbbbbbbb; allowed from now on.');
    core.select(1); // wraps to the first
    await core.denySelected();
    expect(client.calls.filter((c) => c.method === 'POST')).toEqual([
      { method: 'POST', path: '/api/v1/approvals/aaaaaaaa-0000/approve', body: { always: false } },
      { method: 'POST', path: '/api/v1/approvals/bbbbbbbb-0000/approve', body: { always: true } },
      { method: 'POST', path: '/api/v1/approvals/aaaaaaaa-0000/deny', body: undefined },
    ]);
  });

  it('says so when the approval expired meanwhile (404), and with nothing pending', async () => {
    const { core } = build(
      fakeClient({
        'POST /api/v1/approvals/aaaaaaaa-0000/approve': new GatewayHttpError(
          'POST',
          'x',
          404,
          'Not found',
        ),
      }),
    );
    await core.start();
    await core.approveSelected(false);
    expect(core.getState().notice).toBe(
      'aaaaaaaa is no longer pending (expired or decided elsewhere).',
    );

    const empty = build(fakeClient({ '/api/v1/approvals/pending': { pending: [] } }));
    await empty.core.start();
    await empty.core.approveSelected(false);
    expect(empty.core.getState().notice).toBe('Nothing is waiting for approval.');
  });

  it('chats over /ws/chat (form B): hello, message, streamed deltas, done', async () => {
    const { core, sockets } = build();
    await core.start();
    const chat = sockets['/ws/chat']!;
    expect(chat.sent[0]).toEqual({ type: 'hello' });
    chat.receive({ type: 'hello', session_id: 'web:abc' });
    core.sendChat('hello there');
    expect(chat.sent[1]).toEqual({ type: 'message', content: 'hello there' });
    chat.receive({ type: 'message_chunk', delta: 'Hi' });
    chat.receive({ type: 'message_chunk', delta: ' you' });
    chat.receive({ type: 'message_done', session_id: 'web:abc', quality_score: 0.9 });
    expect(core.getState().chat).toMatchObject({
      sessionId: 'web:abc',
      busy: false,
      lines: [
        { role: 'you', text: 'hello there' },
        { role: 'agent', text: 'Hi you' },
      ],
    });
  });

  it('answers /help and /clear itself, sends the gateway’s slash commands on', async () => {
    const { core, sockets } = build();
    await core.start();
    core.sendChat('/help');
    expect(core.getState().chat.lines.some((l) => l.text.startsWith('/model'))).toBe(true);
    core.sendChat('/clear');
    expect(core.getState().chat.lines).toEqual([]);
    core.sendChat('/think high');
    expect(sockets['/ws/chat']!.sent.at(-1)).toEqual({ type: 'message', content: '/think high' });
  });

  it('shows the gateway’s error frames and refuses a second message while one is in flight', async () => {
    const { core, sockets } = build();
    await core.start();
    core.sendChat('one');
    core.sendChat('two');
    expect(core.getState().chat.lines.at(-1)).toEqual({
      role: 'error',
      text: 'wait for the reply in progress',
    });
    sockets['/ws/chat']!.receive({ type: 'error', detail: 'Empty message' });
    expect(core.getState().chat).toMatchObject({ busy: false });
    expect(core.getState().chat.lines.at(-1)).toEqual({ role: 'error', text: 'Empty message' });
  });

  it('follows /ws/logs: the backlog, then live lines; garbage frames are ignored', async () => {
    const { core, sockets } = build();
    await core.start();
    const logs = sockets['/ws/logs']!;
    logs.receive({
      type: 'log_lines',
      available: true,
      lines: [{ time: 't', level: 'info', msg: 'one' }, { nope: 1 }],
    });
    logs.receive('not json');
    logs.receive({ type: 'log', line: { time: 't', level: 'warn', msg: 'two' } });
    logs.receive({ type: 'log', line: 'bad' });
    expect(core.getState().logs.map((l) => l.msg)).toEqual(['one', 'two']);
    expect(core.getState().logsAvailable).toBe(true);
  });

  it('keeps at most 200 log lines however many arrive', async () => {
    const { core, sockets } = build();
    await core.start();
    for (let i = 0; i < 1_000; i += 1)
      sockets['/ws/logs']!.receive({
        type: 'log',
        line: { time: 't', level: 'info', msg: `l${i}` },
      });
    expect(core.getState().logs).toHaveLength(200);
    expect(core.getState().logs.at(-1)?.msg).toBe('l999');
  });

  it('reads whatever a hostile gateway sends without throwing', async () => {
    const { core } = build(
      fakeClient({
        '/api/v1/status': { status: 5, host: 'x', backends: { a: 1, b: 'ok' } },
        '/api/v1/sessions': { sessions: 'nope' },
        '/api/v1/approvals/pending': {
          pending: [{ id: 7 }, null, { id: 'ok-id', created_at: 'soon' }],
        },
        '/api/v1/usage': { models: [1, 2] },
      }),
    );
    await core.start();
    const s = core.getState();
    expect(s.status).toMatchObject({ status: '?', backends: { b: 'ok' } });
    expect(s.sessions).toEqual([]);
    expect(s.pending.map((p) => p.id)).toEqual(['ok-id']);
  });
});
