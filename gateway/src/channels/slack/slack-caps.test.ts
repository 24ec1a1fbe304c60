/**
 * What a hostile Slack far end can make the gateway hold is capped: a Socket Mode frame over
 * SLACK_MAX_FRAME_BYTES closes the connection (counted, then reconnected), a Web API answer
 * without end is cut as it streams. Through a real gateway, Bolt and the fake Slack.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { gatewayApi, startChannelTestBed } from '../testing/channel-test-kit.ts';
import { startFakeSlack, type FakeSlack } from '../testing/fake-slack.ts';
import { MAX_WEB_API_ANSWER_BYTES, SLACK_MAX_FRAME_BYTES } from './slack-adapter.ts';

const TOKENS = { bot: 'xoxb-caps-test', app: 'xapp-caps-test' };
const OWNER = 'U0000OWNER02';

describe('Slack: what a hostile far end sends is capped', () => {
  let bed: ChatTestBed;
  let slack: FakeSlack;
  const api = gatewayApi(() => bed.gw.url);
  const errorsTotal = () => api.errorsTotal('sl');

  beforeAll(async () => {
    slack = await startFakeSlack(TOKENS);
    bed = await startChannelTestBed('sl', {
      type: 'slack',
      bot_token: TOKENS.bot,
      app_token: TOKENS.app,
      web_api_url: slack.apiUrl,
      allow_from: [OWNER],
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

  it('a frame over the cap closes the connection, counted; it is reconnected and answers', async () => {
    await expect.poll(() => api.channelStatus('sl'), { timeout: 20_000 }).toBe('connected');
    const before = await errorsTotal();
    const connections = slack.connections();
    slack.rawFrame(JSON.stringify({ type: 'hello', pad: 'x'.repeat(SLACK_MAX_FRAME_BYTES + 1) }));
    await expect.poll(errorsTotal, { timeout: 10_000 }).toBe(before + 1);
    await expect.poll(() => slack.connections(), { timeout: 15_000 }).toBeGreaterThan(connections);
    await expect.poll(() => slack.connected(), { timeout: 15_000 }).toBe(true);
    bed.fake.reply({ text: 'Back again.' });
    slack.message({ from: OWNER, text: 'still there?' });
    expect(await slack.nextSent()).toEqual([{ channel: OWNER, text: 'Back again.' }]);
  });

  it('a Web API answer without end is cut at its cap: the reply fails, counted', async () => {
    const before = await errorsTotal();
    slack.endlessNext('chat.postMessage');
    bed.fake.reply({ text: 'This reply meets an endless answer.' });
    slack.message({ from: OWNER, text: 'answer me' });
    await expect.poll(errorsTotal, { timeout: 10_000 }).toBe(before + 1);
    await expect.poll(() => slack.cuts.length).toBeGreaterThanOrEqual(1);
    for (const cut of slack.cuts) expect(cut).toBeLessThan(16 * MAX_WEB_API_ANSWER_BYTES);
  });
});
