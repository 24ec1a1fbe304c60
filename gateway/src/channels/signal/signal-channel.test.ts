import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { RPC_ERRORS, startFakeSignalCli, type FakeSignalCli } from '../testing/fake-signal-cli.ts';
import {
  approvalShortId,
  gatewayApi,
  shell,
  startChannelTestBed,
} from '../testing/channel-test-kit.ts';
import { SIGNAL_TEXT_LIMIT } from './signal-adapter.ts';

const ACCOUNT = '+15550009999';
const OWNER = '+15550001001';
const STRANGER = '+15550002002';
const RUSHER = '+15550003003';
const GROUP = 'Pmpi+EfPWmsxiomLe9Nx2XF9HOE483p6iKiFj65iMwI=';
const RATE = 10;

type Json = Record<string, unknown>;

describe('Signal, through a real gateway and the fake signal-cli daemon', () => {
  let bed: ChatTestBed;
  let signal: FakeSignalCli;

  const api = gatewayApi(() => bed.gw.url);
  const { call, counter } = api;
  const channelStatus = () => api.channelStatus('sig');
  const errorsTotal = () => api.errorsTotal('sig');

  beforeAll(async () => {
    signal = await startFakeSignalCli(ACCOUNT);
    signal.addGroup(GROUP);
    bed = await startChannelTestBed('sig', {
      type: 'signal',
      account: ACCOUNT,
      rpc_url: signal.rpcUrl,
      allow_from: [OWNER, RUSHER],
      rate_limit_per_minute: RATE,
    });
  });
  afterAll(async () => {
    await bed.close();
    await signal.close();
  });
  afterEach(() => {
    bed.fake.reset();
    signal.skipSent();
  });

  it('connects to the daemon’s event stream, and /ready waits for it', async () => {
    await expect.poll(channelStatus, { timeout: 15_000 }).toBe('connected');
    expect(await (await fetch(`${bed.gw.url}/ready`)).json()).toMatchObject({
      ready: true,
      checks: { channel_connected: true },
    });
    expect(signal.subscribers()).toBe(1);
  });

  it('message in → model → reply out, with typing shown meanwhile', async () => {
    bed.fake.reply({ text: 'Hi from Hearth on Signal.' });
    signal.message({ from: OWNER, text: 'hello bot' });
    expect(await signal.nextSent()).toEqual([{ chatId: OWNER, text: 'Hi from Hearth on Signal.' }]);
    expect(signal.typing).toContain(OWNER);
    expect(JSON.stringify(bed.fake.requests[0]?.body)).toContain('hello bot');
    expect((await counter('messages_total'))['channel=signal']).toBeGreaterThanOrEqual(1);
    expect((await counter('messages_sent_total'))['channel=signal']).toBeGreaterThanOrEqual(1);
    const stored = (await call('GET', '/channels/sig/messages?limit=10')).body.messages as Json[];
    expect(stored.map((m) => m.text)).toEqual(
      expect.arrayContaining(['hello bot', 'Hi from Hearth on Signal.']),
    );
  });

  it('a long reply is split at the 2000-character limit', async () => {
    const long = Array.from({ length: 1_000 }, (_, i) => `line ${i}`).join('\n');
    bed.fake.reply({ text: long });
    signal.message({ from: OWNER, text: 'a long one please' });
    const parts = await signal.nextSent(Math.ceil(long.length / SIGNAL_TEXT_LIMIT));
    for (const part of parts) expect(part.text.length).toBeLessThanOrEqual(SIGNAL_TEXT_LIMIT);
    expect(parts.map((p) => p.text).join('\n')).toBe(long);
  });

  it('the approval notice reaches the chat; a stranger’s approve is ignored, the owner’s decides', async () => {
    const notices = await counter('approval_notifications_total');
    bed.fake.reply(shell('echo from-signal'), { text: 'It printed from-signal.' });
    signal.message({ from: OWNER, text: 'run the echo' });
    const [notice] = await signal.nextSent();
    expect(notice?.chatId).toBe(OWNER);
    const short = approvalShortId(notice?.text, 'echo from-signal');
    expect(short).toBeDefined();
    expect((await counter('approval_notifications_total'))['outcome=sent']).toBe(
      (notices['outcome=sent'] ?? 0) + 1,
    );

    // A stranger (even one who learnt the id) decides nothing: it gets a pairing code.
    signal.message({ from: STRANGER, text: `approve ${short}` });
    const [toStranger] = await signal.nextSent();
    expect(toStranger?.chatId).toBe(STRANGER);
    expect(toStranger?.text).toContain('pairing code');
    // Nor does the stranger in a group the bot is in, even mentioning it.
    signal.message({
      from: STRANGER,
      groupId: GROUP,
      text: `\uFFFC approve ${short}`,
      mentions: [{ number: ACCOUNT, start: 0, length: 1 }],
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const pending = await api.pendingApprovals();
    expect(pending.map((p) => p.id.slice(0, 8))).toContain(short);

    signal.message({ from: OWNER, text: `approve ${short}` });
    const replies = await signal.nextSent(2);
    expect(replies.map((r) => r.text).sort()).toEqual(
      [`Approved ${short}.`, 'It printed from-signal.'].sort(),
    );
    expect(replies.every((r) => r.chatId === OWNER)).toBe(true);
    expect(await api.pendingApprovals()).toEqual([]);
    expect(bed.fake.requests).toHaveLength(2);
  });

  it('pairing: the stranger’s code approved by the owner lets it talk to the model', async () => {
    const code = (await api.pairingCode('sig', STRANGER)) as string;
    expect(code).toMatch(/^[A-Z0-9]{8}$/);
    expect((await call('POST', `/channels/sig/pairings/${code}/approve`)).status).toBe(200);
    bed.fake.reply({ text: 'Nice to meet you.' });
    signal.message({ from: STRANGER, text: 'hello, now paired' });
    expect((await signal.nextSent())[0]).toEqual({ chatId: STRANGER, text: 'Nice to meet you.' });
  });

  it('a group message is answered in the group only when the bot is mentioned', async () => {
    signal.message({ from: OWNER, groupId: GROUP, text: 'just chatting' });
    bed.fake.reply({ text: 'You rang?' });
    signal.message({
      from: OWNER,
      groupId: GROUP,
      text: '\uFFFC are you there?',
      mentions: [{ number: ACCOUNT, start: 0, length: 1, name: 'Hearth' }],
    });
    expect((await signal.nextSent())[0]).toEqual({ chatId: `group:${GROUP}`, text: 'You rang?' });
    expect(bed.fake.requests).toHaveLength(1);
    expect(JSON.stringify(bed.fake.requests[0]?.body)).toContain('@Hearth are you there?');
  });

  it(`excess messages get one polite notice, not a model call (${RATE} per minute)`, async () => {
    bed.fake.reply(...Array.from({ length: RATE }, (_, i) => ({ text: `answer ${i}` })));
    for (let i = 0; i < RATE + 3; i += 1) signal.message({ from: RUSHER, text: `msg ${i}` });
    await signal.nextSent(RATE + 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const toRusher = signal.sent.filter((m) => m.chatId === RUSHER);
    expect(toRusher.filter((m) => m.text.includes('faster than I can answer'))).toHaveLength(1);
    expect(toRusher).toHaveLength(RATE + 1);
    expect(bed.fake.requests).toHaveLength(RATE);
  });

  it('malformed, unknown and oversized events are counted and logged; the stream carries on', async () => {
    const before = await errorsTotal();
    const metric = (await counter('messages_errors_total'))['channel=signal'] ?? 0;
    signal.rawEvent('receive', '{"envelope": ');
    signal.rawEvent('receive', JSON.stringify({ envelope: { sourceNumber: OWNER } }));
    signal.rawEvent('receive', JSON.stringify({ account: ACCOUNT, envelope: { timestamp: 1 } }));
    signal.rawEvent('contactsUpdated', '{}');
    signal.message({ from: OWNER, text: 'x'.repeat(20_000) });
    // Receipts and typing are quiet: neither a message nor an error.
    signal.rawEvent(
      'receive',
      JSON.stringify({
        envelope: { source: OWNER, timestamp: 5, typingMessage: { action: 'STARTED' } },
      }),
    );
    await expect.poll(errorsTotal, { timeout: 10_000 }).toBe(before + 5);
    expect((await counter('messages_errors_total'))['channel=signal']).toBe(metric + 5);
    bed.fake.reply({ text: 'still here' });
    signal.message({ from: OWNER, text: 'after the junk' });
    expect((await signal.nextSent())[0]).toEqual({ chatId: OWNER, text: 'still here' });
    expect(bed.fake.requests).toHaveLength(1);
    expect(await channelStatus()).toBe('connected');
  });

  it('a replayed event (the same envelope again) is answered once', async () => {
    const envelope = {
      source: OWNER,
      sourceNumber: OWNER,
      timestamp: 1_700_000_000_123,
      dataMessage: { timestamp: 1_700_000_000_123, message: 'only once please' },
    };
    bed.fake.reply({ text: 'once' }, { text: 'twice?!' });
    signal.rawEvent('receive', JSON.stringify({ envelope, account: ACCOUNT }));
    signal.rawEvent('receive', JSON.stringify({ envelope, account: ACCOUNT }));
    expect((await signal.nextSent())[0]?.text).toBe('once');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(bed.fake.requests).toHaveLength(1);
  });

  it('a JSON-RPC error answering send is counted, and the next reply goes out', async () => {
    const before = await errorsTotal();
    signal.failNext('send', RPC_ERRORS.user, 'Failed to send message: Unregistered user');
    bed.fake.reply({ text: 'lost to the error' }, { text: 'this one arrives' });
    signal.message({ from: OWNER, text: 'first' });
    await expect.poll(errorsTotal, { timeout: 10_000 }).toBe(before + 1);
    signal.message({ from: OWNER, text: 'second' });
    expect((await signal.nextSent())[0]?.text).toBe('this one arrives');
  });

  it('reconnects after the daemon drops, and gets what came meanwhile', async () => {
    await signal.drop();
    await expect.poll(channelStatus, { timeout: 15_000 }).toBe('disconnected');
    expect((await fetch(`${bed.gw.url}/ready`)).status).toBe(503);
    bed.fake.reply({ text: 'back online' });
    signal.message({ from: OWNER, text: 'sent while you were away' });
    await signal.restore();
    expect((await signal.nextSent(1, 20_000))[0]?.text).toBe('back online');
    await expect.poll(channelStatus, { timeout: 15_000 }).toBe('connected');
    expect((await fetch(`${bed.gw.url}/ready`)).status).toBe(200);
    expect(JSON.stringify(bed.fake.requests[0]?.body)).toContain('sent while you were away');
  });
});
