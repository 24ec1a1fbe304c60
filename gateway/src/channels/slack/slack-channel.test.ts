import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { startFakeSlack, type FakeSlack } from '../testing/fake-slack.ts';
import {
  approvalShortId,
  gatewayApi,
  shell,
  startChannelTestBed,
} from '../testing/channel-test-kit.ts';
import { SLACK_TEXT_LIMIT } from './slack-adapter.ts';

const TOKENS = { bot: 'xoxb-gateway-test', app: 'xapp-gateway-test' };
const OWNER = 'U0000OWNER01';
const STRANGER = 'U0000STRANGR';
const BUSY = 'U0000BUSY001';
const RATE_LIMIT = 10;

describe('Slack, through a real gateway, Bolt in Socket Mode and the fake Slack', () => {
  let bed: ChatTestBed;
  let slack: FakeSlack;

  const api = gatewayApi(() => bed.gw.url);
  const { call, counter } = api;
  const channelStatus = () => api.channelStatus('sl');

  beforeAll(async () => {
    slack = await startFakeSlack(TOKENS);
    bed = await startChannelTestBed('sl', {
      type: 'slack',
      bot_token: TOKENS.bot,
      app_token: TOKENS.app,
      web_api_url: slack.apiUrl,
      allow_from: [OWNER, BUSY],
      rate_limit_per_minute: RATE_LIMIT,
    });
  });
  afterAll(async () => {
    await bed.close();
    await slack.close();
  });
  afterEach(() => {
    bed.fake.reset();
    slack.skipSent();
  });

  it('connects in Socket Mode (auth.test, apps.connections.open, hello), and /ready waits for it', async () => {
    await expect.poll(channelStatus, { timeout: 20_000 }).toBe('connected');
    expect(await (await fetch(`${bed.gw.url}/ready`)).json()).toMatchObject({
      ready: true,
      checks: { channel_connected: true },
    });
    expect(slack.calls).toEqual(expect.arrayContaining(['auth.test', 'apps.connections.open']));
  });

  it('message in → model → reply out; the envelope is acknowledged', async () => {
    bed.fake.reply({ text: 'Hi from Hearth on Slack.' });
    const envelope = slack.message({ from: OWNER, text: 'hello bot' });
    expect(await slack.nextSent()).toEqual([{ channel: OWNER, text: 'Hi from Hearth on Slack.' }]);
    expect(slack.acked).toContain(envelope);
    expect(JSON.stringify(bed.fake.requests[0]?.body)).toContain('hello bot');
    expect((await counter('messages_total'))['channel=slack']).toBeGreaterThanOrEqual(1);
    expect((await counter('messages_sent_total'))['channel=slack']).toBeGreaterThanOrEqual(1);
  });

  it('a long reply is split at the 4000-character limit', async () => {
    const long = Array.from({ length: 1_500 }, (_, i) => `line ${i}`).join('\n');
    bed.fake.reply({ text: long });
    slack.message({ from: OWNER, text: 'a long one please' });
    const parts = await slack.nextSent(Math.ceil(long.length / SLACK_TEXT_LIMIT));
    for (const part of parts) expect(part.text.length).toBeLessThanOrEqual(SLACK_TEXT_LIMIT);
    expect(parts.map((p) => p.text).join('\n')).toBe(long);
  });

  it('the approval notice reaches the chat; a stranger’s approve is ignored, the owner’s decides', async () => {
    const notices = await counter('approval_notifications_total');
    bed.fake.reply(shell('echo from-slack'), { text: 'It printed from-slack.' });
    slack.message({ from: OWNER, text: 'run the echo' });
    const [notice] = await slack.nextSent();
    expect(notice?.channel).toBe(OWNER);
    const short = approvalShortId(notice?.text, 'echo from-slack');
    expect(short).toBeDefined();
    expect((await counter('approval_notifications_total'))['outcome=sent']).toBe(
      (notices['outcome=sent'] ?? 0) + 1,
    );

    slack.message({ from: STRANGER, text: `approve ${short}` });
    const [toStranger] = await slack.nextSent();
    expect(toStranger?.channel).toBe(STRANGER);
    expect(toStranger?.text).toContain('pairing code');
    const pending = await api.pendingApprovals();
    expect(pending.map((p) => p.id.slice(0, 8))).toContain(short);

    slack.message({ from: OWNER, text: `approve ${short}` });
    const replies = await slack.nextSent(2);
    expect(replies.map((r) => r.text).sort()).toEqual(
      [`Approved ${short}.`, 'It printed from-slack.'].sort(),
    );
    expect(await api.pendingApprovals()).toEqual([]);
    expect(bed.fake.requests).toHaveLength(2);
  });

  it('pairing: the stranger’s code approved by the owner lets it talk to the model', async () => {
    const code = (await api.pairingCode('sl', STRANGER)) as string;
    expect(code).toMatch(/^[A-Z0-9]{8}$/);
    expect((await call('POST', `/channels/sl/pairings/${code}/approve`)).status).toBe(200);
    bed.fake.reply({ text: 'Nice to meet you.' });
    slack.message({ from: STRANGER, text: 'hello, now paired' });
    expect(await slack.nextSent()).toEqual([{ channel: STRANGER, text: 'Nice to meet you.' }]);
  });

  it('a 429 with Retry-After on chat.postMessage is waited out, and the reply arrives', async () => {
    slack.throttle('chat.postMessage', 1);
    bed.fake.reply({ text: 'after the throttle' });
    const started = Date.now();
    slack.message({ from: OWNER, text: 'slowly' });
    expect((await slack.nextSent())[0]?.text).toBe('after the throttle');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('excess messages get one polite notice, not a model call (rate_limit_per_minute)', async () => {
    bed.fake.reply(...Array.from({ length: RATE_LIMIT }, (_, i) => ({ text: `answer ${i}` })));
    for (let i = 0; i < RATE_LIMIT + 3; i += 1) slack.message({ from: BUSY, text: `msg ${i}` });
    const replies = await slack.nextSent(RATE_LIMIT + 1, 30_000);
    const total = slack.sent.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(slack.sent.length).toBe(total); // no second notice, no late answer
    expect(replies.every((r) => r.channel === BUSY)).toBe(true);
    expect(replies.filter((r) => r.text.includes('faster than I can answer'))).toHaveLength(1);
    expect(bed.fake.requests).toHaveLength(RATE_LIMIT);
  });

  it('bad frames, malformed envelopes, unknown types and oversized text are counted and survived', async () => {
    const errors = (await counter('messages_errors_total'))['channel=slack'] ?? 0;
    slack.rawFrame('{"type": "events_api", "envelope_id": ');
    slack.rawFrame(JSON.stringify({ type: 'events_api', envelope_id: 'bad-1', payload: {} }));
    slack.rawFrame(JSON.stringify({ type: 'not_a_slack_frame', envelope_id: 'bad-2' }));
    slack.rawEvent({ type: 'message', channel_type: 'im', text: 'no user, channel or ts' });
    slack.message({ from: OWNER, text: 'y'.repeat(41_000) });
    // Not someone talking: edits, other bots, our own posts.
    slack.message({ from: OWNER, text: 'edited', subtype: 'message_changed' });
    slack.message({ from: 'U0000OTHERBT', text: 'a bot', botId: 'B0000OTHER' });
    slack.message({ from: slack.bot.user_id, text: 'my own echo' });
    bed.fake.reply({ text: 'still here' });
    slack.message({ from: OWNER, text: 'ping' });
    expect(await slack.nextSent()).toEqual([{ channel: OWNER, text: 'still here' }]);
    expect(bed.fake.requests).toHaveLength(1);
    await expect
      .poll(async () => (await counter('messages_errors_total'))['channel=slack'])
      .toBe(errors + 5);
    expect(await channelStatus()).toBe('connected');
    // Every well-formed envelope was acknowledged (nothing will be redelivered).
    expect(slack.unacked()).toBe(0);
  });

  it('channel messages need a mention; message + app_mention of one post answer once', async () => {
    slack.message({ from: OWNER, channel: true, text: 'just chatting' });
    bed.fake.reply({ text: 'You rang?' });
    const text = `<@${slack.bot.user_id}> are you there?`;
    slack.message({ from: OWNER, channel: true, text });
    slack.mention({ from: OWNER, text, sameAsLast: true });
    expect(await slack.nextSent()).toEqual([{ channel: slack.channelId, text: 'You rang?' }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(bed.fake.requests).toHaveLength(1);
    expect(JSON.stringify(bed.fake.requests[0]?.body)).toContain('are you there?');
  });

  it('sends on request to a channel or a user (its DM); Slack’s refusal is a clear 502', async () => {
    expect(
      await call('POST', '/channels/sl/send', { target: slack.channelId, text: 'deploy done' }),
    ).toEqual({ status: 200, body: { sent: true, parts: 1 } });
    expect(await slack.nextSent()).toEqual([{ channel: slack.channelId, text: 'deploy done' }]);
    const refused = await call('POST', '/channels/sl/send', { target: '#nowhere', text: 'x' });
    expect(refused.status).toBe(502);
    expect(String(refused.body.detail)).toContain('channel_not_found');
  });

  it('a disconnect (refresh_requested) is followed by a new connection, and nothing is lost', async () => {
    const before = slack.connections();
    slack.refresh();
    await expect.poll(() => slack.connections(), { timeout: 20_000 }).toBe(before + 1);
    await slack.linked();
    bed.fake.reply({ text: 'refreshed fine' });
    slack.message({ from: OWNER, text: 'still there?' });
    expect((await slack.nextSent(1, 20_000))[0]?.text).toBe('refreshed fine');
  });

  it('reconnects after Slack drops: status shows it, then messages flow again', async () => {
    await slack.drop();
    await expect.poll(channelStatus, { timeout: 20_000 }).toBe('disconnected');
    expect((await fetch(`${bed.gw.url}/ready`)).status).toBe(503);
    await slack.restore();
    await slack.linked(30_000);
    bed.fake.reply({ text: 'back online' });
    slack.message({ from: OWNER, text: 'are you back?' });
    expect((await slack.nextSent(1, 20_000))[0]?.text).toBe('back online');
    await expect.poll(channelStatus, { timeout: 20_000 }).toBe('connected');
    expect((await fetch(`${bed.gw.url}/ready`)).status).toBe(200);
  });
});
