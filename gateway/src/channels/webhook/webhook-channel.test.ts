import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { channelSchema } from '../../config/schema.ts';
import { sessionIdFor } from '../../memory/session-id.ts';
import { startChatTestBed, type ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { rawRequest } from '../../testing/fakes/raw-request.ts';
import { startCallbackServer, type CallbackServer } from '../testing/callback-server.ts';
import { gatewayApi } from '../testing/channel-test-kit.ts';
import { signedHeaders, signWebhook } from './signature.ts';
import { WEBHOOK_TEXT_LIMIT } from './webhook-adapter.ts';

const SECRET = 'webhook-signing-secret';
const OWNER = 'owner-1';

type Json = Record<string, unknown>;

describe('the webhook channel, through a real gateway and the fake LLM', () => {
  let bed: ChatTestBed;
  let callback: CallbackServer;
  let seq = 0;

  /** POSTs a signed delivery; returns the status and JSON body. */
  async function deliver(body: Json, options: { headers?: Record<string, string> } = {}) {
    const text = JSON.stringify({ id: `m-${(seq += 1)}`, ...body });
    const res = await fetch(`${bed.gw.url}/api/v1/channels/webhook/hooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signedHeaders(SECRET, Date.now(), text),
        ...options.headers,
      },
      body: text,
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  const { call, counter } = gatewayApi(() => bed.gw.url);

  let configPath: string;

  beforeAll(async () => {
    callback = await startCallbackServer(SECRET);
    // config.toml as a user wrote it: enable/disable are kept in it, references stay references.
    const home = await mkdtemp(join(tmpdir(), 'hearth-webhook-'));
    configPath = join(home, 'config.toml');
    await writeFile(
      configPath,
      '# my channels\n[channels.hooks]\ntype = "webhook"\nsigning_secret = "ENV:HOOKS_SECRET"\n',
    );
    bed = await startChatTestBed(undefined, {
      home,
      config: {
        channels: {
          hooks: channelSchema.parse({
            type: 'webhook',
            signing_secret: SECRET,
            callback_url: callback.url,
            allow_from: [OWNER],
            rate_limit_per_minute: 5,
            reply_mode: 'mention',
          }),
        },
      },
    });
  });
  afterAll(async () => {
    await bed.close();
    await callback.close();
  });
  afterEach(async () => {
    await bed.gw.gateway.whenReady();
    bed.fake.reset();
    callback.skip();
  });

  it('lists the channel as connected, and /ready waits for it (channel_connected)', async () => {
    const list = await call('GET', '/channels');
    expect(list.body.channels).toEqual([
      expect.objectContaining({ name: 'hooks', type: 'webhook', status: 'connected' }),
    ]);
    const ready = await fetch(`${bed.gw.url}/ready`);
    expect(await ready.json()).toMatchObject({ ready: true, checks: { channel_connected: true } });
    const status = await call('GET', '/status');
    expect((status.body.backends as Json)['channel.hooks']).toBe('webhook: connected');
  });

  it('a paired sender’s message runs a full turn and the reply goes to the callback', async () => {
    bed.fake.reply({ text: 'Hello from the agent.' });
    expect(await deliver({ sender: OWNER, text: 'hi there' })).toEqual({
      status: 200,
      body: { received: true },
    });
    const [reply] = await callback.next();
    expect(reply).toEqual({ chat: OWNER, text: 'Hello from the agent.', signed: true });
    expect(bed.fake.requests).toHaveLength(1);

    // The same (channel, chat) is the same session: the next turn carries the history.
    bed.fake.reply({ text: 'Second answer.' });
    await deliver({ sender: OWNER, text: 'and again' });
    await callback.next();
    expect(JSON.stringify(bed.fake.requests[1]?.body)).toContain('hi there');
    const sessions = (await call('GET', '/sessions')).body as { sessions: { id: string }[] };
    expect(sessions.sessions.map((s) => s.id)).toContain(sessionIdFor('hooks', OWNER));

    const messages = await call('GET', '/channels/hooks/messages?limit=3');
    expect(messages.body.messages).toEqual([
      expect.objectContaining({ direction: 'out', text: 'Second answer.' }),
      expect.objectContaining({ direction: 'in', text: 'and again', user: OWNER }),
      expect.objectContaining({ direction: 'out', text: 'Hello from the agent.' }),
    ]);
    expect(messages.body.total).toBeGreaterThanOrEqual(4);
    const listed = (await call('GET', '/channels')).body.channels as Json[];
    expect(listed[0]?.unread).toBeGreaterThanOrEqual(2);
    expect(listed[0]?.last_message_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const marked = await call('PATCH', '/channels/hooks/mark-read');
    expect(marked.body.marked_read).toBeGreaterThanOrEqual(2);
    expect(((await call('GET', '/channels')).body.channels as Json[])[0]?.unread).toBe(0);
    const detail = await call('GET', '/channels/hooks');
    expect(detail.body).toMatchObject({
      name: 'hooks',
      status: 'connected',
      config: { enabled: true, reply_mode: 'mention', rate_limit_per_minute: 5 },
      stats: { messages_in_total: expect.any(Number), messages_out_total: expect.any(Number) },
    });
  });

  it('a long reply is split per the network limit, nothing lost', async () => {
    const words = Array.from({ length: 6_000 }, (_, i) => `w${i}`).join(' ');
    expect(words.length).toBeGreaterThan(2 * WEBHOOK_TEXT_LIMIT);
    bed.fake.reply({ text: words });
    await deliver({ sender: OWNER, chat: 'long-chat', text: 'write a lot' });
    const parts = await callback.next(3);
    for (const part of parts) expect(part.text.length).toBeLessThanOrEqual(WEBHOOK_TEXT_LIMIT);
    expect(parts.map((p) => p.text).join(' ')).toBe(words);
  });

  it('a stranger gets a pairing code and reaches the model only once the owner approves it', async () => {
    await deliver({ sender: 'stranger', text: 'hello?' });
    const [notice] = await callback.next();
    const code = /pairing code is ([A-Z0-9]{8})/.exec(notice?.text ?? '')?.[1] ?? '';
    expect(code).toMatch(/^[A-Z0-9]{8}$/);
    expect(notice?.chat).toBe('stranger');
    expect(bed.fake.requests).toHaveLength(0);

    // The same code again while it is pending; a wrong code is a 404 naming it.
    await deliver({ sender: 'stranger', text: 'anyone?' });
    expect((await callback.next())[0]?.text).toContain(code);
    const wrong = await call('POST', '/channels/hooks/pairings/ABCDEFGH/approve');
    expect(wrong).toEqual({
      status: 404,
      body: { detail: "No pending pairing code ABCDEFGH on channel 'hooks'" },
    });
    expect((await call('POST', '/channels/hooks/pairings/nope/approve')).status).toBe(422);
    const pairings = await call('GET', '/channels/hooks/pairings');
    expect(pairings.body.pairings).toEqual([
      expect.objectContaining({ sender_id: 'stranger', status: 'pending', code }),
    ]);

    expect(await call('POST', `/channels/hooks/pairings/${code.toLowerCase()}/approve`)).toEqual({
      status: 200,
      body: { approved: true, sender_id: 'stranger' },
    });
    expect((await call('POST', `/channels/hooks/pairings/${code}/approve`)).status).toBe(404);
    bed.fake.reply({ text: 'Welcome.' });
    await deliver({ sender: 'stranger', text: 'hello again' });
    expect((await callback.next())[0]).toMatchObject({ chat: 'stranger', text: 'Welcome.' });
    expect(bed.fake.requests).toHaveLength(1);
  });

  it('in a group: answers only when mentioned (reply_mode mention); strangers get nothing', async () => {
    const before = callback.received.length;
    await deliver({ sender: OWNER, chat: 'group-1', direct: false, text: 'chatter' });
    await deliver({
      sender: 'someone',
      chat: 'group-1',
      direct: false,
      mentioned: true,
      text: 'hey bot',
    });
    bed.fake.reply({ text: 'You called?' });
    await deliver({
      sender: OWNER,
      chat: 'group-1',
      direct: false,
      mentioned: true,
      text: '@bot hi',
    });
    const [reply] = await callback.next();
    expect(reply).toMatchObject({ chat: 'group-1', text: 'You called?' });
    expect(callback.received.length).toBe(before + 1);
    expect(bed.fake.requests).toHaveLength(1);
  });

  it('excess messages get one polite notice, not a model call (rate_limit_per_minute)', async () => {
    bed.fake.reply(...Array.from({ length: 5 }, (_, i) => ({ text: `answer ${i}` })));
    for (let i = 0; i < 8; i += 1) await deliver({ sender: OWNER, chat: 'busy', text: `msg ${i}` });
    await callback.next(6);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const toBusy = callback.received.filter((m) => m.chat === 'busy');
    expect(toBusy.filter((m) => m.text.includes('faster than I can answer'))).toHaveLength(1);
    expect(toBusy).toHaveLength(6);
    expect(bed.fake.requests).toHaveLength(5);
  });

  it('forged, stale, replayed, malformed and oversized deliveries are refused, counted, and harmless', async () => {
    const errors = (await counter('messages_errors_total'))['channel=webhook'] ?? 0;
    const body = JSON.stringify({ id: 'x-1', sender: OWNER, text: 'forged' });
    const post = (headers: Record<string, string>, payload: string = body) =>
      rawRequest(bed.gw.port, '/api/v1/channels/webhook/hooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: payload,
      });

    const forged = await post(signedHeaders('wrong-secret', Date.now(), body));
    expect(forged.status).toBe(401);
    expect(JSON.parse(forged.body)).toEqual({ detail: 'Webhook refused: bad signature' });
    expect((await post({})).status).toBe(401);
    const tampered = signedHeaders(SECRET, Date.now(), body);
    expect((await post(tampered, body.replace('forged', 'f0rged'))).status).toBe(401);
    const stale = signedHeaders(SECRET, Date.now() - 3_600_000, body);
    expect(JSON.parse((await post(stale)).body)).toEqual({
      detail: 'Webhook refused: timestamp outside the replay window',
    });
    const fresh = signedHeaders(SECRET, Date.now(), JSON.stringify({ sender: OWNER, text: '' }));
    const once = await post(fresh, JSON.stringify({ sender: OWNER, text: '' }));
    expect(once.status).toBe(200);
    const replayed = await post(fresh, JSON.stringify({ sender: OWNER, text: '' }));
    expect(JSON.parse(replayed.body)).toEqual({ detail: 'Webhook refused: replayed delivery' });
    expect(
      (await post({ 'x-hearth-timestamp': '12ab', 'x-hearth-signature': 'sha256=00' })).status,
    ).toBe(401);

    const notJson = '{"sender": ';
    expect((await post(signedHeaders(SECRET, Date.now(), notJson), notJson)).status).toBe(400);
    const wrongShape = JSON.stringify({ sender: OWNER, text: 42, extra: true });
    const shaped = await post(signedHeaders(SECRET, Date.now(), wrongShape), wrongShape);
    expect(shaped.status).toBe(422);
    expect(JSON.parse(shaped.body).detail).toContain('text');

    const huge = JSON.stringify({ sender: OWNER, text: 'x'.repeat(300 * 1024) });
    const oversized = await post(signedHeaders(SECRET, Date.now(), huge), huge);
    expect(oversized.status).toBe(413);
    expect(JSON.parse(oversized.body)).toHaveProperty('detail');

    const unknown = await rawRequest(bed.gw.port, '/api/v1/channels/webhook/nobody', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toEqual({ detail: "No webhook channel named 'nobody'" });

    // 8 refusals above went through the adapter (forged, unsigned, tampered, stale, replayed,
    // malformed header, bad JSON, bad shape), each counted once.
    expect((await counter('messages_errors_total'))['channel=webhook']).toBe(errors + 8);
    expect(bed.fake.requests).toHaveLength(0);
    // Still serving: a good delivery right after.
    bed.fake.reply({ text: 'still here' });
    await deliver({ sender: OWNER, text: 'ping' });
    expect((await callback.next())[0]?.text).toBe('still here');
  });

  it('the signature covers the timestamp: the same body with a new timestamp needs a new signature', () => {
    expect(signWebhook(SECRET, 1, 'a')).not.toBe(signWebhook(SECRET, 2, 'a'));
    expect(signWebhook(SECRET, 1, 'a')).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('sends on request, and disable/enable/reconnect change what the channel does', async () => {
    expect(
      await call('POST', '/channels/hooks/send', { target: 'ops', text: 'deploy done' }),
    ).toEqual({
      status: 200,
      body: { sent: true, parts: 1 },
    });
    expect((await callback.next())[0]).toMatchObject({ chat: 'ops', text: 'deploy done' });
    expect((await call('POST', '/channels/hooks/send', { target: '', text: 'x' })).status).toBe(
      422,
    );
    expect((await call('POST', '/channels/nope/send', { target: 'a', text: 'x' })).status).toBe(
      404,
    );

    expect(await call('POST', '/channels/hooks/disable')).toEqual({
      status: 200,
      body: { disabled: true },
    });
    expect((await call('GET', '/channels/hooks')).body).toMatchObject({
      status: 'disabled',
      config: { enabled: false },
    });
    expect(await readFile(configPath, 'utf8')).toBe(
      '# my channels\n[channels.hooks]\ntype = "webhook"\nsigning_secret = "ENV:HOOKS_SECRET"\nenabled = false\n',
    );
    expect((await deliver({ sender: OWNER, text: 'while off' })).status).toBe(503);
    expect((await call('POST', '/channels/hooks/send', { target: 'a', text: 'x' })).status).toBe(
      409,
    );
    expect((await fetch(`${bed.gw.url}/ready`)).status).toBe(503);

    expect(await call('POST', '/channels/hooks/enable')).toEqual({
      status: 200,
      body: { enabled: true },
    });
    expect((await call('GET', '/channels/hooks')).body.status).toBe('connected');
    expect(await readFile(configPath, 'utf8')).toContain(
      'signing_secret = "ENV:HOOKS_SECRET"\nenabled = true\n',
    );
    expect(await call('POST', '/channels/hooks/reconnect')).toEqual({
      status: 200,
      body: { reconnecting: true },
    });
    await expect
      .poll(async () => (await call('GET', '/channels/hooks')).body.status)
      .toBe('connected');
    expect((await call('POST', '/channels/nope/enable')).status).toBe(404);
    expect((await fetch(`${bed.gw.url}/ready`)).status).toBe(200);
  });

  it('a callback that fails is counted and logged, and the next reply still goes out', async () => {
    const before = ((await call('GET', '/channels/hooks')).body.stats as Json)
      .errors_total as number;
    callback.failNext(1);
    bed.fake.reply({ text: 'lost one' }, { text: 'got this one' });
    await deliver({ sender: OWNER, chat: 'flaky', text: 'one' });
    await expect
      .poll(async () => ((await call('GET', '/channels/hooks')).body.stats as Json).errors_total)
      .toBe(before + 1);
    await deliver({ sender: OWNER, chat: 'flaky', text: 'two' });
    expect((await callback.next())[0]?.text).toBe('got this one');
  });
});
