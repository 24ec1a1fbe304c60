import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createProcessSampler, type ProcessSampler } from './process-sampler.ts';

/** Keeps the event loop busy for `ms` inside a timer callback (a stall the monitor sees). */
async function stall(ms: number): Promise<void> {
  await new Promise<void>((resolve) =>
    setTimeout(() => {
      const end = performance.now() + ms;
      while (performance.now() < end) {
        // busy: nothing else runs on the loop meanwhile
      }
      resolve();
    }, 0),
  );
}

describe('process sampler', () => {
  let sampler: ProcessSampler | undefined;
  afterEach(() => sampler?.stop());

  it('reports nothing before start and after stop', async () => {
    sampler = createProcessSampler({ windowMs: 50 });
    expect(sampler.loopDelay()).toBeNull();
    sampler.start();
    await sleep(120);
    expect(sampler.loopDelay()).not.toBeNull();
    sampler.stop();
    expect(sampler.loopDelay()).toBeNull();
  });

  it('reports a stall in the window it happened in, then lets it go once a quiet window ends', async () => {
    sampler = createProcessSampler({ windowMs: 400 });
    sampler.start();
    await sleep(20);
    await stall(250);
    await sleep(20);
    // No window has ended yet: the current one is reported, stall and all.
    const during = sampler.loopDelay();
    expect(during?.max).toBeGreaterThanOrEqual(0.2);
    expect(during?.p99).toBeGreaterThanOrEqual(0.2);
    // The stalled window ends, then a quiet one: the gauges read the last full window.
    await sleep(1_000);
    const after = sampler.loopDelay();
    expect(after?.max).toBeLessThan(0.2);
    // The timer's own 10 ms period is not counted as delay.
    expect(after?.p50).toBeLessThan(0.01);
  });

  it('counts open descriptors without the listing’s own, and null where there is no listing', async () => {
    sampler = createProcessSampler({ listFds: () => Promise.resolve(['0', '1', '2', '3']) });
    expect(await sampler.openFds()).toBe(3);
    const without = createProcessSampler({
      listFds: () => Promise.reject(new Error('ENOENT: no /proc')),
    });
    expect(await without.openFds()).toBeNull();
  });

  it('reads the memory figures, and null when they cannot be read', () => {
    sampler = createProcessSampler();
    expect(sampler.memory()?.heapUsed).toBeGreaterThan(0);
    const failing = createProcessSampler({
      memoryUsage: () => {
        throw new Error('EMFILE');
      },
    });
    expect(failing.memory()).toBeNull();
  });

  it('reads the watched workers’ heaps until they are unwatched, leaving out those not running', async () => {
    sampler = createProcessSampler();
    const unwatch = sampler.watchWorker('parser', () => Promise.resolve({ used: 5, total: 8 }));
    sampler.watchWorker('idle', () => Promise.resolve(null));
    sampler.watchWorker('broken', () => Promise.reject(new Error('terminated')));
    expect(Object.fromEntries(await sampler.workerHeaps())).toEqual({
      parser: { used: 5, total: 8 },
    });
    unwatch();
    expect((await sampler.workerHeaps()).size).toBe(0);
  });

  it('counts active resources by type', () => {
    sampler = createProcessSampler({
      activeResources: () => ['TCPSocketWrap', 'Timeout', 'TCPSocketWrap', 'ProcessWrap'],
    });
    expect(Object.fromEntries(sampler.activeResources())).toEqual({
      TCPSocketWrap: 2,
      Timeout: 1,
      ProcessWrap: 1,
    });
  });
});
