import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestClock, makeItem, runShortTermConformance } from './conformance.ts';
import { createInProcessShortTermStore } from './in-process.ts';

runShortTermConformance(
  'in-process',
  (clock, limits) => Promise.resolve(createInProcessShortTermStore({ now: clock.now, ...limits })),
  { kind: 'in-process' },
);

describe('in-process short-term specifics', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('sweeps expired items out of sessions nobody reads, and close() stops the sweep', async () => {
    const clock = createTestClock();
    const store = createInProcessShortTermStore({ now: clock.now, sweepIntervalMs: 1_000 });
    await store.add(makeItem('idle'), 5);
    expect(vi.getTimerCount()).toBe(1);
    clock.advance(5_000);
    vi.advanceTimersByTime(1_000);
    // The sweep dropped the session; sessions() would purge too, so look at the count only.
    await expect(store.sessions()).resolves.toStrictEqual(new Map());
    await store.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not keep the process alive (the sweep timer is unref’d)', async () => {
    vi.useRealTimers();
    const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
    const store = createInProcessShortTermStore({ now: Date.now });
    const timer = setIntervalSpy.mock.results[0]?.value as NodeJS.Timeout;
    setIntervalSpy.mockRestore();
    expect(timer.hasRef()).toBe(false);
    await store.close();
  });

  it('evicts the least recently written session beyond maxSessions', async () => {
    const clock = createTestClock();
    const store = createInProcessShortTermStore({ now: clock.now, maxSessions: 3 });
    for (const session of ['a', 'b', 'c']) await store.add(makeItem(session), 60);
    await store.add(makeItem('a'), 60);
    await store.add(makeItem('d'), 60);
    const sessions = await store.sessions();
    expect([...sessions.keys()].sort()).toStrictEqual(['a', 'c', 'd']);
    await store.close();
  });

  it('honours a smaller per-session cap', async () => {
    const clock = createTestClock();
    const store = createInProcessShortTermStore({ now: clock.now, maxItemsPerSession: 2 });
    const items = [makeItem('s'), makeItem('s'), makeItem('s')];
    for (const item of items) await store.add(item, 60);
    await expect(store.recent('s', 10)).resolves.toStrictEqual([items[2], items[1]]);
    await store.close();
  });

  it('rejects calls once closed', async () => {
    const store = createInProcessShortTermStore({ now: Date.now });
    await store.close();
    await expect(store.recent('s', 1)).rejects.toThrow(/closed/);
    await expect(store.add(makeItem('s'), 1)).rejects.toThrow(/closed/);
  });
});
