/**
 * Signed message claims on a real Redis: gateways with the cluster secret claim a message once
 * among them; a claim written by something else (to make a message look handled before it
 * arrives) does not stop them.
 */
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteKeys,
  requireRedis,
  testRedisUrl,
} from '../memory/short-term/testing/redis-server.ts';
import { silentLogger } from '../observability/logger.ts';
import { createRedisLink, type RedisLink } from '../redis/link.ts';
import { createRedisMessageClaim, type MessageClaim } from './message-claim.ts';
import { testSeal } from './testing/test-seal.ts';

// The services project needs a real Redis; an unreachable server fails this file loudly.
const url = testRedisUrl(process.env);
const run = `test-${randomBytes(6).toString('hex')}`;
const attacker = createClient({ url });
const links: RedisLink[] = [];

async function gateway(id: string, secret?: string): Promise<MessageClaim> {
  const link = await createRedisLink({ url, logger: silentLogger() });
  links.push(link);
  return createRedisMessageClaim({
    link,
    gatewayId: id,
    logger: silentLogger(),
    seal: testSeal(secret),
  });
}

beforeAll(async () => {
  await requireRedis(url);
  await attacker.connect();
});

afterAll(async () => {
  for (const link of links) await link.close();
  await attacker.close();
  await deleteKeys(url, `hearth:seen:${run}`);
});

describe('signed message claims among gateways', () => {
  it('a message is claimed by exactly one of two gateways, with an expiry', async () => {
    const [a, b] = [await gateway('gw-a'), await gateway('gw-b')];
    const key = `${run}:once`;
    const results = await Promise.all([a(key), b(key), a(key), b(key)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await attacker.pTTL(`hearth:seen:${key}`)).toBeGreaterThan(590_000);
  });

  it('a claim planted by a writer without the secret, or copied from another message, does not count', async () => {
    const a = await gateway('gw-a');
    const planted = `${run}:planted`;
    await attacker.set(`hearth:seen:${planted}`, 'gw-a', { PX: 600_000 });
    expect(await a(planted)).toBe(true);
    expect(await a(planted)).toBe(false);

    const copied = `${run}:copied`;
    const genuine = await attacker.get(`hearth:seen:${planted}`);
    await attacker.set(`hearth:seen:${copied}`, genuine!, { PX: 600_000 });
    expect(await a(copied)).toBe(true);
  });

  it('a claim made with another cluster secret does not count', async () => {
    const key = `${run}:other-secret`;
    const outsider = await gateway('gw-x', 'a-different-cluster-secret-0123456789abcdef');
    expect(await outsider(key)).toBe(true);
    expect(await (await gateway('gw-a'))(key)).toBe(true);
  });
});
