import { channelSchema } from '../../config/schema.ts';
import { silentLogger } from '../../observability/logger.ts';
import { runChannelConformance } from '../conformance.ts';
import { startFakeTelegram } from '../testing/fake-telegram.ts';
import { createTelegramAdapter } from './telegram-adapter.ts';

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
