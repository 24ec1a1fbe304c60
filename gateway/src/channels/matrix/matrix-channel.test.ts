import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { startFakeMatrix, type FakeMatrix } from '../testing/fake-matrix.ts';
import {
  approvalShortId,
  gatewayApi,
  shell,
  startChannelTestBed,
} from '../testing/channel-test-kit.ts';
import { MATRIX_TEXT_LIMIT } from './matrix-adapter.ts';

const BOT = '@hearth:fake.test';
const TOKEN = 'syt_gateway_test_token';
const OWNER = '@owner:fake.test';
const STRANGER = '@stranger:fake.test';
const RUSHER = '@rusher:fake.test';
const OWNER_DM = '!owner-dm:fake.test';
const STRANGER_DM = '!stranger-dm:fake.test';
const RATE = 10;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Matrix, through a real gateway, matrix-js-sdk and the fake homeserver', () => {
  let bed: ChatTestBed;
  let matrix: FakeMatrix;

  const api = gatewayApi(() => bed.gw.url);
  const { call, counter } = api;
  const channelStatus = () => api.channelStatus('mx');
  const errorsTotal = () => api.errorsTotal('mx');

  beforeAll(async () => {
    matrix = await startFakeMatrix({ userId: BOT, token: TOKEN, displayName: 'Hearth' });
    matrix.directRoom(OWNER_DM, OWNER);
    bed = await startChannelTestBed('mx', {
      type: 'matrix',
      homeserver_url: matrix.homeserverUrl,
      access_token: TOKEN,
      user_id: BOT,
      allow_from: [OWNER, RUSHER],
      rate_limit_per_minute: RATE,
    });
  });
  afterAll(async () => {
    await bed.close();
    await matrix.close();
  });
  afterEach(() => {
    bed.fake.reset();
    matrix.skipSent();
  });

  it('connects (whoami, then the sync loop), and /ready waits for it', async () => {
    await expect.poll(channelStatus, { timeout: 20_000 }).toBe('connected');
    expect(await (await fetch(`${bed.gw.url}/ready`)).json()).toMatchObject({
      ready: true,
      checks: { channel_connected: true },
    });
    expect(matrix.calls).toContain('GET /_matrix/client/v3/account/whoami');
    expect(matrix.calls).toContain('GET /_matrix/client/v3/sync');
  });

  it('message in → model → reply out, typing shown meanwhile, its own echo not answered', async () => {
    bed.fake.reply({ text: 'Hi from Hearth on Matrix.' });
    matrix.message(OWNER_DM, OWNER, 'hello bot');
    expect(await matrix.nextSent()).toMatchObject([
      { roomId: OWNER_DM, body: 'Hi from Hearth on Matrix.' },
    ]);
    expect(matrix.typing).toContainEqual({ roomId: OWNER_DM, typing: true });
    expect(JSON.stringify(bed.fake.requests[0]?.body)).toContain('hello bot');
    await pause(500); // the reply came back in /sync as the bot's own event
    expect(bed.fake.requests).toHaveLength(1);
    expect((await counter('messages_total'))['channel=matrix']).toBeGreaterThanOrEqual(1);
    expect((await counter('messages_sent_total'))['channel=matrix']).toBeGreaterThanOrEqual(1);
  });

  it(`a long reply is split at the ${MATRIX_TEXT_LIMIT}-character limit`, async () => {
    const long = Array.from({ length: 5_000 }, (_, i) => `line ${i}`).join('\n');
    bed.fake.reply({ text: long });
    matrix.message(OWNER_DM, OWNER, 'a long one please');
    const parts = await matrix.nextSent(Math.ceil(long.length / MATRIX_TEXT_LIMIT));
    for (const part of parts) expect(part.body.length).toBeLessThanOrEqual(MATRIX_TEXT_LIMIT);
    expect(parts.map((p) => p.body).join('\n')).toBe(long);
    expect(new Set(parts.map((p) => p.txnId)).size).toBe(parts.length);
  });

  it('the approval notice reaches the room; a stranger’s approve is ignored, the owner’s decides', async () => {
    const notices = await counter('approval_notifications_total');
    bed.fake.reply(shell('echo from-matrix'), { text: 'It printed from-matrix.' });
    matrix.message(OWNER_DM, OWNER, 'run the echo');
    const [notice] = await matrix.nextSent();
    expect(notice?.roomId).toBe(OWNER_DM);
    const short = approvalShortId(notice?.body, 'echo from-matrix');
    expect(short).toBeDefined();
    expect((await counter('approval_notifications_total'))['outcome=sent']).toBe(
      (notices['outcome=sent'] ?? 0) + 1,
    );

    // A stranger opens a direct chat (the bot joins it) and tries the id: a pairing code only.
    matrix.invite(STRANGER_DM, STRANGER, true);
    await expect.poll(() => matrix.membership(STRANGER_DM), { timeout: 15_000 }).toBe('join');
    matrix.message(STRANGER_DM, STRANGER, `approve ${short}`);
    const [toStranger] = await matrix.nextSent();
    expect(toStranger?.roomId).toBe(STRANGER_DM);
    expect(toStranger?.body).toContain('pairing code');
    const pending = await api.pendingApprovals();
    expect(pending.map((p) => p.id.slice(0, 8))).toContain(short);

    matrix.message(OWNER_DM, OWNER, `approve ${short}`);
    const replies = await matrix.nextSent(2);
    expect(replies.map((r) => r.body).sort()).toEqual(
      [`Approved ${short}.`, 'It printed from-matrix.'].sort(),
    );
    expect(await api.pendingApprovals()).toEqual([]);
    expect(bed.fake.requests).toHaveLength(2);
  });

  it('pairing: the stranger’s code approved by the owner lets it talk to the model', async () => {
    const code = (await api.pairingCode('mx', STRANGER)) as string;
    expect(code).toMatch(/^[A-Z0-9]{8}$/);
    expect((await call('POST', `/channels/mx/pairings/${code}/approve`)).status).toBe(200);
    bed.fake.reply({ text: 'Nice to meet you.' });
    matrix.message(STRANGER_DM, STRANGER, 'hello, now paired');
    expect((await matrix.nextSent())[0]).toMatchObject({
      roomId: STRANGER_DM,
      body: 'Nice to meet you.',
    });
  });

  it('joins a group it is invited to by the owner (not a stranger’s); answers there only when mentioned', async () => {
    matrix.invite('!strangers-group:fake.test', '@someone:fake.test', false);
    matrix.invite('!group:fake.test', OWNER, false, ['@friend:fake.test']);
    await expect
      .poll(() => matrix.membership('!group:fake.test'), { timeout: 15_000 })
      .toBe('join');
    expect(matrix.membership('!strangers-group:fake.test')).toBe('invite');
    matrix.message('!group:fake.test', OWNER, 'just chatting');
    bed.fake.reply({ text: 'You rang?' }, { text: 'Still here.' });
    matrix.message('!group:fake.test', OWNER, 'hearth: are you there?');
    expect((await matrix.nextSent())[0]).toMatchObject({
      roomId: '!group:fake.test',
      body: 'You rang?',
    });
    matrix.message('!group:fake.test', OWNER, 'and you?', {
      'm.mentions': { user_ids: [BOT] },
    });
    expect((await matrix.nextSent())[0]?.body).toBe('Still here.');
    const asked = bed.fake.requests.map((r) => {
      const messages = (r.body as { messages: { role: string; content: string }[] }).messages;
      return messages.at(-1)?.content;
    });
    expect(asked).toEqual(['hearth: are you there?', 'and you?']);
  });

  it(`excess messages get one polite notice, not a model call (${RATE} per minute)`, async () => {
    matrix.directRoom('!rusher-dm:fake.test', RUSHER);
    await matrix.caughtUp();
    bed.fake.reply(...Array.from({ length: RATE }, (_, i) => ({ text: `answer ${i}` })));
    for (let i = 0; i < RATE + 3; i += 1)
      matrix.message('!rusher-dm:fake.test', RUSHER, `msg ${i}`);
    await matrix.nextSent(RATE + 1);
    await pause(500);
    const toRusher = matrix.sent.filter((m) => m.roomId === '!rusher-dm:fake.test');
    expect(toRusher.filter((m) => m.body.includes('faster than I can answer'))).toHaveLength(1);
    expect(toRusher).toHaveLength(RATE + 1);
    expect(bed.fake.requests).toHaveLength(RATE);
  });

  it('a 429 M_LIMIT_EXCEEDED on send is waited out (retry_after_ms), and the reply is stored once', async () => {
    matrix.throttle('send', 1_000);
    bed.fake.reply({ text: 'after the throttle' });
    const started = Date.now();
    matrix.message(OWNER_DM, OWNER, 'slowly');
    expect((await matrix.nextSent())[0]?.body).toBe('after the throttle');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    await pause(300);
    expect(matrix.sent.filter((m) => m.body === 'after the throttle')).toHaveLength(1);
  });

  it('malformed, unknown and oversized events are counted and logged; a corrupt /sync is survived', async () => {
    const before = await errorsTotal();
    const metric = (await counter('messages_errors_total'))['channel=matrix'] ?? 0;
    matrix.rawEvent(OWNER_DM, { sender: OWNER, content: { msgtype: 'm.text', body: 42 } });
    matrix.rawEvent(OWNER_DM, {
      sender: OWNER,
      content: { msgtype: 'org.example.weird', body: 'x' },
    });
    matrix.rawEvent(OWNER_DM, { sender: OWNER, content: { body: 'no msgtype' } });
    matrix.message(OWNER_DM, OWNER, 'y'.repeat(20_000));
    // Quiet kinds: an image, a notice (another bot), an unknown event type, a state change.
    matrix.message(OWNER_DM, OWNER, 'cat.png', { msgtype: 'm.image', url: 'mxc://x/y' });
    matrix.message(OWNER_DM, OWNER, 'beep', { msgtype: 'm.notice' });
    matrix.rawEvent(OWNER_DM, { type: 'org.example.unknown', sender: OWNER, content: { a: 1 } });
    await expect.poll(errorsTotal, { timeout: 10_000 }).toBe(before + 4);
    expect((await counter('messages_errors_total'))['channel=matrix']).toBe(metric + 4);

    matrix.corruptSync(1);
    bed.fake.reply({ text: 'still here' });
    matrix.message(OWNER_DM, OWNER, 'after the junk');
    expect((await matrix.nextSent(1, 30_000))[0]?.body).toBe('still here');
    expect(bed.fake.requests).toHaveLength(1);
  });

  it('a replayed event (the same event id again) is answered once', async () => {
    const replayed = {
      event_id: '$replayed-once:fake.test',
      sender: OWNER,
      content: { msgtype: 'm.text', body: 'only once please' },
    };
    bed.fake.reply({ text: 'once' }, { text: 'twice?!' });
    matrix.rawEvent(OWNER_DM, replayed);
    matrix.rawEvent(OWNER_DM, replayed);
    expect((await matrix.nextSent())[0]?.body).toBe('once');
    await pause(500);
    expect(bed.fake.requests).toHaveLength(1);
  });

  it('reconnects after the homeserver drops: status shows it, then messages flow again', async () => {
    await matrix.drop();
    await expect.poll(channelStatus, { timeout: 30_000 }).toBe('disconnected');
    expect((await fetch(`${bed.gw.url}/ready`)).status).toBe(503);
    bed.fake.reply({ text: 'back online' });
    matrix.message(OWNER_DM, OWNER, 'sent while you were away');
    await matrix.restore();
    expect((await matrix.nextSent(1, 30_000))[0]?.body).toBe('back online');
    await expect.poll(channelStatus, { timeout: 30_000 }).toBe('connected');
    expect(JSON.stringify(bed.fake.requests[0]?.body)).toContain('sent while you were away');
  });

  it('a revoked access token (401 M_UNKNOWN_TOKEN) drops the channel, not the gateway', async () => {
    matrix.revokeToken();
    await expect.poll(channelStatus, { timeout: 30_000 }).toBe('disconnected');
    const detail = (await call('GET', '/channels/mx')).body;
    expect(detail.last_error).toContain('[401] Invalid access token');
    expect(JSON.stringify(detail)).not.toContain(TOKEN);
    expect((await fetch(`${bed.gw.url}/health`)).status).toBe(200);
    expect((await call('GET', '/channels')).status).toBe(200);
  });
});

describe('Matrix across a gateway restart (the cursor in the database)', () => {
  it('answers what was sent while the gateway was down, once, and never the history before the channel', async () => {
    const matrix = await startFakeMatrix({ userId: BOT, token: TOKEN, displayName: 'Hearth' });
    matrix.directRoom(OWNER_DM, OWNER);
    matrix.message(OWNER_DM, OWNER, 'history from before the channel existed');
    const channel = {
      type: 'matrix',
      homeserver_url: matrix.homeserverUrl,
      access_token: TOKEN,
      user_id: BOT,
      allow_from: [OWNER],
    };
    const first = await startChannelTestBed('mx', channel);
    const connected = (bed: ChatTestBed) => () => gatewayApi(() => bed.gw.url).channelStatus('mx');
    try {
      await expect.poll(connected(first), { timeout: 20_000 }).toBe('connected');
      first.fake.reply({ text: 'First answer.' });
      matrix.message(OWNER_DM, OWNER, 'hello before the restart');
      expect(await matrix.nextSent()).toMatchObject([{ body: 'First answer.' }]);
      expect(first.fake.requests).toHaveLength(1);
      expect(JSON.stringify(first.fake.requests[0]?.body)).not.toContain('history from before');
    } finally {
      await first.gw.gateway.close(); // stopped, its home kept for the restart
      await first.fake.close();
    }

    matrix.message(OWNER_DM, OWNER, 'sent while the gateway was down');
    const second = await startChannelTestBed('mx', channel, { home: first.gw.home });
    try {
      second.fake.reply({ text: 'Caught up.' });
      expect(await matrix.nextSent()).toMatchObject([{ body: 'Caught up.' }]);
      const asked = JSON.stringify(second.fake.requests.at(-1)?.body);
      expect(asked).toContain('sent while the gateway was down');
      await pause(500);
      expect(second.fake.requests).toHaveLength(1); // nothing answered twice
    } finally {
      await second.close();
      await matrix.close();
    }
  });
});
