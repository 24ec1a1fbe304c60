import type BetterSqlite3 from 'better-sqlite3';

/**
 * Writes the chat makes after every turn (its history rows, its usage row), run after the
 * current tick: all those queued by then in one transaction, so a turn's writes, and those of
 * concurrent turns, share one commit (each commit writes the log's frames and header again;
 * one per write was ~0.3 ms of CPU per chat turn).
 */
export interface DeferredWrites {
  /** Runs `write` after the current tick, with the others queued by then; its result. */
  defer<T>(write: () => T): Promise<T>;
  /** Writes everything queued now: before a read that must see it, and before closing. */
  flush(): void;
}

interface Job {
  write: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export function deferredWrites(client: BetterSqlite3.Database): DeferredWrites {
  const pending: Job[] = [];
  let scheduled = false;

  /** Writes every waiting job: one transaction, or each on its own when that one fails. */
  function flush(): void {
    scheduled = false;
    if (pending.length === 0) return;
    const batch = pending.splice(0);
    let results: unknown[];
    try {
      results = client.transaction(() => batch.map((job) => job.write()))();
    } catch {
      // One bad write must not take the others with it: each is tried alone.
      for (const job of batch) {
        try {
          job.resolve(client.transaction(job.write)());
        } catch (error) {
          job.reject(error);
        }
      }
      return;
    }
    batch.forEach((job, i) => job.resolve(results[i]));
  }

  return {
    defer: <T>(write: () => T) =>
      new Promise<T>((resolve, reject) => {
        pending.push({ write, resolve: resolve as (value: unknown) => void, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      }),
    flush,
  };
}
