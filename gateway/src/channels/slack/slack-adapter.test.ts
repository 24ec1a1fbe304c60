import { describe, expect, it } from 'vitest';
import { channelSchema } from '../../config/schema.ts';
import { silentLogger } from '../../observability/logger.ts';
import { recordingLink, runChannelConformance } from '../conformance.ts';
import { startFakeSlack } from '../testing/fake-slack.ts';
import { createSlackAdapter, malformedFrame, toInbound } from './slack-adapter.ts';

const TOKENS = { bot: 'xoxb-conformance', app: 'xapp-conformance' };

runChannelConformance(
  'slack (Bolt in Socket Mode against the fake Web API and Socket Mode WebSocket)',
  async () => {
    const fake = await startFakeSlack(TOKENS);
    const config = channelSchema.parse({
      type: 'slack',
      bot_token: TOKENS.bot,
      app_token: TOKENS.app,
      web_api_url: fake.apiUrl,
    });
    if (config.type !== 'slack') throw new Error('unreachable');
    const adapter = createSlackAdapter(config, {
      fetch: globalThis.fetch,
      now: Date.now,
      logger: silentLogger(),
    });
    return {
      adapter,
      inbound: async ({ senderId, text }) => {
        await fake.linked();
        fake.message({ from: senderId, text });
      },
      malformed: async () => {
        await fake.linked();
        fake.rawFrame('{"type": "events_api", "envelope_id": ');
        fake.rawFrame(JSON.stringify({ type: 'events_api', envelope_id: 'e-1', payload: {} }));
        fake.rawFrame(JSON.stringify({ type: 'something_new', envelope_id: 'e-2' }));
        fake.rawEvent({ type: 'message', channel_type: 'im', text: 'no user or ts' });
        fake.message({ from: 'U0000STRANGE', text: 'x'.repeat(41_000) });
      },
      sent: () => fake.sent.map((m) => ({ chatId: m.channel, text: m.text })),
      drop: () => fake.drop(),
      restore: () => fake.restore(),
      close: () => fake.close(),
    };
  },
  {
    timeoutMs: 20_000,
    skip: [
      {
        check: 'typing',
        reason: 'Slack has no typing indicator for apps outside assistant threads',
      },
    ],
  },
);

describe('slack adapter: hostile input and bad credentials', () => {
  const io = { fetch: globalThis.fetch, now: Date.now, logger: silentLogger() };
  const configFor = (apiUrl: string, tokens: { bot: string; app: string }) => {
    const config = channelSchema.parse({
      type: 'slack',
      bot_token: tokens.bot,
      app_token: tokens.app,
      web_api_url: apiUrl,
    });
    if (config.type !== 'slack') throw new Error('unreachable');
    return config;
  };

  it('a wrong app-level token or bot token fails connect with Slack’s error', async () => {
    const fake = await startFakeSlack(TOKENS);
    try {
      for (const tokens of [
        { bot: TOKENS.bot, app: 'xapp-forged' },
        { bot: 'xoxb-forged', app: TOKENS.app },
      ]) {
        const adapter = createSlackAdapter(configFor(fake.apiUrl, tokens), io);
        await expect(adapter.connect(recordingLink().link)).rejects.toThrow(/invalid_auth/);
        await adapter.disconnect();
      }
      expect(fake.connected()).toBe(false);
    } finally {
      await fake.close();
    }
  });

  it('still sends after disconnect (replies of turns running while the channel winds down)', async () => {
    const fake = await startFakeSlack(TOKENS);
    try {
      const adapter = createSlackAdapter(configFor(fake.apiUrl, TOKENS), io);
      await adapter.connect(recordingLink().link);
      await adapter.disconnect();
      await expect.poll(() => fake.connected()).toBe(false);
      await adapter.sendText('U0000LATE01', 'late reply');
      expect(fake.sent).toEqual([{ channel: 'U0000LATE01', text: 'late reply' }]);
      // Link and media unfurls off: Slack fetches no URL a reply names (Hearth issue #27). The
      // Web API client posts a form, so the wire carries them as strings.
      expect(fake.previews).toEqual([{ unfurl_links: 'false', unfurl_media: 'false' }]);
    } finally {
      await fake.close();
    }
  });

  it('refuses frames the Socket Mode client would choke on, naming why', () => {
    expect(malformedFrame('{"type":')?.reason).toMatch(/not JSON/);
    expect(malformedFrame('[1,2]')?.reason).toMatch(/unknown Socket Mode frame type/);
    expect(malformedFrame('null')?.reason).toMatch(/not an object/);
    expect(malformedFrame(JSON.stringify({ type: 'events_api', envelope_id: 'e' }))).toEqual({
      reason: 'events_api envelope without envelope_id or event.type',
      envelopeId: 'e',
    });
    expect(malformedFrame(JSON.stringify({ type: 'x'.repeat(500) }))?.reason.length).toBeLessThan(
      120,
    );
    expect(malformedFrame(JSON.stringify({ type: 'hello' }))).toBeUndefined();
    expect(
      malformedFrame(
        JSON.stringify({
          type: 'events_api',
          envelope_id: 'e',
          payload: { event: { type: 'message' } },
        }),
      ),
    ).toBeUndefined();
  });

  it('ignores subtypes, bots and itself; refuses events without user, channel or ts; strips the mention', () => {
    const base = { type: 'message', user: 'U1', channel: 'C1', ts: '1.2', text: 'hi' };
    expect(toInbound({ ...base, subtype: 'message_changed' }, 'UBOT')).toBeUndefined();
    expect(toInbound({ ...base, bot_id: 'B1' }, 'UBOT')).toBeUndefined();
    expect(toInbound({ ...base, user: 'UBOT' }, 'UBOT')).toBeUndefined();
    expect(toInbound({ ...base, user: 42 }, 'UBOT')).toEqual({
      refused: 'message event without user, channel or ts',
    });
    expect(toInbound({ ...base, text: 'x'.repeat(40_001) }, 'UBOT')).toHaveProperty('refused');
    expect(toInbound({ ...base, text: '<@UBOT> hello' }, 'UBOT')).toMatchObject({
      chatId: 'C1',
      text: 'hello',
      direct: false,
      mentioned: true,
    });
    expect(toInbound({ ...base, channel: 'D1', channel_type: 'im' }, 'UBOT')).toMatchObject({
      chatId: 'U1',
      direct: true,
      mentioned: false,
    });
  });
});
