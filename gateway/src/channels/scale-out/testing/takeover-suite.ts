/**
 * The takeover case every long-polling channel that keeps a cursor must pass: two gateways share
 * Redis and PostgreSQL, one holds the channel, the other stands by. The far end goes away, the
 * holder stops, a message is sent, the far end comes back: the peer that takes over can only
 * learn of that message through the channel's cursor in the shared database — answered once, not
 * lost, and nothing answered before is answered again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelSchema } from '../../../config/schema.ts';
import {
  createScratchDatabase,
  type ScratchDatabase,
} from '../../../db/postgres/testing/scratch-database.ts';
import { requireRedis, testRedisUrl } from '../../../memory/short-term/testing/redis-server.ts';
import { startChatTestBed, type ChatTestBed } from '../../../testing/gateway/chat-gateway.ts';
import { gatewayApi } from '../../testing/channel-test-kit.ts';
import { TEST_CLUSTER_SECRET } from '../../../scale-out/testing/test-seal.ts';

/** The network's far end, as the suite drives it. */
export interface TakeoverFarEnd {
  /** The `[channels.<name>]` table pointing at this far end. */
  channel: Record<string, unknown>;
  /** The allowed sender writes `text` to the bot. */
  say(text: string): void;
  /** The text of the bot's next message. */
  nextReply(): Promise<string>;
  drop(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** `env`: the test's environment (where the services' URLs may be overridden). */
export function runTakeoverSuite(
  network: string,
  env: NodeJS.ProcessEnv,
  farEnd: () => Promise<TakeoverFarEnd>,
): void {
  const redis = testRedisUrl(env);

  describe(`a ${network} channel on two gateways sharing Redis and PostgreSQL`, () => {
    let database: ScratchDatabase;
    let far: TakeoverFarEnd;
    let a: ChatTestBed;
    let b: ChatTestBed;

    const start = () =>
      startChatTestBed(undefined, {
        config: {
          gateway: { cluster_secret: TEST_CLUSTER_SECRET },
          memory: { cache_url: redis, db_path: database.url },
          channels: { ch: channelSchema.parse(far.channel) },
        },
      });
    const status = (bed: ChatTestBed) => () => gatewayApi(() => bed.gw.url).channelStatus('ch');

    beforeAll(async () => {
      await requireRedis(redis);
      database = await createScratchDatabase('hearth_takeover', env);
      far = await farEnd();
      a = await start();
      b = await start();
    }, 60_000);
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await far?.close();
      await database?.drop();
    });

    it('the peer taking over answers what was sent while no gateway was connected, once', async () => {
      await expect.poll(status(a), { timeout: 20_000 }).toBe('connected');
      await expect.poll(status(b), { timeout: 20_000 }).toBe('standby');
      a.fake.reply({ text: 'From A.' });
      far.say('hello while A holds it');
      expect(await far.nextReply()).toBe('From A.');

      // The far end goes away, then A stops: B takes the lease but cannot connect until the far
      // end is back, so the next message can only reach it through the cursor.
      await far.drop();
      await a.gw.gateway.close();
      far.say('sent while no gateway was connected');
      b.fake.reply({ text: 'From B.' });
      await far.restore();

      expect(await far.nextReply()).toBe('From B.');
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
}
