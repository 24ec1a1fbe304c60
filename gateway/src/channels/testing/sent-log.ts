/** What a fake far end recorded, in order, with a cursor a test reads forward from. */
export interface SentLog<T> {
  /** Everything recorded so far (the same array for the fake's whole life). */
  readonly items: T[];
  /** Records one item and wakes whoever waits for it. */
  push: (item: T) => void;
  /** The next `n` items after those already taken with `next` (or skipped). */
  next: (n: number, timeoutMs: number) => Promise<T[]>;
  /** Skips every item recorded so far (a test's leftovers). */
  skip: () => void;
  /** Resolves when at least `count` items were recorded in all. */
  waitFor: (count: number, timeoutMs: number) => Promise<void>;
}

/**
 * A log of what a fake far end was sent. A wait that runs out rejects with
 * "expected N <noun>, got M" (N counted from the start of the log).
 */
export function createSentLog<T>(noun = 'sent messages'): SentLog<T> {
  const items: T[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let cursor = 0;

  function waitFor(count: number, timeoutMs: number): Promise<void> {
    if (items.length >= count) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`expected ${count} ${noun}, got ${items.length}`)),
        timeoutMs,
      );
      waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  return {
    items,
    push(item: T): void {
      items.push(item);
      for (const waiter of [...waiters]) {
        if (items.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    },
    async next(n: number, timeoutMs: number): Promise<T[]> {
      const from = cursor;
      cursor += n;
      await waitFor(from + n, timeoutMs);
      return items.slice(from, from + n);
    },
    skip(): void {
      cursor = items.length;
    },
    waitFor,
  };
}
