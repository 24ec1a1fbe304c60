import { channelSchema } from '../../config/schema.ts';
import { silentLogger } from '../../observability/logger.ts';
import { runChannelConformance } from '../conformance.ts';
import { startFakeDiscord } from '../testing/fake-discord.ts';
import { createDiscordAdapter } from './discord-adapter.ts';

const TOKEN = 'conformance.discord.token';

runChannelConformance(
  'discord (discord.js against the fake gateway and REST API)',
  async () => {
    const fake = await startFakeDiscord(TOKEN);
    const config = channelSchema.parse({
      type: 'discord',
      bot_token: TOKEN,
      rest_api_url: fake.apiUrl,
    });
    if (config.type !== 'discord') throw new Error('unreachable');
    const adapter = createDiscordAdapter(config, {
      fetch: globalThis.fetch,
      now: Date.now,
      logger: silentLogger(),
    });
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
