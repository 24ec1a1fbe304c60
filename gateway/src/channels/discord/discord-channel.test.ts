import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { startFakeDiscord, type FakeDiscord } from '../testing/fake-discord.ts';
import {
  approvalShortId,
  gatewayApi,
  shell,
  startChannelTestBed,
} from '../testing/channel-test-kit.ts';
import { DISCORD_TEXT_LIMIT } from './discord-adapter.ts';

const TOKEN = 'gateway.discord.test-token';
const OWNER = '930000000000000101';
const STRANGER = '930000000000000202';
const BUSY = '930000000000000303';
const OTHER_BOT = '930000000000000404';
const RATE_LIMIT = 10;

describe('Discord, through a real gateway, discord.js and the fake Discord', () => {
  let bed: ChatTestBed;
  let discord: FakeDiscord;

  const api = gatewayApi(() => bed.gw.url);
  const { call, counter } = api;
  const channelStatus = () => api.channelStatus('dc');
  /** The chat a sent message went to: a DM channel stands for its user. */
  const chatOf = (channelId: string) => discord.userOfDm(channelId) ?? channelId;
  const nextSent = async (n = 1, timeoutMs?: number) =>
    (await discord.nextSent(n, timeoutMs)).map((m) => ({
      chat: chatOf(m.channel_id),
      text: m.content,
    }));

  beforeAll(async () => {
    discord = await startFakeDiscord(TOKEN);
    bed = await startChannelTestBed('dc', {
      type: 'discord',
      bot_token: TOKEN,
      rest_api_url: discord.apiUrl,
      allow_from: [OWNER, BUSY],
      rate_limit_per_minute: RATE_LIMIT,
    });
  });
  afterAll(async () => {
    await bed.close();
    await discord.close();
  });
  afterEach(() => {
    bed.fake.reset();
    discord.skipSent();
  });

  it('connects to the gateway (IDENTIFY with Message Content), and /ready waits for it', async () => {
    await expect.poll(channelStatus, { timeout: 20_000 }).toBe('connected');
    expect(await (await fetch(`${bed.gw.url}/ready`)).json()).toMatchObject({
      ready: true,
      checks: { channel_connected: true },
    });
    expect(discord.ops).toContain(2);
    expect(discord.sessionCount()).toBe(1);
  });

  it('message in → model → reply out, with typing shown meanwhile', async () => {
    bed.fake.reply({ text: 'Hi from Hearth on Discord.' });
    discord.message({ from: OWNER, text: 'hello bot' });
    expect(await nextSent()).toEqual([{ chat: OWNER, text: 'Hi from Hearth on Discord.' }]);
    expect(discord.typing.map(chatOf)).toContain(OWNER);
    expect(JSON.stringify(bed.fake.requests[0]?.body)).toContain('hello bot');
    expect((await counter('messages_total'))['channel=discord']).toBeGreaterThanOrEqual(1);
    expect((await counter('messages_sent_total'))['channel=discord']).toBeGreaterThanOrEqual(1);
  });

  it('a long reply is split at the 2000-character limit', async () => {
    const long = Array.from({ length: 900 }, (_, i) => `line ${i}`).join('\n');
    bed.fake.reply({ text: long });
    discord.message({ from: OWNER, text: 'a long one please' });
    const parts = await nextSent(Math.ceil(long.length / DISCORD_TEXT_LIMIT));
    for (const part of parts) expect(part.text.length).toBeLessThanOrEqual(DISCORD_TEXT_LIMIT);
    expect(parts.map((p) => p.text).join('\n')).toBe(long);
  });

  it('the approval notice reaches the chat; a stranger’s approve is ignored, the owner’s decides', async () => {
    const notices = await counter('approval_notifications_total');
    bed.fake.reply(shell('echo from-discord'), { text: 'It printed from-discord.' });
    discord.message({ from: OWNER, text: 'run the echo' });
    const [notice] = await nextSent();
    expect(notice?.chat).toBe(OWNER);
    const short = approvalShortId(notice?.text, 'echo from-discord');
    expect(short).toBeDefined();
    expect((await counter('approval_notifications_total'))['outcome=sent']).toBe(
      (notices['outcome=sent'] ?? 0) + 1,
    );

    discord.message({ from: STRANGER, text: `approve ${short}` });
    const [toStranger] = await nextSent();
    expect(toStranger?.chat).toBe(STRANGER);
    expect(toStranger?.text).toContain('pairing code');
    const pending = await api.pendingApprovals();
    expect(pending.map((p) => p.id.slice(0, 8))).toContain(short);

    discord.message({ from: OWNER, text: `approve ${short}` });
    const replies = await nextSent(2);
    expect(replies.map((r) => r.text).sort()).toEqual(
      [`Approved ${short}.`, 'It printed from-discord.'].sort(),
    );
    expect(await api.pendingApprovals()).toEqual([]);
    expect(bed.fake.requests).toHaveLength(2);
  });

  it('pairing: the stranger’s code approved by the owner lets it talk to the model', async () => {
    const code = (await api.pairingCode('dc', STRANGER)) as string;
    expect(code).toMatch(/^[A-Z0-9]{8}$/);
    expect((await call('POST', `/channels/dc/pairings/${code}/approve`)).status).toBe(200);
    bed.fake.reply({ text: 'Nice to meet you.' });
    discord.message({ from: STRANGER, text: 'hello, now paired' });
    expect(await nextSent()).toEqual([{ chat: STRANGER, text: 'Nice to meet you.' }]);
  });

  it('a 429 with retry_after on a send is waited out, and the reply arrives', async () => {
    discord.throttle(/^POST \/channels\/\d+\/messages$/, 1);
    bed.fake.reply({ text: 'after the throttle' });
    const started = Date.now();
    discord.message({ from: OWNER, text: 'slowly' });
    expect((await nextSent())[0]?.text).toBe('after the throttle');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('excess messages get one polite notice, not a model call (rate_limit_per_minute)', async () => {
    bed.fake.reply(...Array.from({ length: RATE_LIMIT }, (_, i) => ({ text: `answer ${i}` })));
    for (let i = 0; i < RATE_LIMIT + 3; i += 1) discord.message({ from: BUSY, text: `msg ${i}` });
    const replies = await nextSent(RATE_LIMIT + 1, 30_000);
    const total = discord.sent.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(discord.sent.length).toBe(total); // no second notice, no late answer
    expect(replies.every((r) => r.chat === BUSY)).toBe(true);
    expect(replies.filter((r) => r.text.includes('faster than I can answer'))).toHaveLength(1);
    expect(bed.fake.requests).toHaveLength(RATE_LIMIT);
  });

  it('malformed dispatches, bad frames and oversized text are counted and survived; guild messages need a mention', async () => {
    const errors = (await counter('messages_errors_total'))['channel=discord'] ?? 0;
    discord.rawFrame('{"op": 0, "t": "MESSAGE_CREATE", "d": ');
    discord.rawDispatch('MESSAGE_CREATE', { id: 'x', channel_id: 5, content: 'no author' });
    discord.rawDispatch('NOT_A_DISCORD_EVENT', { junk: true });
    discord.message({ from: OWNER, text: 'y'.repeat(5_000) });
    discord.message({ from: OWNER, guild: true, text: 'just chatting' });
    discord.message({ from: OTHER_BOT, guild: true, bot: true, text: `<@${discord.bot.id}> hi` });
    bed.fake.reply({ text: 'You rang?' });
    discord.message({
      from: OWNER,
      guild: true,
      text: `<@${discord.bot.id}> are you there?`,
      mentions: [discord.bot.id],
    });
    expect(await nextSent()).toEqual([{ chat: discord.guildChannelId, text: 'You rang?' }]);
    expect(bed.fake.requests).toHaveLength(1);
    expect(JSON.stringify(bed.fake.requests[0]?.body)).toContain('are you there?');
    // The unknown dispatch, the author-less MESSAGE_CREATE and the oversized text; the bad
    // frame is dropped by discord.js's gateway client before anything sees it.
    expect((await counter('messages_errors_total'))['channel=discord']).toBe(errors + 3);
    expect(await channelStatus()).toBe('connected');
  });

  it('sends on request to a guild channel or a user (its DM); an unknown target is a clear 502', async () => {
    expect(
      await call('POST', '/channels/dc/send', {
        target: discord.guildChannelId,
        text: 'deploy done',
      }),
    ).toEqual({ status: 200, body: { sent: true, parts: 1 } });
    expect(await call('POST', '/channels/dc/send', { target: OWNER, text: 'just you' })).toEqual({
      status: 200,
      body: { sent: true, parts: 1 },
    });
    expect(await nextSent(2)).toEqual([
      { chat: discord.guildChannelId, text: 'deploy done' },
      { chat: OWNER, text: 'just you' },
    ]);
    const unknown = await call('POST', '/channels/dc/send', {
      target: 'not-a-snowflake',
      text: 'x',
    });
    expect(unknown.status).toBe(502);
    expect(String(unknown.body.detail)).toContain("Channel 'dc' could not send");
  });

  it('the server’s RECONNECT (op 7) is answered with a RESUME, and nothing is lost', async () => {
    const sessions = discord.sessionCount();
    discord.requestReconnect();
    await expect.poll(() => discord.ops.includes(6), { timeout: 20_000 }).toBe(true);
    await discord.identified();
    bed.fake.reply({ text: 'resumed fine' });
    discord.message({ from: OWNER, text: 'still there?' });
    expect((await nextSent(1, 20_000))[0]?.text).toBe('resumed fine');
    expect(discord.sessionCount()).toBe(sessions);
  });

  it('an invalid session (op 9) makes the client IDENTIFY anew', async () => {
    const identifies = () => discord.ops.filter((op) => op === 2).length;
    const before = identifies();
    discord.invalidateSession();
    await expect.poll(identifies, { timeout: 30_000 }).toBe(before + 1);
    await discord.identified();
    bed.fake.reply({ text: 'new session' });
    discord.message({ from: OWNER, text: 'after op 9' });
    expect((await nextSent(1, 20_000))[0]?.text).toBe('new session');
  });

  it('reconnects after Discord drops: status shows it, then messages flow again', async () => {
    await discord.drop();
    await expect.poll(channelStatus, { timeout: 20_000 }).toBe('disconnected');
    expect((await fetch(`${bed.gw.url}/ready`)).status).toBe(503);
    await discord.restore();
    await discord.identified(30_000);
    bed.fake.reply({ text: 'back online' });
    discord.message({ from: OWNER, text: 'are you back?' });
    expect((await nextSent(1, 20_000))[0]?.text).toBe('back online');
    await expect.poll(channelStatus, { timeout: 20_000 }).toBe('connected');
    expect((await fetch(`${bed.gw.url}/ready`)).status).toBe(200);
  });
});

describe('Discord across a gateway restart (the cursor in the database)', () => {
  it('answers what was sent while the gateway was down, once, and never the history before the channel', async () => {
    const discord = await startFakeDiscord(TOKEN);
    discord.message({ from: OWNER, text: 'history from before the channel existed' });
    const channel = {
      type: 'discord',
      bot_token: TOKEN,
      rest_api_url: discord.apiUrl,
      allow_from: [OWNER],
    };
    const status = (bed: ChatTestBed) => () => gatewayApi(() => bed.gw.url).channelStatus('dc');
    const first = await startChannelTestBed('dc', channel);
    try {
      await expect.poll(status(first), { timeout: 20_000 }).toBe('connected');
      first.fake.reply({ text: 'First answer.' });
      discord.message({ from: OWNER, text: 'hello before the restart' });
      expect(await discord.nextSent()).toMatchObject([{ content: 'First answer.' }]);
      expect(first.fake.requests).toHaveLength(1);
      expect(JSON.stringify(first.fake.requests[0]?.body)).not.toContain('history from before');
    } finally {
      await first.gw.gateway.close(); // stopped, its home kept for the restart
      await first.fake.close();
    }

    discord.message({ from: OWNER, text: 'sent while the gateway was down' });
    const second = await startChannelTestBed('dc', channel, { home: first.gw.home });
    try {
      second.fake.reply({ text: 'Caught up.' }, { text: 'Live again.' });
      expect(await discord.nextSent(1, 20_000)).toMatchObject([{ content: 'Caught up.' }]);
      expect(JSON.stringify(second.fake.requests[0]?.body)).toContain(
        'sent while the gateway was down',
      );
      discord.message({ from: OWNER, text: 'and after the restart' });
      expect(await discord.nextSent()).toMatchObject([{ content: 'Live again.' }]);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(second.fake.requests).toHaveLength(2); // nothing answered twice, nothing from before
    } finally {
      await second.close();
      await discord.close();
    }
  });
});
