import { Worker } from 'node:worker_threads';
import type { CommandAnalysis } from '../ports.ts';

export interface CommandAnalyser {
  /** The analysis of one command line; never rejects (a failure is an opaque analysis). */
  analyse(command: string): Promise<CommandAnalysis>;
  /** The worker's V8 heap in bytes; null while no worker runs. */
  heap(): Promise<{ used: number; total: number } | null>;
  close(): Promise<void>;
}

export interface CommandAnalyserOptions {
  /** How long one analysis may take before the line is judged opaque (it then prompts). */
  timeoutMs?: number;
  /** The worker's old generation, MB (young generation: `DEFAULT_YOUNG_MB`). Default 48. */
  heapLimitMb?: number;
  /** Told when the worker fails (ran out of memory, crashed): the reason its lines got. */
  onFailure?: (reason: string) => void;
}

/**
 * Memory of the analysis worker. The parser (a GopherJS build) makes much short-lived garbage,
 * and an unbounded worker lets its heap grow to V8's default (~170 MB reserved, ~250 MB of RSS
 * after a few thousand lines, measured with `npm run bench:soak`); bounded, it collects sooner
 * and holds ~30 MB at the same speed. The longest line analysed (MAX_LINE_LENGTH) needs far less.
 */
export const DEFAULT_HEAP_LIMIT_MB = 48;
export const DEFAULT_YOUNG_MB = 8;

const opaque = (reason: string): CommandAnalysis => ({ commands: [], opaque: reason });

/**
 * Command lines are analysed on a worker thread, never on the event loop: the shell parser
 * (mvdan-sh, a GopherJS build) costs ~0.2 ms per word, so a long line the model writes would
 * otherwise hold every route and socket for seconds. One worker, started on first use and
 * restarted after a timeout or a crash; requests are answered in order by id. A line that takes
 * longer than `timeoutMs` is opaque, so it is never allowlisted and always prompts; so is
 * every line waiting on a worker that runs out of its memory (`heapLimitMb`) or crashes.
 */
export function createCommandAnalyser(options: CommandAnalyserOptions = {}): CommandAnalyser {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const heapLimitMb = options.heapLimitMb ?? DEFAULT_HEAP_LIMIT_MB;
  const waiting = new Map<number, (analysis: CommandAnalysis) => void>();
  let nextId = 0;
  let worker: Worker | undefined;

  function settleAll(reason: string): void {
    for (const resolve of waiting.values()) resolve(opaque(reason));
    waiting.clear();
  }

  function start(): Worker {
    const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
    const thread = new Worker(new URL(`./analysis-thread.${extension}`, import.meta.url), {
      resourceLimits: {
        maxOldGenerationSizeMb: heapLimitMb,
        maxYoungGenerationSizeMb: Math.min(DEFAULT_YOUNG_MB, heapLimitMb),
      },
    });
    thread.unref();
    thread.on('message', (message: { id: number; analysis: CommandAnalysis }) => {
      const resolve = waiting.get(message.id);
      waiting.delete(message.id);
      resolve?.(message.analysis);
    });
    thread.on('error', (error: Error & { code?: string }) => {
      if (worker === thread) worker = undefined;
      const reason =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `command analysis ran out of memory (limit ${heapLimitMb} MB)`
          : 'command analysis failed';
      options.onFailure?.(reason);
      settleAll(reason);
    });
    thread.on('exit', () => {
      if (worker === thread) worker = undefined;
      settleAll('command analysis stopped');
    });
    return thread;
  }

  return {
    analyse(command) {
      worker ??= start();
      const thread = worker;
      const id = nextId++;
      return new Promise<CommandAnalysis>((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          resolve(opaque('command analysis took too long'));
          // The worker is stuck on this line: replace it (the others in its queue become opaque).
          if (worker === thread) worker = undefined;
          void thread.terminate();
        }, timeoutMs);
        timer.unref();
        waiting.set(id, (analysis) => {
          clearTimeout(timer);
          resolve(analysis);
        });
        thread.postMessage({ id, command });
      });
    },
    async heap() {
      const thread = worker;
      if (!thread) return null;
      try {
        const stats = await thread.getHeapStatistics();
        return { used: stats.used_heap_size, total: stats.total_heap_size };
      } catch {
        // The worker ended meanwhile.
        return null;
      }
    },
    async close() {
      const thread = worker;
      worker = undefined;
      await thread?.terminate();
      settleAll('gateway shutting down');
    },
  };
}
