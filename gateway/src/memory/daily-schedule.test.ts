/**
 * The spec's limits table: "Archival — daily 03:00; sessions inactive 30+ days — memory
 * archival". The job is scheduled for the next 03:00 local time, then every day at 03:00.
 */
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../observability/logger.ts';
import { scheduleArchival } from './archival.ts';

describe('the daily memory job', () => {
  it('runs next at 03:00 local time, within a day', () => {
    const schedule = scheduleArchival(() => Promise.resolve(), silentLogger());
    try {
      const next = schedule.nextRun();
      expect(next).toBeInstanceOf(Date);
      expect([next!.getHours(), next!.getMinutes(), next!.getSeconds()]).toEqual([3, 0, 0]);
      const ahead = next!.getTime() - Date.now();
      expect(ahead).toBeGreaterThan(0);
      expect(ahead).toBeLessThanOrEqual(24 * 3_600_000);
    } finally {
      schedule.stop();
    }
  });
});
