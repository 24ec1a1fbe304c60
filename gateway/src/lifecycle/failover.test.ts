import { afterEach, describe, expect, it } from 'vitest';
import { capturingLogger } from '../observability/testing/log-capture.ts';
import { createFailover, type Failover, type FailoverOptions } from './failover.ts';

describe('failover between a primary backend and its fallback', () => {
  const open: Failover[] = [];
  afterEach(() => {
    for (const failover of open.splice(0)) failover.close();
  });

  function setUp(overrides: Partial<FailoverOptions> = {}) {
    const capture = capturingLogger();
    const switches: boolean[] = [];
    let primaryUp = true;
    let recoveries = 0;
    const failover = createFailover({
      logger: capture.logger,
      probeIntervalMs: 10,
      recover: () => {
        recoveries += 1;
        return Promise.resolve(primaryUp);
      },
      log: {
        degraded: { fields: { primary: 'remote' }, msg: 'remote store unreachable' },
        recovered: { fields: { primary: 'remote' }, msg: 'remote store reachable again' },
        stillDown: 'remote store still unreachable',
      },
      onSwitch: (usingPrimary) => switches.push(usingPrimary),
      ...overrides,
    });
    open.push(failover);
    const primary = (): Promise<string> =>
      primaryUp ? Promise.resolve('primary') : Promise.reject(new Error('connection refused'));
    const fallback = (): Promise<string> => Promise.resolve('fallback');
    return {
      failover,
      switches,
      primary,
      fallback,
      recoveries: () => recoveries,
      setPrimaryUp: (up: boolean) => {
        primaryUp = up;
      },
      ...capture,
    };
  }

  it('serves calls from the primary while it answers', async () => {
    const t = setUp();
    expect(await t.failover.route(t.primary, t.fallback)).toBe('primary');
    expect(t.failover.usingPrimary).toBe(true);
    expect(t.switches).toEqual([]);
    expect(t.warnings()).toHaveLength(0);
  });

  it('serves the failing call from the fallback, switches once and warns once', async () => {
    const t = setUp({ probeIntervalMs: 60_000 });
    t.setPrimaryUp(false);
    expect(await t.failover.route(t.primary, t.fallback)).toBe('fallback');
    expect(await t.failover.route(t.primary, t.fallback)).toBe('fallback');
    expect(t.failover.usingPrimary).toBe(false);
    expect(t.switches).toEqual([false]);
    expect(t.warnings()).toHaveLength(1);
    expect(t.warnings()[0]).toMatchObject({
      msg: 'remote store unreachable',
      primary: 'remote',
      err: 'connection refused',
    });
  });

  it('lets errors that are not outages reject without switching', async () => {
    const t = setUp({ isOutage: (error) => error instanceof Error && error.message === 'down' });
    const refused = (): Promise<string> => Promise.reject(new Error('bad input'));
    await expect(t.failover.route(refused, t.fallback)).rejects.toThrow('bad input');
    expect(t.failover.usingPrimary).toBe(true);
    expect(t.warnings()).toHaveLength(0);
  });

  it('probes while degraded and switches back, with one info line, once recover says so', async () => {
    const t = setUp();
    t.setPrimaryUp(false);
    await t.failover.route(t.primary, t.fallback);
    await expect.poll(() => t.recoveries(), { timeout: 2_000 }).toBeGreaterThan(1);
    expect(t.failover.usingPrimary).toBe(false);

    t.setPrimaryUp(true);
    await expect.poll(() => t.failover.usingPrimary, { timeout: 2_000 }).toBe(true);
    expect(t.switches).toEqual([false, true]);
    const infos = t.lines.filter((line) => line.level === 30);
    expect(infos).toHaveLength(1);
    expect(infos[0]).toMatchObject({ msg: 'remote store reachable again', primary: 'remote' });
    expect(await t.failover.route(t.primary, t.fallback)).toBe('primary');

    // Probing stopped with the switch back.
    const after = t.recoveries();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(t.recoveries()).toBe(after);
  });

  it('logs a failed recovery at debug and keeps probing', async () => {
    let attempts = 0;
    const t = setUp({
      recover: () => {
        attempts += 1;
        return attempts < 3 ? Promise.reject(new Error('still refused')) : Promise.resolve(true);
      },
      log: {
        degraded: { msg: 'remote store unreachable' },
        recovered: () => ({ fields: { attempts }, msg: 'remote store reachable again' }),
        stillDown: 'remote store still unreachable',
      },
    });
    t.failover.degrade('test');
    await expect.poll(() => t.failover.usingPrimary, { timeout: 2_000 }).toBe(true);
    const debug = t.lines.filter((line) => line.level === 20);
    expect(debug).toHaveLength(2);
    expect(debug[0]).toMatchObject({ msg: 'remote store still unreachable', err: 'still refused' });
    expect(t.lines.find((line) => line.level === 30)).toMatchObject({ attempts: 3 });
  });

  it('runs one recovery at a time', async () => {
    let running = 0;
    let most = 0;
    let release: () => void = () => undefined;
    const t = setUp({
      probeIntervalMs: 5,
      recover: async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        running -= 1;
        return true;
      },
    });
    t.failover.degrade('test');
    await expect.poll(() => running, { timeout: 2_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 40));
    release();
    await expect.poll(() => t.failover.usingPrimary, { timeout: 2_000 }).toBe(true);
    expect(most).toBe(1);
  });

  it('starts degraded when the primary does not answer its first ping in time', async () => {
    const t = setUp({ probeIntervalMs: 60_000 });
    await t.failover.probeAtStart({ ping: () => new Promise<boolean>(() => undefined) }, 20);
    expect(t.failover.usingPrimary).toBe(false);
    expect(t.warnings()[0]).toMatchObject({ err: 'no answer to ping at start' });

    const u = setUp();
    await u.failover.probeAtStart({ ping: () => Promise.resolve(true) });
    expect(u.failover.usingPrimary).toBe(true);
  });

  it('once closed, neither switches nor probes, and routes to the fallback', async () => {
    const t = setUp();
    t.failover.close();
    expect(t.failover.closed).toBe(true);
    t.failover.degrade('after close');
    expect(t.warnings()).toHaveLength(0);
    expect(await t.failover.route(t.primary, t.fallback)).toBe('fallback');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(t.recoveries()).toBe(0);
  });
});
