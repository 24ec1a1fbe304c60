import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import { makeItem, runShortTermConformance } from './conformance.ts';
import { createInProcessShortTermStore } from './in-process.ts';
import { createRedisLink } from '../../redis/link.ts';
import { createRedisShortTermStore } from './redis.ts';
import { createResilientShortTermStore } from './resilient.ts';
import { capturingLogger } from '../../observability/testing/log-capture.ts';
import {
  deleteKeys,
  redisServerProcess,
  requireRedis,
  testRedisUrl,
  type RedisServerProcess,
} from './testing/redis-server.ts';

const url = testRedisUrl(process.env);
const runPrefix = `hearth:st:test-${randomBytes(6).toString('hex')}:`;
let stores = 0;

beforeAll(async () => {
  await requireRedis(url);
});

afterAll(async () => {
  await deleteKeys(url, runPrefix);
});

runShortTermConformance(
  'resilient, Redis reachable',
  async (clock, limits) =>
    createResilientShortTermStore({
      primary: createRedisShortTermStore({
        link: await createRedisLink({ url, logger: silentLogger() }),
        logger: silentLogger(),
        now: clock.now,
        keyPrefix: `${runPrefix}${(stores += 1)}:`,
        maxItemBytes: limits.maxItemBytes,
        onDropped: limits.onDropped,
      }),
      fallback: createInProcessShortTermStore({ now: clock.now, ...limits }),
      logger: silentLogger(),
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

describe('resilient short-term store against a Redis that dies and comes back', () => {
  let server: RedisServerProcess;

  beforeAll(async () => {
    server = await redisServerProcess();
    await server.start();
  });

  afterAll(async () => {
    await server.kill();
  });

  it('keeps working through the outage and flips kind to in-process and back to redis', async () => {
    const capture = capturingLogger();
    const changes: string[] = [];
    const store = await createResilientShortTermStore({
      primary: createRedisShortTermStore({
        link: await createRedisLink({ url: server.url, logger: silentLogger() }),
        logger: capture.logger,
        now: Date.now,
      }),
      fallback: createInProcessShortTermStore({ now: Date.now }),
      logger: capture.logger,
      onChange: (kind) => changes.push(kind),
      probeIntervalMs: 100,
    });
    try {
      expect(store.kind).toBe('redis');
      const before = makeItem('s', { content: 'before the outage', createdAt: Date.now() });
      await store.add(before, 60);
      await expect(store.recent('s', 5)).resolves.toStrictEqual([before]);

      await server.kill();
      const during = makeItem('s', { content: 'during the outage', createdAt: Date.now() + 1 });
      await expect(store.add(during, 60)).resolves.toBeUndefined();
      expect(store.kind).toBe('in-process');
      await expect(store.recent('s', 5)).resolves.toStrictEqual([during]);
      await expect(store.sessions()).resolves.toStrictEqual(new Map([['s', 1]]));
      await expect(store.removeMatching(null, 'nothing like this')).resolves.toBe(0);

      await server.start();
      await expect.poll(() => store.kind, { timeout: 15_000, interval: 50 }).toBe('redis');
      expect(changes).toStrictEqual(['in-process', 'redis']);

      // The restarted Redis kept nothing (no persistence); the outage item is still served.
      const after = makeItem('s', { content: 'after the outage', createdAt: Date.now() + 2 });
      await store.add(after, 60);
      await expect(store.recent('s', 5)).resolves.toStrictEqual([after, during]);
      expect(capture.warnings()).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it('never hands an error to the caller while Redis is killed under a stream of calls', async () => {
    const store = await createResilientShortTermStore({
      primary: createRedisShortTermStore({
        link: await createRedisLink({ url: server.url, logger: silentLogger() }),
        logger: silentLogger(),
        now: Date.now,
      }),
      fallback: createInProcessShortTermStore({ now: Date.now }),
      logger: silentLogger(),
      probeIntervalMs: 100,
    });
    try {
      expect(store.kind).toBe('redis');
      const calls: Promise<unknown>[] = [];
      for (let i = 0; i < 200; i += 1) {
        calls.push(store.add(makeItem('stream'), 60), store.recent('stream', 10));
        if (i === 50) calls.push(server.kill());
        if (i % 20 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      }
      const results = await Promise.allSettled(calls);
      expect(results.filter((result) => result.status === 'rejected')).toStrictEqual([]);
      expect(store.kind).toBe('in-process');
      await server.start();
      await expect.poll(() => store.kind, { timeout: 15_000, interval: 50 }).toBe('redis');
    } finally {
      await store.close();
    }
  });
});
