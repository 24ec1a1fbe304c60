import { describe, expect, it } from 'vitest';
import { createTokenBuckets, MAX_BUCKETS } from './token-bucket.ts';

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

  it('keeps at most MAX_BUCKETS keys however many chats a far end invents within a minute', () => {
    const now = 0;
    const buckets = createTokenBuckets({ perMinute: () => 1, now: () => now });
    expect(buckets.take('owner')).toEqual({ allowed: true });
    for (let i = 0; i < 3 * MAX_BUCKETS; i += 1) {
      buckets.take(`forged-${i}`);
      // The owner's chat keeps talking: used lately, its (spent) bucket is kept.
      if (i % 1_000 === 0) expect(buckets.take('owner').allowed).toBe(false);
    }
    expect(buckets.size()).toBe(MAX_BUCKETS);
    expect(buckets.take('owner')).toEqual({ allowed: false, notify: false });
  });
});
