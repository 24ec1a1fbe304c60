import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface GatewayProcess {
  child: ChildProcess;
  url: string;
  home: string;
  /** Milliseconds from spawn to the first /ready 200. */
  readyMs: number;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Spawns `node <entry> <command…> --port N` (by default the built gateway,
 * dist/gateway/src/main.js) on a fresh state directory and waits for /ready 200.
 */
export async function startGatewayProcess(
  entry = 'dist/gateway/src/main.js',
  extraEnv: Record<string, string> = {},
  command: readonly string[] = [],
): Promise<GatewayProcess> {
  const home = await mkdtemp(join(tmpdir(), 'hearth-bench-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [entry, ...command, '--port', String(port)], {
    env: { ...process.env, HEARTH_HOME: home, HEARTH_LOG_LEVEL: 'warn', ...extraEnv },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/ready`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (performance.now() - started > 20_000) throw new Error('gateway not ready after 20 s');
  }
  const readyMs = performance.now() - started;
  return {
    child,
    url,
    home,
    readyMs,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** Resident set size of a process in bytes, from /proc (Linux). */
export async function rssBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  if (!match?.[1]) throw new Error('VmRSS not found');
  return Number(match[1]) * 1024;
}

export function percentile(sorted: readonly number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}
