/** Keys (chats) one channel's buckets keep at most. */
export const MAX_BUCKETS = 10_000;

/**
 * A token bucket per key: `perMinute` tokens, refilled continuously, each message takes one.
 * `take` says whether the message may pass and, when it may not, whether this is the first
 * refusal since the key last passed (so the sender gets exactly one polite notice).
 */
export function createTokenBuckets(options: {
  perMinute: () => number;
  now: () => number;
  /** Keys kept at most (default `MAX_BUCKETS`). */
  maxKeys?: number;
}) {
  const buckets = new Map<string, { tokens: number; at: number; noticed: boolean }>();
  const maxKeys = options.maxKeys ?? MAX_BUCKETS;

  /** Forgets full buckets (they behave exactly like absent ones), bounding the map. */
  function sweep(): void {
    const capacity = options.perMinute();
    const now = options.now();
    for (const [key, bucket] of buckets) {
      if (bucket.tokens + ((now - bucket.at) * capacity) / 60_000 >= capacity) buckets.delete(key);
    }
  }

  return {
    take(key: string): { allowed: true } | { allowed: false; notify: boolean } {
      const capacity = options.perMinute();
      const now = options.now();
      const known = buckets.get(key);
      if (!known && buckets.size >= maxKeys) {
        // Keys come from the far end (chat ids): the least recently used goes. A forgotten
        // bucket starts full again, which a new key would do anyway.
        const oldest = buckets.keys().next();
        if (!oldest.done) buckets.delete(oldest.value);
      }
      const bucket = known ?? { tokens: capacity, at: now, noticed: false };
      bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.at) * capacity) / 60_000);
      bucket.at = now;
      buckets.delete(key);
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
    sweep,
    size: () => buckets.size,
  };
}

export type TokenBuckets = ReturnType<typeof createTokenBuckets>;
