import { execFileSync } from 'node:child_process';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  redisServerProcess,
  type RedisServerProcess,
} from '../memory/short-term/testing/redis-server.ts';
import { startTestGateway } from '../testing/gateway/test-gateway.ts';
import { TEST_CLUSTER_SECRET } from '../scale-out/testing/test-seal.ts';

const hasRedisServer = (() => {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

// A redis-server of this test's own, so CLIENT LIST shows this gateway's connections only.
describe.skipIf(!hasRedisServer)(
  'a gateway with cache_url (skipped without the redis-server binary)',
  { timeout: 60_000 },
  () => {
    let redis: RedisServerProcess;
    beforeAll(async () => {
      redis = await redisServerProcess();
      await redis.start();
    });
    afterAll(async () => {
      await redis?.kill();
    });

    it('opens one command and one pub/sub connection for memory, scale-out and canvas together', async () => {
      const observer = createClient({ url: redis.url });
      await observer.connect();
      const gatewayConnections = async () => {
        const own = await observer.clientId();
        const lines = (await observer.clientList()).filter((client) => client.id !== own);
        return lines.map((client) => (client.sub > 0 || client.psub > 0 ? 'pub/sub' : 'commands'));
      };
      try {
        const gw = await startTestGateway({
          config: {
            gateway: { cluster_secret: TEST_CLUSTER_SECRET },
            memory: { cache_url: redis.url },
          },
        });
        try {
          await gw.gateway.whenReady();
          const status = (await (await fetch(`${gw.url}/api/v1/status`)).json()) as {
            backends: Record<string, string>;
          };
          expect(status.backends).toMatchObject({
            short_term: 'redis',
            approvals: 'redis',
            canvas: 'redis',
          });
          expect((await gatewayConnections()).sort()).toEqual(['commands', 'pub/sub']);
        } finally {
          await gw.close();
        }
        await expect.poll(gatewayConnections, { timeout: 5_000 }).toEqual([]);
      } finally {
        observer.destroy();
      }
    });
  },
);

describe.skipIf(!hasRedisServer)(
  'a gateway on a Redis that requires a password (skipped without the redis-server binary)',
  { timeout: 60_000 },
  () => {
    const password = 'the-redis-password-of-this-test';
    let redis: RedisServerProcess;
    beforeAll(async () => {
      redis = await redisServerProcess({ password });
      await redis.start();
    });
    afterAll(async () => {
      await redis?.kill();
    });

    it('sends [memory] cache_password_secret for a cache_url without one', async () => {
      const anonymous = createClient({ url: redis.url, socket: { reconnectStrategy: false } });
      anonymous.on('error', () => undefined);
      await expect(anonymous.connect().then(() => anonymous.ping())).rejects.toThrow(/NOAUTH/);
      if (anonymous.isOpen) anonymous.destroy();
      const gw = await startTestGateway({
        config: {
          gateway: { cluster_secret: TEST_CLUSTER_SECRET },
          memory: { cache_url: redis.url, cache_password_secret: password },
        },
      });
      try {
        await gw.gateway.whenReady();
        const status = (await (await fetch(`${gw.url}/api/v1/status`)).json()) as {
          backends: Record<string, string>;
        };
        expect(status.backends).toMatchObject({
          short_term: 'redis',
          approvals: 'redis',
          events: 'redis',
          scale_out: 'redis (authenticated)',
          redis_password: 'set',
        });
      } finally {
        await gw.close();
      }
    });
  },
);
