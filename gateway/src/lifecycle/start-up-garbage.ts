/**
 * One memory-reducing garbage collection once the gateway is ready. Loading and starting it
 * leaves garbage behind and V8 keeps the pages it freed in a pool, resident, along with a young
 * generation at its start-up size; nothing in an idle gateway allocates enough to make V8
 * collect again, so that memory stays. The collection V8 makes when memory runs short
 * (`last-resort`: compacting, several rounds, freed pages given back) takes ~50 ms here, once,
 * 1 s after /ready: idle RSS 94 → 88 MB (`npm run bench:start`, default config).
 *
 * V8 offers it to scripts only as the `gc` function of its `--expose-gc` flag, which puts a
 * `gc` global in every context made while the flag is on: the flag is on for one new, empty
 * context only, whose `gc` is taken, then off again (the gateway's own globals never see it,
 * and V8's flags are as before for the code it compiles and caches afterwards).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How long after /ready the collection runs. */
export const START_UP_GARBAGE_DELAY_MS = 1_000;

type GcOptions = { type: 'major'; execution: 'sync'; flavor: 'last-resort' };

/** Runs the collection now; returns what it took and freed, for the log. */
export function collectStartUpGarbage(): { ms: number; heapFreedBytes: number } {
  setFlagsFromString('--expose-gc');
  let gc: (options: GcOptions) => void;
  try {
    gc = runInNewContext('gc') as typeof gc;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  const before = process.memoryUsage().heapUsed;
  const started = performance.now();
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return {
    ms: performance.now() - started,
    heapFreedBytes: before - process.memoryUsage().heapUsed,
  };
}

/** Schedules the collection START_UP_GARBAGE_DELAY_MS from now; it does not keep the process up. */
export function collectStartUpGarbageSoon(
  done: (result: ReturnType<typeof collectStartUpGarbage>) => void,
): void {
  setTimeout(() => done(collectStartUpGarbage()), START_UP_GARBAGE_DELAY_MS).unref();
}
