/**
 * Matrix among gateways sharing Redis and PostgreSQL: one holds the sync loop, the other stands
 * by. When the holder stops, what was sent while no gateway was connected reaches the one that
 * takes over through the channel's cursor in the shared database — answered once, not lost, and
 * nothing answered before is answered again.
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
import { startFakeMatrix, type FakeMatrix } from '../testing/fake-matrix.ts';

const REDIS = testRedisUrl(process.env);
const BOT = '@hearth:fake.test';
const TOKEN = 'syt_takeover_token';
const OWNER = '@owner:fake.test';
const ROOM = '!owner-dm:fake.test';

describe('a Matrix channel on two gateways sharing Redis and PostgreSQL', () => {
  let database: ScratchDatabase;
  let matrix: FakeMatrix;
  let a: ChatTestBed;
  let b: ChatTestBed;

  const start = () =>
    startChatTestBed(undefined, {
      config: {
        memory: { cache_url: REDIS, db_path: database.url },
        channels: {
          mx: channelSchema.parse({
            type: 'matrix',
            homeserver_url: matrix.homeserverUrl,
            access_token: TOKEN,
            user_id: BOT,
            allow_from: [OWNER],
          }),
        },
      },
    });
  const status = (bed: ChatTestBed) => () => gatewayApi(() => bed.gw.url).channelStatus('mx');

  beforeAll(async () => {
    await requireRedis(REDIS);
    database = await createScratchDatabase('hearth_matrix_takeover', process.env);
    matrix = await startFakeMatrix({ userId: BOT, token: TOKEN });
    matrix.directRoom(ROOM, OWNER);
    a = await start();
    b = await start();
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await matrix?.close();
    await database?.drop();
  });

  it('the peer taking over answers what was sent while no gateway was connected, once', async () => {
    await expect.poll(status(a), { timeout: 20_000 }).toBe('connected');
    await expect.poll(status(b), { timeout: 20_000 }).toBe('standby');
    a.fake.reply({ text: 'From A.' });
    matrix.message(ROOM, OWNER, 'hello while A holds it');
    expect(await matrix.nextSent()).toMatchObject([{ body: 'From A.' }]);

    // The homeserver goes away, then A stops: B takes the lease but cannot sync until the
    // homeserver is back, so the next message can only reach it through the cursor.
    await matrix.drop();
    await a.gw.gateway.close();
    matrix.message(ROOM, OWNER, 'sent while no gateway was connected');
    b.fake.reply({ text: 'From B.' });
    await matrix.restore();

    expect(await matrix.nextSent()).toMatchObject([{ body: 'From B.' }]);
    await expect.poll(status(b), { timeout: 20_000 }).toBe('connected');
    expect(JSON.stringify(b.fake.requests.at(-1)?.body)).toContain(
      'sent while no gateway was connected',
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // A answered once, B once: nothing lost, nothing answered twice.
    expect(a.fake.requests).toHaveLength(1);
    expect(b.fake.requests).toHaveLength(1);
  });
});
