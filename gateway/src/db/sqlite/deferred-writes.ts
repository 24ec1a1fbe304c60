import type BetterSqlite3 from 'better-sqlite3';

/**
 * Writes the chat makes after every turn (its history rows, its usage row), run a little after
 * the current tick: all those queued by then in one transaction, so a turn's writes, and those
 * of concurrent turns, share one commit (each commit writes the log's frames and header again,
 * and takes and releases its locks: 6 fcntl and ~4 pwrite calls; one per write was ~0.3 ms of
 * CPU per chat turn).
 *
 * The batch is written in the loop's second check phase after the first write was queued, not
 * its first: a turn queues its usage row when the model answers and its history rows from a
 * setImmediate once the reply is sent (agent/pipeline.ts), so with one check phase they were two
 * commits a turn.
 */
export interface DeferredWrites {
  /** Runs `write` soon after the current tick, with the others queued by then; its result. */
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

  const flushNextCheck = () => setImmediate(flush);

  return {
    defer: <T>(write: () => T) =>
      new Promise<T>((resolve, reject) => {
        pending.push({ write, resolve: resolve as (value: unknown) => void, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flushNextCheck);
        }
      }),
    flush,
  };
}
