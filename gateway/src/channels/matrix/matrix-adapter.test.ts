import { channelSchema } from '../../config/schema.ts';
import { silentLogger } from '../../observability/logger.ts';
import { runChannelConformance } from '../conformance.ts';
import { startFakeMatrix } from '../testing/fake-matrix.ts';
import { createMatrixAdapter } from './matrix-adapter.ts';

const BOT = '@hearth:fake.test';
const TOKEN = 'syt_conformance_token';

runChannelConformance(
  'matrix (matrix-js-sdk against the fake client-server API)',
  async () => {
    const fake = await startFakeMatrix({ userId: BOT, token: TOKEN });
    const config = channelSchema.parse({
      type: 'matrix',
      homeserver_url: fake.homeserverUrl,
      access_token: TOKEN,
      user_id: BOT,
    });
    if (config.type !== 'matrix') throw new Error('unreachable');
    const adapter = createMatrixAdapter(
      config,
      { fetch: globalThis.fetch, now: Date.now, logger: silentLogger() },
      { pollTimeoutMs: 1_000 },
    );
    // The harness's chats are direct rooms named like their one other member.
    fake.directRoom('4242', '4242');
    return {
      adapter,
      inbound: ({ senderId, text }) => {
        fake.directRoom(senderId, senderId);
        fake.message(senderId, senderId, text);
        return Promise.resolve();
      },
      malformed: () => {
        fake.directRoom('66', '66');
        fake.rawEvent('66', { sender: '66', content: { msgtype: 'm.text', body: 5 } });
        fake.rawEvent('66', { sender: '66', content: { msgtype: 'org.example.weird', body: 'x' } });
        fake.rawEvent('66', { sender: '66', content: { body: 'no msgtype' } });
        fake.message('66', '66', 'x'.repeat(20_000));
        fake.rawEvent('66', { type: 'org.example.unknown', sender: '66', content: { any: 1 } });
        return Promise.resolve();
      },
      sent: () => fake.sent.map((m) => ({ chatId: m.roomId, text: m.body })),
      typing: () => fake.typing.filter((t) => t.typing).map((t) => t.roomId),
      drop: () => fake.drop(),
      restore: () => fake.restore(),
      close: () => fake.close(),
    };
  },
  { timeoutMs: 30_000 },
);
