import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import type { ShortTermStore } from '../ports.ts';
import {
  createTestClock,
  makeItem,
  runShortTermConformance,
  type TestClock,
} from './conformance.ts';
import { createInProcessShortTermStore } from './in-process.ts';
import { createRedisLink } from '../../redis/link.ts';
import { createRedisShortTermStore } from './redis.ts';
import { createResilientShortTermStore } from './resilient.ts';
import { breakableStore } from './testing/breakable-store.ts';
import { capturingLogger } from '../../observability/testing/log-capture.ts';

// Nothing listens on port 1: this is "Redis configured but unreachable".
const closedPort = 'redis://127.0.0.1:1';

const unreachableRedis = async (clock: TestClock): Promise<ShortTermStore> =>
  createRedisShortTermStore({
    link: await createRedisLink({ url: closedPort, logger: silentLogger() }),
    logger: silentLogger(),
    now: clock.now,
  });

runShortTermConformance(
  'resilient, Redis unreachable (served in-process)',
  async (clock, limits) =>
    createResilientShortTermStore({
      primary: await unreachableRedis(clock),
      fallback: createInProcessShortTermStore({ now: clock.now, ...limits }),
      logger: silentLogger(),
    }),
  { kind: 'in-process' },
);

runShortTermConformance(
  'resilient, primary working',
  (clock, limits) =>
    createResilientShortTermStore({
      primary: breakableStore(createInProcessShortTermStore({ now: clock.now, ...limits })).store,
      fallback: createInProcessShortTermStore({ now: clock.now, ...limits }),
      logger: silentLogger(),
    }),
  { kind: 'redis' },
);

describe('resilient short-term store', () => {
  const open: ShortTermStore[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((store) => store.close()));
  });

  async function setUp(probeIntervalMs = 20) {
    const clock = createTestClock();
    const inner = createInProcessShortTermStore({ now: clock.now });
    const primary = breakableStore(inner);
    const fallback = createInProcessShortTermStore({ now: clock.now });
    const capture = capturingLogger();
    const changes: string[] = [];
    const store = await createResilientShortTermStore({
      primary: primary.store,
      fallback,
      logger: capture.logger,
      onChange: (kind) => changes.push(kind),
      probeIntervalMs,
    });
    open.push(store);
    return { clock, inner, primary, fallback, store, changes, ...capture };
  }

  it('starts on the in-process store, with one warning, when Redis is down at start', async () => {
    const clock = createTestClock();
    const capture = capturingLogger();
    const store = await createResilientShortTermStore({
      primary: await unreachableRedis(clock),
      fallback: createInProcessShortTermStore({ now: clock.now }),
      logger: capture.logger,
    });
    open.push(store);
    expect(store.kind).toBe('in-process');
    const item = makeItem('s');
    await expect(store.add(item, 60)).resolves.toBeUndefined();
    await expect(store.recent('s', 5)).resolves.toStrictEqual([item]);
    await expect(store.sessions()).resolves.toStrictEqual(new Map([['s', 1]]));
    await expect(store.ping()).resolves.toBe(true);
    expect(capture.warnings()).toHaveLength(1);
    expect(capture.warnings()[0]?.msg).toMatch(/unreachable; using in-process storage/);
  });

  it('starts degraded when the first probe is too slow, and switches once Redis answers', async () => {
    const clock = createTestClock();
    const working = breakableStore(createInProcessShortTermStore({ now: clock.now })).store;
    let answering = false;
    const slowAtFirst: ShortTermStore = {
      ...working,
      ping: () => (answering ? Promise.resolve(true) : new Promise<boolean>(() => undefined)),
    };
    const started = performance.now();
    const store = await createResilientShortTermStore({
      primary: slowAtFirst,
      fallback: createInProcessShortTermStore({ now: clock.now }),
      logger: silentLogger(),
      initialProbeMs: 100,
      probeIntervalMs: 20,
    });
    open.push(store);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(store.kind).toBe('in-process');
    answering = true;
    await expect.poll(() => store.kind, { timeout: 2_000 }).toBe('redis');
  });

  it('passes on the primary’s refusal of an oversized item without switching to the fallback', async () => {
    const t = await setUp(60_000);
    const huge = makeItem('s', { content: 'x'.repeat(65_537) });
    await expect(t.store.add(huge, 60)).rejects.toThrow(/short_term_max_item_bytes/);
    expect(t.store.kind).toBe('redis');
    expect(t.changes).toStrictEqual([]);
    expect(t.warnings()).toStrictEqual([]);
    await expect(t.fallback.recent('s', 5)).resolves.toStrictEqual([]);
  });

  it('switches on the first failure, serves that very call in-process, and warns once', async () => {
    const t = await setUp(60_000);
    await t.store.add(makeItem('s', { content: 'before' }), 60);
    t.primary.setDown(true);
    const during = makeItem('s', { content: 'during' });
    await expect(t.store.add(during, 60)).resolves.toBeUndefined();
    expect(t.store.kind).toBe('in-process');
    await expect(t.store.recent('s', 5)).resolves.toStrictEqual([during]);
    await t.store.add(makeItem('s'), 60);
    await t.store.sessions();
    expect(t.changes).toStrictEqual(['in-process']);
    expect(t.warnings()).toHaveLength(1);
  });

  it('does not call the primary again until a probe finds it answering', async () => {
    const t = await setUp(60_000);
    t.primary.setDown(true);
    await t.store.add(makeItem('s'), 60);
    const callsAfterSwitch = t.primary.calls.length;
    for (let i = 0; i < 5; i += 1) await t.store.recent('s', 5);
    expect(t.primary.calls.length).toBe(callsAfterSwitch);
  });

  it('switches back once the primary answers again, and keeps outage items readable', async () => {
    const t = await setUp();
    const before = makeItem('s', { content: 'before', createdAt: 1 });
    await t.store.add(before, 60);
    t.primary.setDown(true);
    const during = makeItem('s', { content: 'during', createdAt: 2 });
    await t.store.add(during, 60);
    t.primary.setDown(false);
    await expect.poll(() => t.store.kind, { timeout: 2_000 }).toBe('redis');
    expect(t.changes).toStrictEqual(['in-process', 'redis']);
    const after = makeItem('s', { content: 'after', createdAt: 3 });
    await t.store.add(after, 60);
    await expect(t.store.recent('s', 10)).resolves.toStrictEqual([after, during, before]);
    await expect(t.store.recent('s', 2)).resolves.toStrictEqual([after, during]);
    await expect(t.store.sessions()).resolves.toStrictEqual(new Map([['s', 3]]));
    // Outage items still expire on their own TTL.
    t.clock.advance(60_000);
    await expect(t.store.recent('s', 10)).resolves.toStrictEqual([]);
    expect(
      t.lines.filter((line) => line.level === 30 && /reachable again/.test(line.msg)),
    ).toHaveLength(1);
  });

  it('replays forgets made during the outage on the primary before switching back', async () => {
    const t = await setUp();
    await t.store.add(makeItem('s', { content: 'my secret plan' }), 60);
    await t.store.add(makeItem('s', { content: 'harmless' }), 60);
    await t.store.add(makeItem('other', { content: 'other session' }), 60);
    t.primary.setDown(true);
    await expect(t.store.removeMatching('s', 'SECRET')).resolves.toBe(0);
    await expect(t.store.clear('other')).resolves.toBe(0);
    t.primary.setDown(false);
    await expect.poll(() => t.store.kind, { timeout: 2_000 }).toBe('redis');
    await expect(
      t.inner.recent('s', 10).then((items) => items.map((i) => i.content)),
    ).resolves.toStrictEqual(['harmless']);
    await expect(t.inner.sessions()).resolves.toStrictEqual(new Map([['s', 1]]));
  });

  it('a clear(null) during the outage supersedes every earlier queued forget', async () => {
    const t = await setUp();
    await t.store.add(makeItem('a'), 60);
    await t.store.add(makeItem('b'), 60);
    t.primary.setDown(true);
    await t.store.removeMatching('a', 'x');
    await t.store.clear(null);
    t.primary.setDown(false);
    const before = t.primary.calls.length;
    await expect.poll(() => t.store.kind, { timeout: 2_000 }).toBe('redis');
    expect(t.primary.calls.slice(before).filter((call) => call !== 'ping')).toStrictEqual([
      'clear',
    ]);
    await expect(t.inner.sessions()).resolves.toStrictEqual(new Map());
  });

  it('applies forgets to outage items that are still in the fallback after switching back', async () => {
    const t = await setUp();
    t.primary.setDown(true);
    await t.store.add(makeItem('s', { content: 'Secret from the outage' }), 60);
    t.primary.setDown(false);
    await expect.poll(() => t.store.kind, { timeout: 2_000 }).toBe('redis');
    await expect(t.store.removeMatching('s', 'secret')).resolves.toBe(1);
    await expect(t.store.recent('s', 10)).resolves.toStrictEqual([]);
    await t.store.add(makeItem('s'), 60);
    t.primary.setDown(true);
    await t.store.add(makeItem('t'), 60);
    t.primary.setDown(false);
    await expect.poll(() => t.store.kind, { timeout: 2_000 }).toBe('redis');
    await expect(t.store.clear(null)).resolves.toBe(2);
  });

  it('rejects an invalid TTL as a caller error, without switching stores', async () => {
    const t = await setUp();
    await expect(t.store.add(makeItem('s'), 0)).rejects.toThrow(RangeError);
    expect(t.store.kind).toBe('redis');
    expect(t.changes).toStrictEqual([]);
  });

  it('rejects a malformed origin as a caller error, without switching stores', async () => {
    const t = await setUp();
    const bad = makeItem('s', {
      origin: { trust: 'hearth', sources: [{ kind: 'mcp', name: 'x' }] },
    });
    await expect(t.store.add(bad, 60)).rejects.toThrow(TypeError);
    expect(t.store.kind).toBe('redis');
    expect(t.changes).toStrictEqual([]);
  });

  it('close() stops probing and closes both stores', async () => {
    const t = await setUp(10);
    t.primary.setDown(true);
    await t.store.add(makeItem('s'), 60);
    await t.store.close();
    const calls = t.primary.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(t.primary.calls.length).toBe(calls);
    await expect(t.fallback.ping()).resolves.toBe(false);
    await expect(t.store.recent('s', 1)).rejects.toThrow(/closed/);
  });
});
