import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface CappedStdioOptions {
  command: string;
  args: readonly string[];
  /** Added to the basic variables the SDK's transport passes (HOME, PATH, …). */
  env: Record<string, string>;
  /** The longest line (one message) the server may send, in bytes. */
  maxLineBytes: number;
  /** Told once when a line grows past `maxLineBytes`; the server is then stopped. */
  onOverLimit: (detail: string) => void;
}

const NEWLINE = 0x0a;
/** How long `close` waits after closing stdin, and after SIGTERM, before the next step. */
const CLOSE_GRACE_MS = 2_000;

/**
 * Splits a byte stream into lines, holding at most `max` bytes of an unfinished one. The pieces
 * of a line are joined once, when it ends: what the server sends is copied a bounded number of
 * times, however it is cut into chunks (the SDK's buffer copies everything it holds with every
 * chunk: 128 MB of copies to reach 4 MiB, which showed as 150 MB of resident memory).
 */
export class LineSplitter {
  #pieces: Buffer[] = [];
  #held = 0;
  #over = false;
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  /** The lines `chunk` completes; null once the unfinished line is over the cap. */
  push(chunk: Buffer): string[] | null {
    if (this.#over) return null;
    const lines: string[] = [];
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(NEWLINE, start);
      if (end === -1) break;
      if (this.#held + end - start > this.#max) return this.#overflow();
      this.#pieces.push(chunk.subarray(start, end));
      lines.push(Buffer.concat(this.#pieces).toString('utf8').replace(/\r$/, ''));
      this.#pieces = [];
      this.#held = 0;
      start = end + 1;
    }
    const rest = chunk.length - start;
    if (this.#held + rest > this.#max) return this.#overflow();
    if (rest > 0) {
      this.#pieces.push(chunk.subarray(start));
      this.#held += rest;
    }
    return lines;
  }

  #overflow(): null {
    this.#over = true;
    this.#pieces = [];
    this.#held = 0;
    return null;
  }
}

/**
 * The stdio transport of an external server, in place of the SDK's: the same process handling
 * (the basic environment plus the entry's, no shell, stderr piped, stdin closed then SIGTERM
 * then SIGKILL on close), with a line cap that holds: a line over `maxLineBytes` stops the
 * reading and the server at once, and `onOverLimit` says so.
 */
export class CappedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #options: CappedStdioOptions;
  readonly #stderr = new PassThrough();
  readonly #lines: LineSplitter;
  #process: ChildProcess | undefined;

  constructor(options: CappedStdioOptions) {
    this.#options = options;
    this.#lines = new LineSplitter(options.maxLineBytes);
  }

  /** The server's stderr (available before `start`, so nothing early is lost). */
  get stderr(): Readable {
    return this.#stderr;
  }

  get pid(): number | null {
    return this.#process?.pid ?? null;
  }

  start(): Promise<void> {
    if (this.#process) return Promise.reject(new Error('The stdio transport is already started'));
    return new Promise((resolve, reject) => {
      const child = spawn(this.#options.command, [...this.#options.args], {
        env: { ...getDefaultEnvironment(), ...this.#options.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        windowsHide: true,
      });
      this.#process = child;
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => resolve());
      child.once('close', () => {
        this.#process = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.#read(child, chunk));
      child.stderr?.pipe(this.#stderr);
    });
  }

  #read(child: ChildProcess, chunk: Buffer): void {
    const lines = this.#lines.push(chunk);
    if (lines === null) {
      // Nothing more is read from it, and it is stopped now rather than after a grace period.
      child.stdout?.removeAllListeners('data');
      child.stdout?.resume();
      child.kill('SIGTERM');
      this.#options.onOverLimit(`a message of more than ${this.#options.maxLineBytes} bytes`);
      return;
    }
    for (const line of lines) {
      try {
        this.onmessage?.(deserializeMessage(line));
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#process?.stdin;
    if (!stdin) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    const child = this.#process;
    if (!child) return;
    this.#process = undefined;
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const within = (ms: number) =>
      Promise.race([closed, new Promise<void>((resolve) => setTimeout(resolve, ms).unref())]);
    child.stdin?.end();
    await within(CLOSE_GRACE_MS);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await within(CLOSE_GRACE_MS);
    }
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
