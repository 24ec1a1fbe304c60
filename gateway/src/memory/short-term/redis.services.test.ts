import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import type { ShortTermStore } from '../ports.ts';
import { createTestClock, makeItem, runShortTermConformance } from './conformance.ts';
import { createRedisLink } from '../../redis/link.ts';
import { createRedisShortTermStore } from './redis.ts';
import {
  deleteKeys,
  redisServerProcess,
  requireRedis,
  testRedisUrl,
} from './testing/redis-server.ts';

// The services project needs a real Redis; an unreachable server fails this file loudly.
const url = testRedisUrl(process.env);
const runPrefix = `hearth:st:test-${randomBytes(6).toString('hex')}:`;
let stores = 0;
const nextPrefix = (): string => `${runPrefix}${(stores += 1)}:`;

beforeAll(async () => {
  await requireRedis(url);
});

afterAll(async () => {
  await deleteKeys(url, runPrefix);
});

runShortTermConformance(
  'redis',
  async (clock, { maxItemBytes, onDropped }) =>
    createRedisShortTermStore({
      link: await createRedisLink({ url, logger: silentLogger() }),
      logger: silentLogger(),
      now: clock.now,
      keyPrefix: nextPrefix(),
      maxItemBytes,
      onDropped,
    }),
  {
    kind: 'redis',
    skip: [
      {
        reason:
          'what Redis holds is in Redis’s memory, not the gateway’s: bounded by the per-item and per-session caps and the key TTLs',
        tests: [
          'stays under its byte budget: the least recently written session loses its oldest items first',
          'frees the bytes of what is cleared, removed or expired',
        ],
      },
    ],
  },
);

describe('redis short-term specifics', () => {
  it('lets Redis itself drop an idle session once its longest TTL has passed (real time)', async () => {
    const keyPrefix = nextPrefix();
    const store = createRedisShortTermStore({
      link: await createRedisLink({ url, logger: silentLogger() }),
      logger: silentLogger(),
      now: Date.now,
      keyPrefix,
    });
    const raw = createClient({ url });
    await raw.connect();
    try {
      await store.add(makeItem('idle'), 1);
      const keys = ['o:idle', 'x:idle', 'd:idle', 'sessions'].map((key) => `${keyPrefix}${key}`);
      expect(await raw.exists(keys)).toBe(4);
      for (const key of keys) {
        const ttl = await raw.pTTL(key);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(1_000);
      }
      await new Promise((resolve) => setTimeout(resolve, 1_300));
      expect(await raw.exists(keys)).toBe(0);
      await expect(store.recent('idle', 10)).resolves.toStrictEqual([]);
    } finally {
      raw.destroy();
      await store.close();
    }
  });

  it('reads items written before provenance by their role’s default; an unreadable origin as untrusted', async () => {
    const keyPrefix = nextPrefix();
    const store = createRedisShortTermStore({
      link: await createRedisLink({ url, logger: silentLogger() }),
      logger: silentLogger(),
      now: Date.now,
      keyPrefix,
    });
    const raw = createClient({ url });
    await raw.connect();
    try {
      const user = makeItem('legacy', { role: 'user' });
      const reply = makeItem('legacy', { role: 'assistant' });
      const odd = makeItem('legacy', { role: 'user' });
      for (const item of [user, reply, odd]) await store.add(item, 60);
      // Rewrite them as the previous release stored them (no origin), and one with a bad origin.
      const json = (item: typeof user, origin?: unknown) => JSON.stringify({ ...item, origin });
      await raw.hSet(`${keyPrefix}d:legacy`, {
        [user.id]: json(user),
        [reply.id]: json(reply),
        [odd.id]: json(odd, { trust: 'root' }),
      });
      await expect(store.recent('legacy', 10)).resolves.toStrictEqual([
        {
          ...odd,
          origin: { trust: 'untrusted', sources: [{ kind: 'memory', name: 'unreadable origin' }] },
        },
        { ...reply, origin: { trust: 'hearth', sources: [] } },
        { ...user, origin: { trust: 'owner', sources: [] } },
      ]);
    } finally {
      await raw.quit();
      await store.close();
    }
  });

  it('extends a session’s key TTL to its longest-lived item', async () => {
    const keyPrefix = nextPrefix();
    const store = createRedisShortTermStore({
      link: await createRedisLink({ url, logger: silentLogger() }),
      logger: silentLogger(),
      now: Date.now,
      keyPrefix,
    });
    const raw = createClient({ url });
    await raw.connect();
    try {
      await store.add(makeItem('s'), 100);
      await store.add(makeItem('s'), 1);
      expect(await raw.pTTL(`${keyPrefix}d:s`)).toBeGreaterThan(99_000);
    } finally {
      raw.destroy();
      await store.close();
    }
  });

  it('shares one session between two stores on the same Redis (two gateway processes)', async () => {
    const keyPrefix = nextPrefix();
    const clock = createTestClock();
    const one = createRedisShortTermStore({
      link: await createRedisLink({ url, logger: silentLogger() }),
      logger: silentLogger(),
      now: clock.now,
      keyPrefix,
    });
    const two = createRedisShortTermStore({
      link: await createRedisLink({ url, logger: silentLogger() }),
      logger: silentLogger(),
      now: clock.now,
      keyPrefix,
    });
    try {
      const item = makeItem('shared');
      await one.add(item, 60);
      await expect(two.recent('shared', 5)).resolves.toStrictEqual([item]);
      await expect(two.clear('shared')).resolves.toBe(1);
      await expect(one.recent('shared', 5)).resolves.toStrictEqual([]);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('reconnects by itself after Redis dies and comes back; ping() follows', async () => {
    const server = await redisServerProcess();
    await server.start();
    let store: ShortTermStore | undefined;
    try {
      store = createRedisShortTermStore({
        link: await createRedisLink({ url: server.url, logger: silentLogger() }),
        logger: silentLogger(),
        now: Date.now,
      });
      await expect(store.ping()).resolves.toBe(true);
      await server.kill();
      await expect.poll(() => store?.ping(), { timeout: 5_000 }).toBe(false);
      await expect(store.recent('s', 1)).rejects.toThrow();
      await server.start();
      await expect.poll(() => store?.ping(), { timeout: 10_000, interval: 100 }).toBe(true);
      await store.add(makeItem('s', { content: 'after the restart' }), 60);
      await expect(store.recent('s', 1)).resolves.toMatchObject([{ content: 'after the restart' }]);
    } finally {
      await store?.close();
      await server.kill();
    }
  });
});
