import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteKeys,
  requireRedis,
  testRedisUrl,
} from '../memory/short-term/testing/redis-server.ts';
import { silentLogger } from '../observability/logger.ts';
import { createGatewayPresence, type GatewayPresence } from './presence.ts';
import { createRedisLink, type RedisLink } from '../redis/link.ts';

// The services project needs a real Redis; an unreachable server fails this file loudly.
const url = testRedisUrl(process.env);
const keyPrefix = `hearth:gw:test-${randomBytes(6).toString('hex')}:`;
const TTL = 300;
const observer = createClient({ url });
const opened: { presence: GatewayPresence; link: RedisLink }[] = [];

beforeAll(async () => {
  await requireRedis(url);
  await observer.connect();
});

afterEach(async () => {
  for (const { presence, link } of opened.splice(0)) {
    await presence.close();
    await link.close();
  }
});

afterAll(async () => {
  observer.destroy();
  await deleteKeys(url, keyPrefix);
});

async function gateway(gatewayId: string) {
  const link = await createRedisLink({ url, logger: silentLogger() });
  const presence = await createGatewayPresence({
    link,
    gatewayId,
    logger: silentLogger(),
    keyPrefix,
    ttlMs: TTL,
    refreshMs: TTL / 3,
  });
  opened.push({ presence, link });
  return { presence, link, key: `${keyPrefix}${gatewayId}` };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('gateway presence in Redis', () => {
  it('keeps its key alive while it runs, each refresh with a TTL of at most ttlMs', async () => {
    const { presence, key } = await gateway('gw-a');
    expect(presence.keyOf('gw-a')).toBe(key);
    expect(presence.ttlMs).toBe(TTL);
    const ttl = await observer.pTTL(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(TTL);
    await sleep(3 * TTL);
    expect(await observer.exists(key)).toBe(1);
  });

  it('a clean close deletes the key at once and stops refreshing it', async () => {
    const { presence, key } = await gateway('gw-b');
    await presence.close();
    expect(await observer.exists(key)).toBe(0);
    await sleep(TTL);
    expect(await observer.exists(key)).toBe(0);
    expect(await presence.refresh()).toBe(false);
  });

  it('a crash (connections dropped, no close) lets the key lapse within ttlMs', async () => {
    const { presence, link, key } = await gateway('gw-c');
    link.client.destroy();
    link.subscriber.destroy();
    expect(await presence.refresh()).toBe(false);
    await expect.poll(() => observer.exists(key), { timeout: TTL + 200, interval: 20 }).toBe(0);
    // Closing after the crash neither throws nor waits for Redis.
    await presence.close();
  });

  it('its refresh timer does not keep the process alive', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const link = await createRedisLink({ url, logger: silentLogger() });
    const before = timers();
    const presence = await createGatewayPresence({
      link,
      gatewayId: 'gw-d',
      logger: silentLogger(),
      keyPrefix,
    });
    opened.push({ presence, link });
    expect(timers()).toBe(before);
  });

  it('refuses a refresh interval that is not below the TTL', async () => {
    const link = await createRedisLink({ url, logger: silentLogger() });
    try {
      await expect(
        createGatewayPresence({
          link,
          gatewayId: 'gw-e',
          logger: silentLogger(),
          keyPrefix,
          ttlMs: 1_000,
          refreshMs: 1_000,
        }),
      ).rejects.toThrow(/below its TTL/);
    } finally {
      await link.close();
    }
  });
});
