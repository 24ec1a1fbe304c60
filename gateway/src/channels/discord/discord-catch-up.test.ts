/**
 * What was sent while no gateway was connected, answered on the next connect: the adapter
 * against the fake Discord, with the cursor a recording link keeps.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../observability/logger.ts';
import { silentLogger } from '../../observability/logger.ts';
import { capturingLogger } from '../../observability/testing/log-capture.ts';
import { recordingLink } from '../conformance.ts';
import type { ChannelLink } from '../ports.ts';
import { discordAdapterOn } from '../testing/discord-test-adapter.ts';
import { startFakeDiscord, type FakeDiscord } from '../testing/fake-discord.ts';
import { writeDiscordCursor } from './discord-cursor.ts';

const TOKEN = 'catch-up.discord.token';
const ANN = '930000000000000601';
const BOB = '930000000000000602';
const UNKNOWN_CHANNEL = '910000000000009999';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const texts = (link: { received: { text: string }[] }) => link.received.map((m) => m.text);

describe('discord adapter: what was sent while no gateway was connected', () => {
  let fake: FakeDiscord;
  const adapters: { disconnect(): Promise<void> }[] = [];

  beforeEach(async () => {
    fake = await startFakeDiscord(TOKEN);
  });
  afterEach(async () => {
    for (const adapter of adapters.splice(0)) await adapter.disconnect();
    await fake.close();
  });

  function adapterFor(logger: Logger = silentLogger()) {
    const adapter = discordAdapterOn(fake.apiUrl, TOKEN, logger);
    adapters.push(adapter);
    return adapter;
  }
  /** A connected adapter whose link's cursor starts at `cursor`. */
  async function start(cursor?: string, logger?: Logger) {
    const recorded = recordingLink(cursor);
    const adapter = adapterFor(logger);
    await adapter.connect(recorded.link);
    return { ...recorded, adapter };
  }
  /** The cursor the adapter would have written after handing over `lastIds` (channel → id). */
  const cursorAt = (lastIds: Record<string, string>, bot = fake.bot.id) =>
    writeDiscordCursor(bot, new Map(Object.entries(lastIds)));
  const history = () => fake.requests.filter((r) => /^GET \/channels\/\d+\/messages/.test(r));

  it('after a restart, hands over exactly what was missed, in order, and nothing handed over before', async () => {
    fake.message({ from: ANN, text: 'history before the channel existed' });
    const first = await start();
    fake.message({ from: ANN, text: 'dm while connected' });
    fake.message({
      from: BOB,
      guild: true,
      text: `<@${fake.bot.id}> guild while connected`,
      mentions: [fake.bot.id],
    });
    await expect.poll(() => texts(first)).toEqual(['dm while connected', 'guild while connected']);
    await first.adapter.sendText(ANN, 'the bot’s own reply'); // in the DM's history too
    await expect
      .poll(() => JSON.parse(first.cursor() ?? '{}') as unknown)
      .toEqual({
        bot: fake.bot.id,
        channels: {
          [fake.dmChannelOf(ANN)]: fake.history(fake.dmChannelOf(ANN))[1]?.id,
          [fake.guildChannelId]: fake.history(fake.guildChannelId)[0]?.id,
        },
      });
    await first.adapter.disconnect();

    fake.message({ from: ANN, text: 'dm while down 1' });
    fake.message({ from: BOB, guild: true, text: 'guild while down' });
    fake.message({ from: ANN, text: 'dm while down 2' });
    const restarted = await start(first.cursor());
    // Channel by channel, the one whose last message handed over is oldest first.
    await expect
      .poll(() => texts(restarted))
      .toEqual(['dm while down 1', 'dm while down 2', 'guild while down']);
    expect(restarted.received.map((m) => [m.chatId, m.direct])).toEqual([
      [ANN, true],
      [ANN, true],
      [fake.guildChannelId, false],
    ]);
    fake.message({ from: ANN, text: 'after the restart' });
    await expect
      .poll(() => texts(restarted))
      .toEqual(['dm while down 1', 'dm while down 2', 'guild while down', 'after the restart']);
    expect(restarted.rejected).toEqual([]);
    expect(history()).toEqual([
      expect.stringMatching(/^GET \/channels\/\d+\/messages\?after=\d+&limit=100$/),
      expect.stringMatching(/^GET \/channels\/\d+\/messages\?after=\d+&limit=100$/),
    ]);
  });

  it('the very first connect (no cursor) answers no history', async () => {
    fake.message({ from: ANN, text: 'old 1' });
    fake.message({ from: BOB, text: 'old 2' });
    fake.message({
      from: BOB,
      guild: true,
      text: `<@${fake.bot.id}> old 3`,
      mentions: [fake.bot.id],
    });
    const fresh = await start();
    fake.message({ from: ANN, text: 'new' });
    await expect.poll(() => texts(fresh)).toEqual(['new']);
    expect(history()).toEqual([]);
  });

  it('a cursor of another bot account, or a broken one, is no cursor: no history answered', async () => {
    const last = fake.message({ from: ANN, text: 'answered long ago' });
    fake.message({ from: ANN, text: 'not for this bot to catch up' });
    const dm = fake.dmChannelOf(ANN);
    const hostile = [
      cursorAt({ [dm]: last }, '900000000000000099'), // another bot's
      'garbage',
      `${fake.bot.id} ${last}`,
      JSON.stringify({ bot: fake.bot.id, channels: { [dm]: 'abc' } }),
      JSON.stringify({ bot: fake.bot.id, channels: { '../../gateway/bot': last } }),
      '{"bot":"' + fake.bot.id + '","channels":{"__proto__":"' + last + '"}}',
      cursorAt({ [dm]: last }) + ' '.repeat(10_000),
    ];
    for (const [i, cursor] of hostile.entries()) {
      const link = await start(cursor);
      fake.message({ from: ANN, text: `live ${i}` });
      await expect.poll(() => texts(link)).toEqual([`live ${i}`]);
      await link.adapter.disconnect();
    }
    expect(history()).toEqual([]);
  });

  it('a channel that fails is counted and the others are caught up (unknown 10003, missing access 50001, a 429 waited out)', async () => {
    const annLast = fake.message({ from: ANN, text: 'ann answered' });
    const bobLast = fake.message({ from: BOB, text: 'bob answered' });
    const guildLast = fake.message({ from: BOB, guild: true, text: 'guild answered' });
    fake.message({ from: ANN, text: 'ann missed' });
    fake.message({ from: BOB, text: 'bob missed' });
    fake.message({ from: BOB, guild: true, text: 'guild missed' });
    fake.revokeAccess(fake.guildChannelId); // the bot was kicked from the guild
    fake.throttle(/^GET \/channels\/\d+\/messages$/, 1);
    const started = Date.now();
    const link = await start(
      cursorAt({
        [fake.dmChannelOf(ANN)]: annLast,
        [UNKNOWN_CHANNEL]: '1',
        [fake.guildChannelId]: guildLast,
        [fake.dmChannelOf(BOB)]: bobLast,
      }),
    );
    await expect.poll(() => texts(link), { timeout: 10_000 }).toEqual(['ann missed', 'bob missed']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900); // the 429's retry_after
    // The guild channel's last message handed over is the latest: it is tried last.
    await expect.poll(() => link.rejected).toHaveLength(2);
    expect(link.rejected).toEqual([
      expect.stringMatching(new RegExp(`${UNKNOWN_CHANNEL}.*404 10003 Unknown Channel`)),
      expect.stringMatching(new RegExp(`${fake.guildChannelId}.*Missing Access`)),
    ]);
    // The channels gone for this bot leave the cursor; the others stay.
    const channelsOf = (cursor: string | undefined) =>
      Object.keys((JSON.parse(cursor ?? '{}') as { channels?: object }).channels ?? {}).sort();
    await expect
      .poll(() => channelsOf(link.cursor()))
      .toEqual([fake.dmChannelOf(ANN), fake.dmChannelOf(BOB)].sort());
  });

  it('more than 100 missed in a channel: the latest 100 are handed over, and the log says so; 100 exactly: all', async () => {
    const annLast = fake.message({ from: ANN, text: 'ann answered' });
    const bobLast = fake.message({ from: BOB, text: 'bob answered' });
    for (let i = 0; i < 130; i += 1) fake.message({ from: ANN, text: `ann ${i}` });
    for (let i = 0; i < 100; i += 1) fake.message({ from: BOB, text: `bob ${i}` });
    const log = capturingLogger();
    const link = await start(
      cursorAt({ [fake.dmChannelOf(ANN)]: annLast, [fake.dmChannelOf(BOB)]: bobLast }),
      log.logger,
    );
    const expected = [
      ...Array.from({ length: 100 }, (_, i) => `ann ${i + 30}`),
      ...Array.from({ length: 100 }, (_, i) => `bob ${i}`),
    ];
    await expect.poll(() => texts(link), { timeout: 10_000 }).toEqual(expected);
    const skipped = log.warnings().filter((line) => /more than 100 messages/.test(line.msg));
    expect(skipped).toEqual([
      expect.objectContaining({ channel: fake.dmChannelOf(ANN), after: annLast }),
    ]);
  });

  it('a message arriving live during the catch-up is handed over once', async () => {
    const last = fake.message({ from: ANN, text: 'answered' });
    fake.message({ from: ANN, text: 'missed 1' });
    fake.message({ from: ANN, text: 'missed 2' });
    // The history request waits a second (429): the live message comes meanwhile, and is in
    // the page the retry brings too.
    fake.throttle(/^GET \/channels\/\d+\/messages$/, 1);
    const link = await start(cursorAt({ [fake.dmChannelOf(ANN)]: last }));
    await expect.poll(() => history().length).toBe(1);
    fake.message({ from: ANN, text: 'live during the catch-up' });
    await expect
      .poll(() => texts(link), { timeout: 10_000 })
      .toEqual(['missed 1', 'missed 2', 'live during the catch-up']);
    await pause(300);
    expect(texts(link)).toEqual(['missed 1', 'missed 2', 'live during the catch-up']);
  });

  it('writes the cursor after each hand-over, in order: no lost update when messages arrive fast', async () => {
    // A store whose earlier writes land later (a slow database): unordered writes would leave
    // an old position last.
    const recorded = recordingLink();
    let stored: string | undefined;
    let writes = 0;
    const link: ChannelLink = {
      ...recorded.link,
      cursor: {
        read: () => Promise.resolve(stored),
        write: async (value) => {
          writes += 1;
          await pause(Math.max(0, 60 - writes * 10));
          stored = value;
        },
      },
    };
    const adapter = adapterFor();
    await adapter.connect(link);
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      ids.push(fake.message({ from: ANN, text: `ann ${i}` }));
      ids.push(fake.message({ from: BOB, text: `bob ${i}` }));
    }
    await expect.poll(() => recorded.received.length).toBe(12);
    await expect.poll(() => writes).toBe(12);
    await pause(100);
    expect(JSON.parse(stored ?? '{}')).toEqual({
      bot: fake.bot.id,
      channels: { [fake.dmChannelOf(ANN)]: ids[10], [fake.dmChannelOf(BOB)]: ids[11] },
    });
  });
});
