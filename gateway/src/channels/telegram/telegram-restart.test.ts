/**
 * An update the Bot API hands out again after a restart — its confirmation was lost — is not
 * answered twice: polling goes on after the last confirmed update_id (kept in the database), and
 * every update id handed over is claimed there, in polling mode as in webhook mode. Each case
 * stops a gateway and starts a second one on the same state directory (the same SQLite file).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { gatewayApi, startChannelTestBed, type Json } from '../testing/channel-test-kit.ts';
import { startFakeTelegram, type FakeTelegram } from '../testing/fake-telegram.ts';
import { SECRET_TOKEN_HEADER } from './telegram-adapter.ts';

const OWNER = 6006;
const settle = (ms = 1_000) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two gateways one after the other on one state directory; the first is stopped by `restart`. */
function restartable(channel: () => Json) {
  let home = '';
  let first: ChatTestBed | undefined;
  let second: ChatTestBed | undefined;
  return {
    async start() {
      home = await mkdtemp(join(tmpdir(), 'hearth-tg-restart-'));
      first = await startChannelTestBed('tg', channel(), { home });
      return first;
    },
    async restart() {
      // The first gateway stops (its state directory stays); a second starts on the same one.
      await first?.gw.gateway.close();
      await first?.fake.close();
      first = undefined;
      second = await startChannelTestBed('tg', channel(), { home });
      return second;
    },
    async close() {
      await first?.close();
      await second?.close();
    },
  };
}

describe('Telegram polling across a gateway restart', () => {
  const TOKEN = '424242:restart-polling';
  let telegram: FakeTelegram;
  let bed: ChatTestBed;
  const gateways = restartable(() => ({
    type: 'telegram',
    bot_token: TOKEN,
    api_root: telegram.apiRoot,
    allow_from: [String(OWNER)],
  }));
  const status = () => gatewayApi(() => bed.gw.url).channelStatus('tg');

  beforeAll(async () => {
    telegram = await startFakeTelegram(TOKEN);
    bed = await gateways.start();
  });
  afterAll(async () => {
    await gateways.close();
    await telegram.close();
  });

  it('answers an update once though the Bot API hands it out again after the restart', async () => {
    await expect.poll(status, { timeout: 15_000 }).toBe('connected');
    // From here on the Bot API never hears of a confirmation: everything stays to be handed out.
    telegram.loseConfirmations(true);
    bed.fake.reply({ text: 'Answered before the restart.' });
    const answered = telegram.message({ from: OWNER, text: 'answer me once' });
    expect(await telegram.nextSent()).toEqual([
      { chat_id: String(OWNER), text: 'Answered before the restart.' },
    ]);
    // The poll after it confirms it (as far as this gateway can tell).
    await expect.poll(() => telegram.offsets.at(-1)).toBe(answered + 1);

    const polledBefore = telegram.offsets.length;
    bed = await gateways.restart();
    await expect.poll(status, { timeout: 15_000 }).toBe('connected');
    await settle();
    // The second gateway polls after what was confirmed, not from the start of what is held.
    expect(telegram.offsets.slice(polledBefore).every((offset) => offset === answered + 1)).toBe(
      true,
    );
    expect(telegram.sent).toHaveLength(1);
    expect(bed.fake.requests).toHaveLength(0);

    // And goes on answering what comes next, once.
    bed.fake.reply({ text: 'A new one, answered.' });
    telegram.message({ from: OWNER, text: 'a new one' });
    expect((await telegram.nextSent())[0]?.text).toBe('A new one, answered.');
    await settle(500);
    expect(telegram.sent).toHaveLength(2);
    expect(bed.fake.requests).toHaveLength(1);
  }, 40_000);
});

describe('Telegram webhook mode across a gateway restart', () => {
  const TOKEN = '434343:restart-webhook';
  const SECRET = 'restart-secret_0123456789';
  let telegram: FakeTelegram;
  let bed: ChatTestBed;
  const gateways = restartable(() => ({
    type: 'telegram',
    bot_token: TOKEN,
    api_root: telegram.apiRoot,
    mode: 'webhook',
    webhook_url: 'https://hearth.example.test/api/v1/channels/webhook/tg',
    secret_token: SECRET,
    allow_from: [String(OWNER)],
  }));
  /** What the Bot API does: POST the update to the webhook, with the secret token header. */
  const deliver = async (body: string) => {
    const res = await fetch(`${bed.gw.url}/api/v1/channels/webhook/tg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SECRET_TOKEN_HEADER]: SECRET },
      body,
    });
    return { status: res.status, body: (await res.json()) as Json };
  };

  beforeAll(async () => {
    telegram = await startFakeTelegram(TOKEN);
    bed = await gateways.start();
  });
  afterEach(() => telegram.skipSent());
  afterAll(async () => {
    await gateways.close();
    await telegram.close();
  });

  it('a delivery Telegram retries after the restart is answered once', async () => {
    await expect
      .poll(() => gatewayApi(() => bed.gw.url).channelStatus('tg'), { timeout: 15_000 })
      .toBe('connected');
    bed.fake.reply({ text: 'Answered once.' });
    const update = JSON.stringify(telegram.webhookUpdate({ from: OWNER, text: 'retried' }));
    expect(await deliver(update)).toEqual({ status: 200, body: { ok: true } });
    expect((await telegram.nextSent())[0]?.text).toBe('Answered once.');

    bed = await gateways.restart();
    // The new gateway answers deliveries once its channel is connected (503 before: Telegram
    // keeps the update and delivers it again).
    await expect
      .poll(() => gatewayApi(() => bed.gw.url).channelStatus('tg'), { timeout: 15_000 })
      .toBe('connected');
    // Telegram did not see the 200 (say) and delivers the update again, to the new gateway.
    expect(await deliver(update)).toEqual({ status: 200, body: { ok: true, duplicate: true } });
    await settle(500);
    expect(telegram.sent).toHaveLength(1);
    expect(bed.fake.requests).toHaveLength(0);
    bed.fake.reply({ text: 'A new one, answered.' });
    const next = JSON.stringify(telegram.webhookUpdate({ from: OWNER, text: 'new' }));
    expect(await deliver(next)).toEqual({ status: 200, body: { ok: true } });
    expect((await telegram.nextSent())[0]?.text).toBe('A new one, answered.');
  });
});
