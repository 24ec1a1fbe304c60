import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import { makeItem } from './conformance.ts';
import { createRedisLink } from '../../redis/link.ts';
import { createRedisShortTermStore } from './redis.ts';

// Redis on a port nothing listens on: no server is needed for these.
const closedPort = 'redis://127.0.0.1:1';

describe('redis short-term store without a reachable Redis', () => {
  it('is created without throwing, quickly, and reports ping() false', async () => {
    const started = performance.now();
    const store = createRedisShortTermStore({
      link: await createRedisLink({ url: closedPort, logger: silentLogger() }),
      logger: silentLogger(),
      now: Date.now,
    });
    expect(performance.now() - started).toBeLessThan(1_500);
    try {
      expect(store.kind).toBe('redis');
      await expect(store.ping()).resolves.toBe(false);
    } finally {
      await store.close();
    }
  });

  it('rejects calls at once instead of queueing them until Redis comes back', async () => {
    const store = createRedisShortTermStore({
      link: await createRedisLink({ url: closedPort, logger: silentLogger() }),
      logger: silentLogger(),
      now: Date.now,
    });
    try {
      const started = performance.now();
      await expect(store.add(makeItem('s'), 60)).rejects.toThrow();
      await expect(store.recent('s', 5)).rejects.toThrow();
      expect(performance.now() - started).toBeLessThan(500);
    } finally {
      await store.close();
    }
  });

  it('close() stops the reconnection loop and may be repeated', async () => {
    const store = createRedisShortTermStore({
      link: await createRedisLink({ url: closedPort, logger: silentLogger() }),
      logger: silentLogger(),
      now: Date.now,
    });
    await store.close();
    await expect(store.close()).resolves.toBeUndefined();
    await expect(store.ping()).resolves.toBe(false);
  });
});
