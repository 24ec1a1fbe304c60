/**
 * Runs a local program (espeak-ng, arecord, aplay…) without a shell: arguments are passed as
 * an array, text goes in on stdin, output is capped, and a timeout or abort kills it.
 */
import { spawn } from 'node:child_process';

export interface CommandResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

export interface RunOptions {
  input?: string | Buffer;
  timeoutMs?: number;
  /** Largest stdout kept; more fails the run. */
  maxOutputBytes?: number;
  signal?: AbortSignal;
  env?: Record<string, string>;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_OUTPUT = 64 * 1024 * 1024;

export function runCommand(
  command: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const maxOutput = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
    const child = spawn(command, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      signal: options.signal,
      timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      env: options.env ?? { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8' },
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > maxOutput) {
        child.kill('SIGKILL');
        return;
      }
      out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 4096) err += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.stdin.on('error', () => undefined);
    child.on('close', (code, signal) => {
      if (outBytes > maxOutput)
        return reject(new Error(`${command} wrote more than ${maxOutput} bytes`));
      if (signal && code === null)
        return reject(new Error(`${command} was stopped (${signal}) ${err.trim()}`.trim()));
      resolve({ code, stdout: Buffer.concat(out), stderr: err });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Whether a program runs at all (`<command> <args>` exits 0). */
export async function commandWorks(command: string, args: readonly string[]): Promise<boolean> {
  try {
    return (await runCommand(command, args, { timeoutMs: 5_000 })).code === 0;
  } catch {
    return false;
  }
}
