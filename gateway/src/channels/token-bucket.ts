/**
 * A token bucket per key: `perMinute` tokens, refilled continuously, each message takes one.
 * `take` says whether the message may pass and, when it may not, whether this is the first
 * refusal since the key last passed (so the sender gets exactly one polite notice).
 */
export function createTokenBuckets(options: { perMinute: () => number; now: () => number }) {
  const buckets = new Map<string, { tokens: number; at: number; noticed: boolean }>();
  return {
    take(key: string): { allowed: true } | { allowed: false; notify: boolean } {
      const capacity = options.perMinute();
      const now = options.now();
      const bucket = buckets.get(key) ?? { tokens: capacity, at: now, noticed: false };
      bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.at) * capacity) / 60_000);
      bucket.at = now;
      buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        bucket.noticed = false;
        return { allowed: true };
      }
      const notify = !bucket.noticed;
      bucket.noticed = true;
      return { allowed: false, notify };
    },
    /** Forgets full buckets (they behave exactly like absent ones), bounding the map. */
    sweep(): void {
      const capacity = options.perMinute();
      const now = options.now();
      for (const [key, bucket] of buckets) {
        if (bucket.tokens + ((now - bucket.at) * capacity) / 60_000 >= capacity)
          buckets.delete(key);
      }
    },
    size: () => buckets.size,
  };
}

export type TokenBuckets = ReturnType<typeof createTokenBuckets>;
