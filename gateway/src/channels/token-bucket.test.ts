import { describe, expect, it } from 'vitest';
import { createTokenBuckets } from './token-bucket.ts';

describe('rate_limit_per_minute: a token bucket per chat', () => {
  it('lets rate_limit_per_minute messages through, then refuses with one notice', () => {
    let now = 0;
    const buckets = createTokenBuckets({ perMinute: () => 3, now: () => now });
    expect([1, 2, 3].map(() => buckets.take('chat').allowed)).toEqual([true, true, true]);
    expect(buckets.take('chat')).toEqual({ allowed: false, notify: true });
    expect(buckets.take('chat')).toEqual({ allowed: false, notify: false });
    expect(buckets.take('other')).toEqual({ allowed: true });
    now = 20_000; // one token back after a third of a minute
    expect(buckets.take('chat')).toEqual({ allowed: true });
    expect(buckets.take('chat')).toEqual({ allowed: false, notify: true });
  });

  it('forgets buckets that refilled, so the map stays bounded', () => {
    let now = 0;
    const buckets = createTokenBuckets({ perMinute: () => 2, now: () => now });
    for (let i = 0; i < 100; i += 1) buckets.take(`chat-${i}`);
    expect(buckets.size()).toBe(100);
    now = 60_000;
    buckets.sweep();
    expect(buckets.size()).toBe(0);
  });
});
