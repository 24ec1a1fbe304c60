import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A child process spoken to in raw newline-delimited JSON-RPC (no SDK in between). */
export interface RawStdio {
  child: ChildProcessWithoutNullStreams;
  /** Writes one line (a newline is added). */
  write(line: string): void;
  /** The next message the child writes, parsed (fails after `timeoutMs`). */
  next(timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Messages received and not yet taken. */
  queued(): number;
  close(): Promise<void>;
}

export function rawStdio(command: string, args: string[], env: Record<string, string>): RawStdio {
  const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let closing = false;
  child.stderr.resume();
  // Writes after the child ended (a test closing it) are not the test's failure.
  child.stdin.on('error', () => undefined);
  const queue: Record<string, unknown>[] = [];
  const waiters: ((message: Record<string, unknown>) => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    // The last line of a child the test killed mid-write is cut short: not the child's fault.
    if (closing && !isJson(line)) return;
    const message = JSON.parse(line) as Record<string, unknown>;
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else queue.push(message);
  });
  return {
    child,
    write: (line) => void child.stdin.write(`${line}\n`),
    next(timeoutMs = 60_000) {
      const queuedMessage = queue.shift();
      if (queuedMessage) return Promise.resolve(queuedMessage);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no message from the child')), timeoutMs);
        waiters.push((message) => {
          clearTimeout(timer);
          resolve(message);
        });
      });
    },
    queued: () => queue.length,
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        closing = true;
        child.once('close', () => resolve());
        // A test that paused stdout (a client that stops reading) left output unread: read it
        // away, or the stream never ends and 'close' never comes.
        child.stdout.resume();
        child.kill('SIGTERM');
      }),
  };
}

function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}
