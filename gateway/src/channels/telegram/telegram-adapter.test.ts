import { channelSchema } from '../../config/schema.ts';
import { silentLogger } from '../../observability/logger.ts';
import { describe, expect, it } from 'vitest';
import { recordingLink, runChannelConformance } from '../conformance.ts';
import { startFakeTelegram } from '../testing/fake-telegram.ts';
import { createTelegramAdapter, SECRET_TOKEN_HEADER } from './telegram-adapter.ts';

const TOKEN = '123456:conformance-token';

runChannelConformance(
  'telegram (grammY against the fake Bot API)',
  async () => {
    const fake = await startFakeTelegram(TOKEN);
    const config = channelSchema.parse({
      type: 'telegram',
      bot_token: TOKEN,
      api_root: fake.apiRoot,
    });
    if (config.type !== 'telegram') throw new Error('unreachable');
    const adapter = createTelegramAdapter(
      config,
      { fetch: globalThis.fetch, now: Date.now, logger: silentLogger() },
      { pollTimeoutSeconds: 1 },
    );
    return {
      adapter,
      inbound: ({ senderId, text }) => {
        fake.message({ from: Number(senderId), text });
        return Promise.resolve();
      },
      malformed: () => {
        fake.rawUpdate({ message: { message_id: 1, text: 5, chat: 'nowhere' } });
        fake.rawUpdate({ edited_message: { junk: true } });
        fake.rawUpdate({ message: { message_id: 2, date: 0, chat: { id: 1, type: 'private' } } });
        return Promise.resolve();
      },
      sent: () => fake.sent.map((m) => ({ chatId: m.chat_id, text: m.text })),
      typing: () => fake.actions.filter((a) => a.action === 'typing').map((a) => a.chat_id),
      drop: () => fake.drop(),
      restore: () => fake.restore(),
      close: () => fake.close(),
    };
  },
  { timeoutMs: 15_000 },
);

describe('a Telegram update the Bot API hands out again', () => {
  it('is handed over once: its update id is claimed, even with no cursor to poll after', async () => {
    const fake = await startFakeTelegram(TOKEN);
    const config = channelSchema.parse({
      type: 'telegram',
      bot_token: TOKEN,
      api_root: fake.apiRoot,
    });
    if (config.type !== 'telegram') throw new Error('unreachable');
    const io = { fetch: globalThis.fetch, now: Date.now, logger: silentLogger() };
    try {
      fake.loseConfirmations(true);
      const before = recordingLink();
      const first = createTelegramAdapter(config, io, { pollTimeoutSeconds: 1 });
      await first.connect(before.link);
      fake.message({ from: 5, text: 'once' });
      await expect.poll(() => before.received.map((m) => m.text)).toEqual(['once']);
      await first.disconnect();

      // As after a restart whose cursor was never written: the same claims, no cursor.
      const after = recordingLink(undefined, before.claims);
      const polled = fake.offsets.length;
      const second = createTelegramAdapter(config, io, { pollTimeoutSeconds: 1 });
      await second.connect(after.link);
      fake.message({ from: 5, text: 'next' });
      await expect.poll(() => after.received.map((m) => m.text)).toEqual(['next']);
      await second.disconnect();
      // It polled from the start of what the Bot API held, and was handed 'once' again.
      expect(fake.offsets[polled]).toBe(1);
      expect(after.rejected).toEqual([]);
    } finally {
      await fake.close();
    }
  });
});

describe('a Telegram update whose claim cannot be recorded (the database is down)', () => {
  it('polling: stops before the update is confirmed, and the update is handed over once it can be', async () => {
    const fake = await startFakeTelegram(TOKEN);
    const config = channelSchema.parse({
      type: 'telegram',
      bot_token: TOKEN,
      api_root: fake.apiRoot,
    });
    if (config.type !== 'telegram') throw new Error('unreachable');
    const adapter = createTelegramAdapter(
      config,
      { fetch: globalThis.fetch, now: Date.now, logger: silentLogger() },
      { pollTimeoutSeconds: 1 },
    );
    const recorder = recordingLink();
    let down = true;
    const link = {
      ...recorder.link,
      claim: (key: string, untilMs: number) =>
        down
          ? Promise.reject(new Error('the database is unreachable'))
          : recorder.link.claim(key, untilMs),
    };
    try {
      await adapter.connect(link);
      const id = fake.message({ from: 5, text: 'keep me' });
      await expect.poll(() => recorder.lost.length).toBe(1);
      expect(recorder.received).toEqual([]);
      expect(Math.max(...fake.offsets)).toBeLessThanOrEqual(id);
      await adapter.disconnect();
      down = false;
      await adapter.connect(link);
      await expect.poll(() => recorder.received.map((m) => m.text)).toEqual(['keep me']);
      await adapter.disconnect();
    } finally {
      await fake.close();
    }
  });

  it('webhook mode: the delivery is refused with 503 (Telegram delivers it again)', async () => {
    const fake = await startFakeTelegram(TOKEN);
    const config = channelSchema.parse({
      type: 'telegram',
      bot_token: TOKEN,
      api_root: fake.apiRoot,
      mode: 'webhook',
      webhook_url: 'https://hearth.example.test/api/v1/channels/webhook/tg',
      secret_token: 'secret_123',
    });
    if (config.type !== 'telegram') throw new Error('unreachable');
    const adapter = createTelegramAdapter(config, {
      fetch: globalThis.fetch,
      now: Date.now,
      logger: silentLogger(),
    });
    const recorder = recordingLink();
    try {
      await adapter.connect({
        ...recorder.link,
        claim: () => Promise.reject(new Error('the database is unreachable')),
      });
      const update = fake.webhookUpdate({ from: 5, text: 'keep me' });
      await expect(
        adapter.webhook?.({
          method: 'POST',
          headers: { [SECRET_TOKEN_HEADER]: 'secret_123' },
          query: {},
          rawBody: Buffer.from(JSON.stringify(update)),
        }),
      ).rejects.toMatchObject({ code: 'unavailable' });
      expect(recorder.received).toEqual([]);
      await adapter.disconnect();
    } finally {
      await fake.close();
    }
  });
});

describe('a Telegram send that gets no answer in time', () => {
  it('fails by the deadline: unanswered, or told to wait longer than it (429 retry_after)', async () => {
    const fake = await startFakeTelegram(TOKEN);
    const config = channelSchema.parse({
      type: 'telegram',
      bot_token: TOKEN,
      api_root: fake.apiRoot,
    });
    if (config.type !== 'telegram') throw new Error('unreachable');
    const adapter = createTelegramAdapter(
      config,
      { fetch: globalThis.fetch, now: Date.now, logger: silentLogger() },
      {
        pollTimeoutSeconds: 1,
        bounds: { attempts: 3, retryDelayMs: 100, deadlineMs: 1_500, confirmMs: 500 },
      },
    );
    try {
      await adapter.connect(recordingLink().link);
      fake.holdNext('sendMessage');
      let started = Date.now();
      await expect(adapter.sendText('1', 'held')).rejects.toThrow(
        /^sendMessage: no answer from the Bot API within 1\.5 s \(1 attempt\)/,
      );
      expect(Date.now() - started).toBeLessThan(3_000);

      fake.throttle('sendMessage', 30);
      started = Date.now();
      await expect(adapter.sendText('1', 'throttled')).rejects.toThrow(
        /^sendMessage: no answer from the Bot API within 1\.5 s/,
      );
      expect(Date.now() - started).toBeLessThan(3_000);

      await adapter.sendText('1', 'answered');
      expect(fake.sent.map((m) => m.text)).toEqual(['answered']);
    } finally {
      await adapter.disconnect();
      await fake.close();
    }
  }, 15_000);
});
