/** Helpers for the hostile-server tests: their entries, the HTTP one's process, measurements. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { McpServerEntry } from '../../config/schema.ts';
import { httpEntry } from './mcp-test-bed.ts';

const HOSTILE_STDIO_SERVER = fileURLToPath(new URL('./hostile-stdio-server.ts', import.meta.url));
const HOSTILE_HTTP_SERVER = fileURLToPath(new URL('./hostile-http-server.ts', import.meta.url));

/** A `[[mcp.servers]]` entry running the hostile stdio server with `behaviours`. */
export function hostileStdioEntry(
  name: string,
  progressFile: string,
  behaviours: string[],
  extra: Partial<McpServerEntry> = {},
): McpServerEntry {
  return {
    name,
    command: process.execPath,
    args: [HOSTILE_STDIO_SERVER, progressFile, ...behaviours],
    env: {},
    enabled: true,
    ...extra,
  };
}

export interface HostileHttpServer {
  /** An entry for the server with `behaviours`. */
  entry(name: string, behaviours: string[], extra?: Partial<McpServerEntry>): McpServerEntry;
  close(): Promise<void>;
}

/** The hostile HTTP server, in a child process of its own (its memory is not the gateway's). */
export async function startHostileHttpServer(progressFile: string): Promise<HostileHttpServer> {
  const child: ChildProcess = spawn(process.execPath, [HOSTILE_HTTP_SERVER, progressFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the hostile HTTP server exited (${code})`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      resolve(Number(line.replace('listening ', '')));
    });
  });
  return {
    entry: (name, behaviours, extra = {}) =>
      httpEntry(name, `http://127.0.0.1:${port}/mcp?b=${behaviours.join(',')}`, extra),
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The bytes of its last flooding answer a hostile server wrote, once it was stopped. */
export async function floodStopped(progressFile: string): Promise<number | null> {
  try {
    const [bytes, end] = (await readFile(progressFile, 'utf8')).split(' ');
    return end === 'stopped' ? Number(bytes) : null;
  } catch {
    return null;
  }
}

export interface Measured<T> {
  result: T;
  /** The slowest `/health` answer while `work` ran, in ms. */
  worstHealthMs: number;
  /** How far this process's resident memory rose above where it was when `work` began. */
  rssGrowthBytes: number;
}

/**
 * Runs `work` while asking `/health` one request after another and sampling this process's
 * RSS every 5 ms (the test gateway runs in this process).
 */
export async function measure<T>(gatewayUrl: string, work: () => Promise<T>): Promise<Measured<T>> {
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  let done = false;
  let worstHealthMs = 0;
  const prober = (async () => {
    while (!done) {
      const started = performance.now();
      const res = await fetch(`${gatewayUrl}/health`);
      await res.arrayBuffer();
      worstHealthMs = Math.max(worstHealthMs, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  try {
    const result = await work();
    return { result, worstHealthMs, rssGrowthBytes: peak - baseline };
  } finally {
    done = true;
    clearInterval(sampler);
    await prober;
  }
}

/**
 * `measure`, up to `attempts` times until `/health` stayed under `healthMs`: a stall the work
 * causes happens every time, while the scheduling delays of a machine shared by many test runs
 * do not. The measurement with the fastest worst `/health` is returned.
 */
export async function measureCalm<T>(
  gatewayUrl: string,
  healthMs: number,
  work: () => Promise<T>,
  attempts = 10,
): Promise<Measured<T> & { attempts: number }> {
  let best: Measured<T> | undefined;
  let tries = 0;
  while (tries < attempts && (best === undefined || best.worstHealthMs >= healthMs)) {
    const measured = await measure(gatewayUrl, work);
    tries += 1;
    if (!best || measured.worstHealthMs < best.worstHealthMs) best = measured;
  }
  return { ...best!, attempts: tries };
}
