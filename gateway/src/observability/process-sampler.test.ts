import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createProcessSampler,
  type ProcessSampler,
  type ProcessSamplerDeps,
} from './process-sampler.ts';

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

  it('reports a stall within a window of it, then lets it go once a quiet window ends', async () => {
    sampler = createProcessSampler({ windowMs: 300 });
    sampler.start();
    await sleep(20);
    await stall(250);
    // The current window is reported until one ends; a stall that spans a window's end is
    // counted in the next one. Either way it shows within a window or two.
    let seen: { p99: number; max: number } | undefined;
    for (let waited = 0; waited < 3_000 && !seen; waited += 25) {
      const figures = sampler.loopDelay();
      if (figures && figures.max >= 0.2) seen = figures;
      else await sleep(25);
    }
    expect(seen?.max).toBeGreaterThanOrEqual(0.2);
    expect(seen?.p99).toBeGreaterThanOrEqual(0.2);
    // Then a quiet window ends and is what the gauges read.
    let quiet = false;
    for (let waited = 0; waited < 5_000 && !quiet; waited += 50) {
      quiet = (sampler.loopDelay()?.max ?? 1) < 0.2;
      if (!quiet) await sleep(50);
    }
    expect(quiet).toBe(true);
  });

  it('does not count the timer’s own period as delay', () => {
    const ms = 1e6;
    const histogram = {
      count: 3,
      enable: () => true,
      disable: () => true,
      reset: () => undefined,
      percentile: (p: number) => (p <= 50 ? 10.4 * ms : 35 * ms),
      max: 260 * ms,
    };
    sampler = createProcessSampler({
      resolutionMs: 10,
      monitor: () => histogram as unknown as ReturnType<ProcessSamplerDeps['monitor']>,
    });
    sampler.start();
    const figures = sampler.loopDelay();
    expect(figures?.p50).toBeCloseTo(0.0004, 6);
    expect(figures?.p99).toBeCloseTo(0.025, 6);
    expect(figures?.max).toBeCloseTo(0.25, 6);
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
