import { Worker } from 'node:worker_threads';
import type { CommandAnalysis } from '../ports.ts';

export interface CommandAnalyser {
  /** The analysis of one command line; never rejects (a failure is an opaque analysis). */
  analyse(command: string): Promise<CommandAnalysis>;
  close(): Promise<void>;
}

export interface CommandAnalyserOptions {
  /** How long one analysis may take before the line is judged opaque (it then prompts). */
  timeoutMs?: number;
}

const opaque = (reason: string): CommandAnalysis => ({ commands: [], opaque: reason });

/**
 * Command lines are analysed on a worker thread, never on the event loop: the shell parser
 * (mvdan-sh, a GopherJS build) costs ~0.2 ms per word, so a long line the model writes would
 * otherwise hold every route and socket for seconds. One worker, started on first use and
 * restarted after a timeout or a crash; requests are answered in order by id. A line that takes
 * longer than `timeoutMs` is opaque, so it is never allowlisted and always prompts.
 */
export function createCommandAnalyser(options: CommandAnalyserOptions = {}): CommandAnalyser {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const waiting = new Map<number, (analysis: CommandAnalysis) => void>();
  let nextId = 0;
  let worker: Worker | undefined;

  function settleAll(reason: string): void {
    for (const resolve of waiting.values()) resolve(opaque(reason));
    waiting.clear();
  }

  function start(): Worker {
    const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
    const thread = new Worker(new URL(`./analysis-thread.${extension}`, import.meta.url));
    thread.unref();
    thread.on('message', (message: { id: number; analysis: CommandAnalysis }) => {
      const resolve = waiting.get(message.id);
      waiting.delete(message.id);
      resolve?.(message.analysis);
    });
    thread.on('error', () => {
      if (worker === thread) worker = undefined;
      settleAll('command analysis failed');
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
    async close() {
      const thread = worker;
      worker = undefined;
      await thread?.terminate();
      settleAll('gateway shutting down');
    },
  };
}
