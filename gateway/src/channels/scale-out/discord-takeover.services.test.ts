/** Discord's takeover among gateways sharing Redis and PostgreSQL (see the suite). */
import { startFakeDiscord } from '../testing/fake-discord.ts';
import { runTakeoverSuite } from './testing/takeover-suite.ts';

const TOKEN = 'takeover.discord.token';
const OWNER = '930000000000000901';

runTakeoverSuite('Discord', process.env, async () => {
  const discord = await startFakeDiscord(TOKEN);
  return {
    channel: {
      type: 'discord',
      bot_token: TOKEN,
      rest_api_url: discord.apiUrl,
      allow_from: [OWNER],
    },
    say: (text) => void discord.message({ from: OWNER, text }),
    // Discord forgets every session while it is away: the reconnect is a new IDENTIFY.
    nextReply: async () => (await discord.nextSent(1, 30_000))[0]?.content ?? '',
    drop: () => discord.drop(),
    restore: () => discord.restore(),
    close: () => discord.close(),
  };
});
