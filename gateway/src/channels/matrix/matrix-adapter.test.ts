import { describe, expect, it } from 'vitest';
import { channelSchema } from '../../config/schema.ts';
import { silentLogger } from '../../observability/logger.ts';
import { recordingLink, runChannelConformance } from '../conformance.ts';
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

describe('matrix adapter beyond the conformance suite', () => {
  const setup = async () => {
    const fake = await startFakeMatrix({ userId: BOT, token: TOKEN });
    const config = channelSchema.parse({
      type: 'matrix',
      homeserver_url: fake.homeserverUrl,
      access_token: TOKEN,
      user_id: BOT,
    });
    if (config.type !== 'matrix') throw new Error('unreachable');
    const io = { fetch: globalThis.fetch, now: Date.now, logger: silentLogger() };
    return { fake, config, adapter: createMatrixAdapter(config, io, { pollTimeoutMs: 1_000 }) };
  };

  it('still sends the reply of a turn in flight after disconnect (graceful)', async () => {
    const { fake, adapter } = await setup();
    fake.directRoom('!dm:fake.test', '@ann:fake.test');
    await adapter.connect(recordingLink().link);
    await adapter.disconnect();
    await adapter.sendText('!dm:fake.test', 'late reply');
    expect(fake.sent.map((m) => m.body)).toEqual(['late reply']);
    await fake.close();
  });

  it('refuses to connect with a bad token, or a token of another account', async () => {
    const { fake, config } = await setup();
    const io = { fetch: globalThis.fetch, now: Date.now, logger: silentLogger() };
    const wrong = createMatrixAdapter({ ...config, access_token: 'syt_wrong' }, io);
    await expect(wrong.connect(recordingLink().link)).rejects.toThrow(/Invalid access token/);
    const other = createMatrixAdapter({ ...config, user_id: '@someone-else:fake.test' }, io);
    await expect(other.connect(recordingLink().link)).rejects.toThrow(/belongs to @hearth/);
    await fake.close();
  });

  it('after a restart, hands over what arrived while it was down, and nothing handed over before (the cursor)', async () => {
    const { fake, config } = await setup();
    const io = { fetch: globalThis.fetch, now: Date.now, logger: silentLogger() };
    const start = async (cursor?: string) => {
      const recorded = recordingLink(cursor);
      const adapter = createMatrixAdapter(config, io, { pollTimeoutMs: 1_000 });
      await adapter.connect(recorded.link);
      return { ...recorded, adapter };
    };
    const texts = (link: { received: { text: string }[] }) => link.received.map((m) => m.text);
    fake.directRoom('!dm:fake.test', '@ann:fake.test');
    fake.message('!dm:fake.test', '@ann:fake.test', 'history before the channel existed');

    const first = await start();
    fake.message('!dm:fake.test', '@ann:fake.test', 'while connected');
    await expect.poll(() => texts(first)).toEqual(['while connected']);
    await expect.poll(first.cursor).toMatch(/^@hearth:fake\.test \d+$/);
    await first.adapter.disconnect();

    fake.message('!dm:fake.test', '@ann:fake.test', 'while the gateway was down');
    const restarted = await start(first.cursor());
    await expect.poll(() => texts(restarted)).toEqual(['while the gateway was down']);
    fake.message('!dm:fake.test', '@ann:fake.test', 'after the restart');
    await expect
      .poll(() => texts(restarted))
      .toEqual(['while the gateway was down', 'after the restart']);
    await restarted.adapter.disconnect();

    // No cursor, another account's (the channel pointed elsewhere), or a broken one: history is
    // not answered.
    const broken = ['garbage', `${BOT} -5`, `${BOT} 1e400`, `${BOT}`, ''];
    for (const cursor of [undefined, `@someone-else:fake.test ${Date.now() - 60_000}`, ...broken]) {
      const fresh = await start(cursor);
      fake.message('!dm:fake.test', '@ann:fake.test', `new ${String(cursor)}`);
      await expect.poll(() => texts(fresh)).toEqual([`new ${String(cursor)}`]);
      await fresh.adapter.disconnect();
    }
    await fake.close();
  });
});
