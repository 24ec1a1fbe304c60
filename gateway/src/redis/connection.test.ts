import { describe, expect, it } from 'vitest';
import { describeRedisUrl, reconnectDelayMs } from './connection.ts';

describe('redis helpers', () => {
  it('describes a Redis URL without its credentials', () => {
    expect(describeRedisUrl('redis://user:s3cret@cache.local:6380/2')).toBe(
      'redis://cache.local:6380/2',
    );
    expect(describeRedisUrl('redis://:s3cret@127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(describeRedisUrl('not a url')).toBe('(invalid Redis URL)');
  });

  it('backs off exponentially from 100 ms to at most 5 s (plus jitter)', () => {
    expect(reconnectDelayMs(0)).toBeGreaterThanOrEqual(100);
    expect(reconnectDelayMs(0)).toBeLessThan(350);
    expect(reconnectDelayMs(3)).toBeGreaterThanOrEqual(800);
    expect(reconnectDelayMs(50)).toBeGreaterThanOrEqual(5_000);
    expect(reconnectDelayMs(50)).toBeLessThan(5_250);
  });
});
