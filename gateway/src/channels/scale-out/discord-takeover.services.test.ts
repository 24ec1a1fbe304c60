/**
 * Discord among gateways sharing Redis and PostgreSQL: one holds the gateway connection, the
 * other stands by. When the holder stops, what was sent while no gateway was connected reaches
 * the one that takes over through the channel's cursor in the shared database — answered once,
 * not lost, and nothing answered before is answered again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelSchema } from '../../config/schema.ts';
import {
  createScratchDatabase,
  type ScratchDatabase,
} from '../../db/postgres/testing/scratch-database.ts';
import { requireRedis, testRedisUrl } from '../../memory/short-term/testing/redis-server.ts';
import { startChatTestBed, type ChatTestBed } from '../../testing/chat-gateway.ts';
import { gatewayApi } from '../testing/channel-test-kit.ts';
import { startFakeDiscord, type FakeDiscord } from '../testing/fake-discord.ts';

const REDIS = testRedisUrl(process.env);
const TOKEN = 'takeover.discord.token';
const OWNER = '930000000000000901';

describe('a Discord channel on two gateways sharing Redis and PostgreSQL', () => {
  let database: ScratchDatabase;
  let discord: FakeDiscord;
  let a: ChatTestBed;
  let b: ChatTestBed;

  const start = () =>
    startChatTestBed(undefined, {
      config: {
        memory: { cache_url: REDIS, db_path: database.url },
        channels: {
          dc: channelSchema.parse({
            type: 'discord',
            bot_token: TOKEN,
            rest_api_url: discord.apiUrl,
            allow_from: [OWNER],
          }),
        },
      },
    });
  const status = (bed: ChatTestBed) => () => gatewayApi(() => bed.gw.url).channelStatus('dc');

  beforeAll(async () => {
    await requireRedis(REDIS);
    database = await createScratchDatabase('hearth_discord_takeover', process.env);
    discord = await startFakeDiscord(TOKEN);
    a = await start();
    b = await start();
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await discord?.close();
    await database?.drop();
  });

  it('the peer taking over answers what was sent while no gateway was connected, once', async () => {
    await expect.poll(status(a), { timeout: 20_000 }).toBe('connected');
    await expect.poll(status(b), { timeout: 20_000 }).toBe('standby');
    a.fake.reply({ text: 'From A.' });
    discord.message({ from: OWNER, text: 'hello while A holds it' });
    expect(await discord.nextSent()).toMatchObject([{ content: 'From A.' }]);

    // Discord goes away, then A stops: B takes the lease but cannot connect until Discord is
    // back (with every session forgotten), so the next message can only reach it through the
    // cursor.
    await discord.drop();
    await a.gw.gateway.close();
    discord.message({ from: OWNER, text: 'sent while no gateway was connected' });
    b.fake.reply({ text: 'From B.' });
    await discord.restore();

    expect(await discord.nextSent(1, 30_000)).toMatchObject([{ content: 'From B.' }]);
    await expect.poll(status(b), { timeout: 20_000 }).toBe('connected');
    expect(JSON.stringify(b.fake.requests.at(-1)?.body)).toContain(
      'sent while no gateway was connected',
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // A answered once, B once: nothing lost, nothing answered twice.
    expect(a.fake.requests).toHaveLength(1);
    expect(b.fake.requests).toHaveLength(1);
  }, 60_000);
});
