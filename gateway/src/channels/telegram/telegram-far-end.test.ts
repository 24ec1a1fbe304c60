/**
 * A hostile or broken Bot API on the send path and on polling: one that drops every connection
 * makes a reply fail after a bounded number of attempts (visibly: counted, `last_error`), one
 * that answers without end is cut at `max_answer_bytes` and counted in
 * `extension_input_refused_total{source="telegram",limit="answer_bytes"}`. The channel goes on
 * answering afterwards.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { gatewayApi, startChannelTestBed } from '../testing/channel-test-kit.ts';
import { startFakeTelegram, type FakeTelegram } from '../testing/fake-telegram.ts';

const TOKEN = '616161:far-end-bot';
const OWNER = 7007;
const CAP = 1_048_576;

describe('Telegram against a Bot API that drops or floods its answers', () => {
  let bed: ChatTestBed;
  let telegram: FakeTelegram;
  const api = gatewayApi(() => bed.gw.url);
  const detail = async () => (await api.call('GET', '/channels/tg')).body;
  const errorsMetric = async () =>
    (await api.counter('messages_errors_total'))['channel=telegram'] ?? 0;
  const refusedMetric = async () =>
    (await api.counter('extension_input_refused_total'))['source=telegram,limit=answer_bytes'] ?? 0;

  beforeAll(async () => {
    telegram = await startFakeTelegram(TOKEN);
    bed = await startChannelTestBed('tg', {
      type: 'telegram',
      bot_token: TOKEN,
      api_root: telegram.apiRoot,
      allow_from: [String(OWNER)],
      max_answer_bytes: CAP,
    });
    for (let waited = 0; (await api.channelStatus('tg')) !== 'connected'; waited += 50) {
      if (waited > 15_000) throw new Error('the channel did not connect');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  afterAll(async () => {
    await bed.close();
    await telegram.close();
  });
  afterEach(() => {
    bed.fake.reset();
    telegram.skipSent();
  });

  /** The reply to the next message gets through (the channel was not stalled). */
  async function stillAnswers(text: string) {
    bed.fake.reply({ text });
    telegram.message({ from: OWNER, text: 'and now?' });
    expect((await telegram.nextSent(1, 20_000))[0]?.text).toBe(text);
  }

  it('a reply whose every connection is dropped fails after 3 attempts: counted, last_error says why', async () => {
    const errors = await api.errorsTotal('tg');
    const metric = await errorsMetric();
    const attempts = () => telegram.calls.filter((call) => call === 'sendMessage').length;
    const before = attempts();
    telegram.cutNext('sendMessage', 1_000);
    bed.fake.reply({ text: 'never arrives' });
    const started = Date.now();
    telegram.message({ from: OWNER, text: 'answer me' });
    await expect.poll(() => api.errorsTotal('tg'), { timeout: 15_000 }).toBe(errors + 1);
    // Two waits between three attempts (1 s, 2 s), then it gives up.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(attempts() - before).toBe(3);
    expect(await errorsMetric()).toBe(metric + 1);
    const lastError = String((await detail()).last_error);
    expect(lastError).toMatch(
      /^reply not delivered: sendMessage failed after 3 attempts: sendMessage: the Bot API at http:\/\/127\.0\.0\.1:\d+ could not be reached: /,
    );
    expect(lastError).not.toContain(TOKEN);
    // Nothing is tried again afterwards.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(attempts() - before).toBe(3);
    expect(await api.channelStatus('tg')).toBe('connected');
    telegram.cutNext('sendMessage', 0);
    await stillAnswers('the next reply arrives');
  }, 40_000);

  it('a sendMessage answer without end is cut at max_answer_bytes and counted', async () => {
    const errors = await api.errorsTotal('tg');
    const refused = await refusedMetric();
    telegram.floodNext('sendMessage');
    bed.fake.reply({ text: 'flooded' });
    telegram.message({ from: OWNER, text: 'flood me' });
    await expect.poll(() => api.errorsTotal('tg'), { timeout: 15_000 }).toBe(errors + 1);
    expect(await refusedMetric()).toBe(refused + 1);
    expect((await detail()).last_error).toBe(
      `reply not delivered: the Bot API's answer to sendMessage is larger than ${CAP} bytes: reading it was aborted`,
    );
    // The gateway closed it having read little past the cap (the rest was never sent).
    await expect.poll(() => telegram.flooding.closed).toBe(1);
    expect(telegram.flooding.bytes).toBeGreaterThan(CAP);
    expect(telegram.flooding.bytes).toBeLessThan(CAP * 8);
    await stillAnswers('after the flood');
  }, 40_000);

  it('a getUpdates answer without end is cut, counted, and polling goes on', async () => {
    const errors = await api.errorsTotal('tg');
    const refused = await refusedMetric();
    const closed = telegram.flooding.closed;
    telegram.floodNext('getUpdates');
    await expect.poll(() => api.errorsTotal('tg'), { timeout: 15_000 }).toBe(errors + 1);
    expect(await refusedMetric()).toBe(refused + 1);
    expect((await detail()).last_error).toBe(
      `getUpdates: the Bot API's answer to getUpdates is larger than ${CAP} bytes: reading it was aborted`,
    );
    expect(telegram.flooding.closed).toBe(closed + 1);
    await stillAnswers('polling goes on');
    await expect.poll(() => api.channelStatus('tg')).toBe('connected');
  }, 40_000);
});
