import { describe, expect, it } from 'vitest';
import { silentLogger } from '../observability/logger.ts';
import type { RedisClient, RedisLink } from './link.ts';
import { createRedisPool } from './pool.ts';

/** A link that records what happens to it; its connections are stand-ins never used here. */
function fakeLink(url: string) {
  const readyListeners: (() => void)[] = [];
  const link = {
    url,
    closes: 0,
    up: true,
    client: { name: `${url} commands` } as unknown as RedisClient,
    subscriber: { name: `${url} pub/sub` } as unknown as RedisClient,
    ready: () => link.up,
    onSubscriberReady(fn: () => void) {
      readyListeners.push(fn);
    },
    close() {
      link.closes += 1;
      return Promise.resolve();
    },
    subscriberReady: () => {
      for (const fn of readyListeners) fn();
    },
  };
  return link;
}

function setUp() {
  const opened: ReturnType<typeof fakeLink>[] = [];
  const pool = createRedisPool({
    logger: silentLogger(),
    connect: (url) => {
      const link = fakeLink(url);
      opened.push(link);
      return Promise.resolve(link satisfies RedisLink);
    },
  });
  return { pool, opened };
}

describe('the Redis pool (one link per URL for a gateway)', () => {
  it('opens one link per URL and hands every part the same connections', async () => {
    const { pool, opened } = setUp();
    const [memory, scaleOut] = await Promise.all([
      pool.open('redis://cache:6379'),
      pool.open('redis://cache:6379'),
    ]);
    const canvas = await pool.open('redis://cache:6379');
    const other = await pool.open('redis://other:6379');
    expect(opened.map((link) => link.url)).toEqual(['redis://cache:6379', 'redis://other:6379']);
    expect(scaleOut.client).toBe(memory.client);
    expect(canvas.subscriber).toBe(memory.subscriber);
    expect(other.client).not.toBe(memory.client);
  });

  it('closes a link with its last handle only, and opens a new one after that', async () => {
    const { pool, opened } = setUp();
    const one = await pool.open('redis://cache:6379');
    const two = await pool.open('redis://cache:6379');
    await one.close();
    await one.close();
    expect(opened[0]?.closes).toBe(0);
    expect(two.ready()).toBe(true);
    await two.close();
    expect(opened[0]?.closes).toBe(1);

    const again = await pool.open('redis://cache:6379');
    expect(opened).toHaveLength(2);
    expect(again.ready()).toBe(true);
  });

  it('a closed handle is not ready and its reconnect callbacks stop', async () => {
    const { pool, opened } = setUp();
    const one = await pool.open('redis://cache:6379');
    const two = await pool.open('redis://cache:6379');
    const calls: string[] = [];
    one.onSubscriberReady(() => calls.push('one'));
    two.onSubscriberReady(() => calls.push('two'));
    opened[0]?.subscriberReady();
    await one.close();
    opened[0]?.subscriberReady();
    expect(calls).toEqual(['one', 'two', 'two']);
    expect(one.ready()).toBe(false);
    expect(two.ready()).toBe(true);
  });

  it('forgets a URL whose link could not be opened, so the next open tries again', async () => {
    let attempts = 0;
    const pool = createRedisPool({
      logger: silentLogger(),
      connect: (url) => {
        attempts += 1;
        return attempts === 1
          ? Promise.reject(new Error('invalid URL'))
          : Promise.resolve(fakeLink(url));
      },
    });
    await expect(pool.open('redis://cache:6379')).rejects.toThrow('invalid URL');
    await expect(pool.open('redis://cache:6379')).resolves.toBeDefined();
    expect(attempts).toBe(2);
  });
});
