import { describe, expect, it } from 'vitest';
import { unavailable } from '../errors.ts';
import { freePort } from '../memory/short-term/testing/redis-server.ts';
import { silentLogger } from '../observability/logger.ts';
import { createRedisPool } from '../redis/pool.ts';
import { startTestGateway } from '../testing/gateway/test-gateway.ts';
import { CONFORMANCE_LIMITS, runCanvasStoreConformance, textBlock, until } from './conformance.ts';
import { createInProcessCanvasStore } from './in-process.ts';
import { openCanvasStore } from './open-store.ts';
import type { CanvasEvent, CanvasStore } from './ports.ts';
import { createResilientCanvasStore, journalWith, type OutageOp } from './resilient.ts';
import { TEST_CLUSTER_SECRET, testSeal } from '../scale-out/testing/test-seal.ts';

/** A Redis canvas stand-in that can be taken down: every call then fails as Redis' would. */
function switchablePrimary() {
  const inner = createInProcessCanvasStore(CONFORMANCE_LIMITS);
  let down = false;
  const guard =
    <A extends unknown[], T>(call: (...args: A) => Promise<T>) =>
    (...args: A): Promise<T> =>
      down ? Promise.reject(unavailable('The canvas store (Redis) is unreachable')) : call(...args);
  const store: CanvasStore = {
    get kind() {
      return down ? 'redis (unreachable)' : 'redis';
    },
    blocks: guard(() => inner.blocks()),
    bytes: guard(() => inner.bytes()),
    add: guard((block) => inner.add(block)),
    clear: guard(() => inner.clear()),
    subscribe: (listener) => inner.subscribe(listener),
    close: () => inner.close(),
  };
  return {
    store,
    /** What a peer gateway does to the shared canvas. */
    inner,
    ready: () => !down,
    setDown(value: boolean) {
      down = value;
    },
  };
}

const unusedRedisUrl = async () => `redis://127.0.0.1:${await freePort()}`;

runCanvasStoreConformance('resilient, Redis answering', () =>
  createResilientCanvasStore({
    primary: createInProcessCanvasStore(CONFORMANCE_LIMITS),
    ready: () => true,
    limits: CONFORMANCE_LIMITS,
    logger: silentLogger(),
  }),
);

runCanvasStoreConformance('resilient, Redis unreachable (nothing listens on its port)', async () =>
  openCanvasStore({
    cacheUrl: await unusedRedisUrl(),
    redis: createRedisPool({ logger: silentLogger() }),
    seal: testSeal(),
    limits: CONFORMANCE_LIMITS,
    logger: silentLogger(),
  }),
);

describe('the canvas while Redis is unreachable', () => {
  it('starts on the in-process copy when nothing listens at cache_url, and says so', async () => {
    const store = await openCanvasStore({
      cacheUrl: await unusedRedisUrl(),
      redis: createRedisPool({ logger: silentLogger() }),
      seal: testSeal(),
      limits: CONFORMANCE_LIMITS,
      logger: silentLogger(),
    });
    try {
      expect(store.kind).toBe('in-process (redis unreachable)');
      const block = textBlock('during the outage');
      await store.add(block);
      expect(await store.blocks()).toEqual([block]);
    } finally {
      await store.close();
    }
  });

  it('keeps what viewers saw, serves renders in process, then replays them onto Redis', async () => {
    const primary = switchablePrimary();
    const store = await createResilientCanvasStore({
      primary: primary.store,
      ready: primary.ready,
      limits: CONFORMANCE_LIMITS,
      logger: silentLogger(),
      probeIntervalMs: 20,
    });
    const events: CanvasEvent[] = [];
    store.subscribe((event) => events.push(event));
    try {
      const before = textBlock('before');
      await store.add(before);
      await until(() => events.length === 1);
      expect(store.kind).toBe('redis');

      primary.setDown(true);
      const during = [textBlock('during 1'), textBlock('during 2')];
      for (const block of during) await store.add(block);
      expect(store.kind).toBe('in-process (redis unreachable)');
      expect(await store.blocks()).toEqual([before, ...during]);
      // A peer renders on Redis meanwhile (it sees Redis; this gateway does not).
      const peers = textBlock('from a peer');
      await primary.inner.add(peers);

      primary.setDown(false);
      await until(() => store.kind === 'redis');
      // Redis is the truth again, with this gateway's outage renders appended.
      expect(await primary.inner.blocks()).toEqual([before, peers, ...during]);
      expect(await store.blocks()).toEqual([before, peers, ...during]);
      // Viewers saw each block once, then a resync to the shared order.
      expect(events).toEqual([
        { type: 'add', block: before },
        ...during.map((block) => ({ type: 'add', block })),
        { type: 'add', block: peers },
        { type: 'clear' },
        ...[before, peers, ...during].map((block) => ({ type: 'add', block })),
      ]);
    } finally {
      await store.close();
    }
  });

  it('replays a clear made during the outage, then only the blocks added after it', async () => {
    const primary = switchablePrimary();
    const store = await createResilientCanvasStore({
      primary: primary.store,
      ready: primary.ready,
      limits: CONFORMANCE_LIMITS,
      logger: silentLogger(),
      probeIntervalMs: 20,
    });
    try {
      await store.add(textBlock('old'));
      primary.setDown(true);
      await store.add(textBlock('cleared away'));
      await store.clear();
      const kept = textBlock('kept');
      await store.add(kept);
      primary.setDown(false);
      await until(() => store.kind === 'redis');
      expect(await primary.inner.blocks()).toEqual([kept]);
      expect(await store.blocks()).toEqual([kept]);
    } finally {
      await store.close();
    }
  });

  it('drops an outage block the shared caps refuse (peers filled the canvas), keeping the rest', async () => {
    const primary = switchablePrimary();
    const store = await createResilientCanvasStore({
      primary: primary.store,
      ready: primary.ready,
      limits: CONFORMANCE_LIMITS,
      logger: silentLogger(),
      probeIntervalMs: 20,
    });
    try {
      primary.setDown(true);
      await store.add(textBlock('mine'));
      for (let i = 0; i < CONFORMANCE_LIMITS.maxBlocks; i += 1)
        await primary.inner.add(textBlock(`peer ${i}`));
      primary.setDown(false);
      await until(() => store.kind === 'redis');
      const shared = await primary.inner.blocks();
      expect(shared).toHaveLength(CONFORMANCE_LIMITS.maxBlocks);
      expect(shared.map((b) => b.content)).not.toContain('mine');
      expect(await store.blocks()).toEqual(shared);
    } finally {
      await store.close();
    }
  });

  it('still refuses a block past the caps with 413 while degraded, not a 503', async () => {
    const primary = switchablePrimary();
    primary.setDown(true);
    const store = await createResilientCanvasStore({
      primary: primary.store,
      ready: primary.ready,
      limits: CONFORMANCE_LIMITS,
      logger: silentLogger(),
    });
    try {
      await store.add(textBlock('x'.repeat(1_500)));
      await expect(store.add(textBlock('y'.repeat(1_500)))).rejects.toMatchObject({
        code: 'payload_too_large',
      });
    } finally {
      await store.close();
    }
  });
});

describe('a gateway whose cache_url has nothing listening', () => {
  it('renders the canvas in process and shows the fallback in /status', async () => {
    // With the cluster secret: without one the canvas is not shared at all (open-store.ts).
    const gw = await startTestGateway({
      config: {
        gateway: { cluster_secret: TEST_CLUSTER_SECRET },
        memory: { cache_url: await unusedRedisUrl() },
      },
    });
    try {
      await gw.gateway.whenReady();
      const rendered = await fetch(`${gw.url}/api/v1/canvas/render`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'markdown', content: '# still here' }),
      });
      expect(rendered.status).toBe(201);
      const state = (await (await fetch(`${gw.url}/api/v1/canvas/state`)).json()) as {
        count: number;
      };
      expect(state.count).toBe(1);
      const status = (await (await fetch(`${gw.url}/api/v1/status`)).json()) as {
        backends: Record<string, string>;
      };
      expect(status.backends.canvas).toBe('in-process (redis unreachable)');
      const canvasStatus = (await (await fetch(`${gw.url}/api/v1/canvas/status`)).json()) as {
        backend: string;
      };
      expect(canvasStatus.backend).toBe('in-process (redis unreachable)');
    } finally {
      await gw.close();
    }
  }, 60_000);
});

describe('the outage journal', () => {
  it('holds at most a clear and the blocks added after it, however many cycles an outage sees', () => {
    let journal: OutageOp[] = [];
    for (let cycle = 0; cycle < 1_000; cycle += 1) {
      for (let i = 0; i < 3; i += 1) {
        journal = journalWith(journal, { type: 'add', block: textBlock(`c${cycle}-${i}`) });
      }
      journal = journalWith(journal, { type: 'clear' });
    }
    journal = journalWith(journal, { type: 'add', block: textBlock('last') });
    expect(journal.map((op) => op.type)).toStrictEqual(['clear', 'add']);
  });
});
