import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  redisServerProcess,
  type RedisServerProcess,
} from '../memory/short-term/testing/redis-server.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import { canvasViewer } from './testing/viewer.ts';
import { TEST_CLUSTER_SECRET } from '../scale-out/testing/test-seal.ts';

const hasRedisServer = (() => {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

type Block = { id: string; content: unknown };

// Two gateways on a redis-server of this test's own (the machine's Redis is never touched),
// which the test kills and starts again.
describe.skipIf(!hasRedisServer)(
  'canvas over a Redis that dies and comes back (skipped without the redis-server binary)',
  { timeout: 90_000 },
  () => {
    let redis: RedisServerProcess;
    let a: TestGateway;
    let b: TestGateway;
    beforeAll(async () => {
      redis = await redisServerProcess();
      await redis.start();
      a = await startTestGateway({
        config: {
          gateway: { cluster_secret: TEST_CLUSTER_SECRET },
          memory: { cache_url: redis.url },
        },
      });
      b = await startTestGateway({
        config: {
          gateway: { cluster_secret: TEST_CLUSTER_SECRET },
          memory: { cache_url: redis.url },
        },
      });
      await Promise.all([a.gateway.whenReady(), b.gateway.whenReady()]);
    }, 60_000);
    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
      await redis?.kill();
    });

    const render = async (gw: TestGateway, content: string) => {
      const response = await fetch(`${gw.url}/api/v1/canvas/render`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'markdown', content }),
      });
      return { status: response.status, body: (await response.json()) as Block };
    };
    const contents = async (gw: TestGateway) =>
      (
        (await (await fetch(`${gw.url}/api/v1/canvas/state`)).json()) as { blocks: Block[] }
      ).blocks.map((block) => block.content);
    const backend = async (gw: TestGateway) =>
      (
        (await (await fetch(`${gw.url}/api/v1/status`)).json()) as {
          backends: Record<string, string>;
        }
      ).backends.canvas;

    it('serves renders in process while Redis is down, shows it in /status, and replays them to Redis when it is back', async () => {
      expect(await backend(a)).toBe('redis');
      expect((await render(a, 'before')).status).toBe(201);
      await expect.poll(() => contents(b)).toEqual(['before']);
      const viewerA = await canvasViewer(`${a.url.replace('http', 'ws')}/ws/canvas`);
      const viewerB = await canvasViewer(`${b.url.replace('http', 'ws')}/ws/canvas`);

      await redis.kill();
      const during = await render(a, 'during the outage');
      expect(during.status).toBe(201);
      expect(await backend(a)).toBe('in-process (redis unreachable)');
      await viewerA.next((f) => f.type === 'add' && (f.block as Block).id === during.body.id);
      expect(await contents(a)).toEqual(['before', 'during the outage']);
      // B made no call: it shows the outage too, and still serves its copy.
      await expect
        .poll(() => backend(b), { timeout: 15_000 })
        .toBe('in-process (redis unreachable)');
      expect(await contents(b)).toEqual(['before']);

      // A fresh Redis (this one keeps nothing across a restart): the outage's render is
      // replayed onto it and becomes the shared canvas; 'before' went with the old Redis.
      await redis.start();
      await expect.poll(() => backend(a), { timeout: 30_000, interval: 250 }).toBe('redis');
      await expect.poll(() => backend(b), { timeout: 30_000, interval: 250 }).toBe('redis');
      await expect.poll(() => contents(a), { timeout: 15_000 }).toEqual(['during the outage']);
      await expect.poll(() => contents(b), { timeout: 15_000 }).toEqual(['during the outage']);
      // B's viewer is told: a clear, then the shared canvas.
      await viewerB.next((f) => f.type === 'clear', 30_000);
      await viewerB.next((f) => f.type === 'add' && (f.block as Block).id === during.body.id);
      // Shared again: a render on B reaches A's viewer.
      const after = await render(b, 'after');
      expect(after.status).toBe(201);
      await viewerA.next((f) => f.type === 'add' && (f.block as Block).id === after.body.id);
      expect(await contents(a)).toEqual(['during the outage', 'after']);
      viewerA.socket.close();
      viewerB.socket.close();
    });
  },
);
