import { describe, expect, it } from 'vitest';
import { recordingLink, runChannelConformance } from '../conformance.ts';
import { startFakeDiscord } from '../testing/fake-discord.ts';
import { malformedDispatch } from './discord-adapter.ts';
import { discordAdapterOn } from '../testing/discord-test-adapter.ts';

const TOKEN = 'conformance.discord.token';

runChannelConformance(
  'discord (discord.js against the fake gateway and REST API)',
  async () => {
    const fake = await startFakeDiscord(TOKEN);
    const adapter = discordAdapterOn(fake.apiUrl, TOKEN);
    return {
      adapter,
      inbound: async ({ senderId, text }) => {
        await fake.identified();
        fake.message({ from: senderId, text });
      },
      malformed: () => {
        fake.rawFrame('{"op": 0, "t": "MESSAGE_CREATE", "d": ');
        fake.rawDispatch('MESSAGE_CREATE', { id: '1', channel_id: 'nowhere', content: 5 });
        fake.rawDispatch('SOMETHING_NEW', { junk: true });
        fake.message({ from: '31', text: 'x'.repeat(5_000) });
        return Promise.resolve();
      },
      sent: () => fake.sent.map((m) => ({ chatId: chatOf(m.channel_id), text: m.content })),
      typing: () => fake.typing.map(chatOf),
      drop: () => fake.drop(),
      restore: () => fake.restore(),
      close: () => fake.close(),
    };

    /** The fake's DM channel ids stand for the user they are with (the adapter's chat id). */
    function chatOf(channelId: string): string {
      return fake.userOfDm(channelId) ?? channelId;
    }
  },
  { timeoutMs: 20_000 },
);

describe('discord adapter: hostile input and bad credentials', () => {
  it('a wrong bot token fails connect (401 from GET /gateway/bot), and nothing stays open', async () => {
    const fake = await startFakeDiscord(TOKEN);
    try {
      const adapter = discordAdapterOn(fake.apiUrl, 'forged.token');
      await expect(adapter.connect(recordingLink().link)).rejects.toThrow(/token/i);
      await adapter.disconnect();
      expect(fake.connected()).toBe(false);
      expect(fake.sessionCount()).toBe(0);
    } finally {
      await fake.close();
    }
  });

  it('without the Message Content intent enabled, connect fails (close code 4014: disallowed intents)', async () => {
    const fake = await startFakeDiscord(TOKEN, { messageContentDisallowed: true });
    try {
      const adapter = discordAdapterOn(fake.apiUrl, TOKEN);
      const recorder = recordingLink();
      await expect(adapter.connect(recorder.link)).rejects.toThrow(/disallowed intents/i);
      await adapter.disconnect();
      expect(recorder.lost).toEqual([]);
      expect(fake.sessionCount()).toBe(0);
    } finally {
      await fake.close();
    }
  });

  it('still sends after disconnect (replies of turns running while the channel winds down)', async () => {
    const fake = await startFakeDiscord(TOKEN);
    try {
      const adapter = discordAdapterOn(fake.apiUrl, TOKEN);
      await adapter.connect(recordingLink().link);
      await adapter.disconnect();
      expect(fake.connected()).toBe(false);
      await adapter.sendText(fake.guildChannelId, 'late reply');
      await adapter.sendText('4242', 'late DM');
      expect(fake.sent.map((m) => m.content)).toEqual(['late reply', 'late DM']);
      // SUPPRESS_EMBEDS (1 << 2): Discord fetches no URL a reply names (Hearth issue #27).
      expect(fake.sentFlags).toEqual([4, 4]);
    } finally {
      await fake.close();
    }
  });

  it('refuses unknown dispatch types and MESSAGE_CREATEs missing the fields every message has', () => {
    expect(malformedDispatch({ t: 'NOT_A_DISCORD_EVENT', d: {} })).toMatch(/unknown dispatch/);
    expect(malformedDispatch({ t: 'X'.repeat(1_000) })?.length).toBeLessThan(100);
    const good = { id: '1', channel_id: '2', content: 'hi', author: { id: '3' } };
    expect(malformedDispatch({ t: 'MESSAGE_CREATE', d: good })).toBeUndefined();
    for (const bad of [
      null,
      'junk',
      { ...good, id: 'x' },
      { ...good, channel_id: 5 },
      { ...good, content: 5 },
      { ...good, author: undefined },
      { ...good, author: { id: '../../etc' } },
    ])
      expect(malformedDispatch({ t: 'MESSAGE_CREATE', d: bad })).toMatch(/malformed/);
    expect(malformedDispatch({ t: 'GUILD_CREATE', d: {} })).toBeUndefined();
    expect(malformedDispatch({ d: {} })).toBeUndefined();
  });
});
