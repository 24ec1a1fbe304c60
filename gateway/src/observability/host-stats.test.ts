import { describe, expect, it } from 'vitest';
import { createHostStats } from './host-stats.ts';

describe('host figures', () => {
  it('reports CPU as process time over wall time since the previous read', async () => {
    let now = 0;
    let cpu = { user: 0, system: 0 };
    const stats = createHostStats('/', { now: () => now, cpuUsage: () => cpu });
    expect((await stats.read()).cpu_percent).toBe(0);
    now = 1000; // one second later, a quarter of a second of CPU used
    cpu = { user: 200_000, system: 50_000 };
    expect((await stats.read()).cpu_percent).toBe(25);
  });

  it('gives null, never 0, for any figure whose read fails', async () => {
    const stats = createHostStats('/nowhere', {
      rss: () => {
        throw new Error('no /proc');
      },
      cpuUsage: () => {
        throw new Error('denied');
      },
      statfs: () => Promise.reject(new Error('ENOENT')),
    });
    expect(await stats.read()).toEqual({
      cpu_percent: null,
      memory_rss_bytes: null,
      disk_usage_percent: null,
      disk_free_bytes: null,
    });
  });

  it('computes disk usage like df from the filesystem of the state directory', async () => {
    const stats = createHostStats('/', {
      statfs: () => Promise.resolve({ blocks: 1000, bfree: 300, bavail: 200, bsize: 4096 }),
    });
    const figures = await stats.read();
    expect(figures.disk_free_bytes).toBe(200 * 4096);
    expect(figures.disk_usage_percent).toBe(77.8); // 700 used / (700 + 200)
  });
});
