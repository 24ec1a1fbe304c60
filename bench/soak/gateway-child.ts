/**
 * The built gateway as a child process on a fresh state directory, its JSON log lines read from
 * stdout: every line at level error or fatal (and each warning) is counted and the first ones
 * kept for the report, since an error the gateway logs is an error of the soak.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { freePort } from '../process.ts';

/** pino's numeric levels. */
const WARN = 40;
const ERROR = 50;
const KEPT = 20;

export interface LoggedLine {
  at: string;
  level: number;
  msg: string;
  /** The logged error's message and the area, when there are. */
  detail?: string;
}

export interface GatewayChild {
  child: ChildProcess;
  pid: number;
  url: string;
  port: number;
  logs: {
    errors: number;
    warnings: number;
    firstErrors: LoggedLine[];
    firstWarnings: LoggedLine[];
  };
  /** The child's exit, once it has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then waits (SIGKILL after `graceMs`); resolves with how it ended. */
  stop(
    graceMs?: number,
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
}

function lineOf(record: Record<string, unknown>): LoggedLine {
  const err = record.err as { message?: unknown } | undefined;
  const parts = [
    typeof record.area === 'string' ? `area ${record.area}` : '',
    typeof err?.message === 'string' ? err.message : '',
  ].filter(Boolean);
  return {
    at: typeof record.time === 'number' ? new Date(record.time).toISOString() : '',
    level: Number(record.level),
    msg: typeof record.msg === 'string' ? record.msg : '',
    ...(parts.length > 0 ? { detail: parts.join(': ').slice(0, 400) } : {}),
  };
}

export async function startGatewayChild(options: {
  entry: string;
  home: string;
  /** Node flags for the gateway (none by default, as `npm start` runs it). */
  nodeOptions?: string;
  env?: Record<string, string>;
  readyTimeoutMs?: number;
}): Promise<GatewayChild> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [options.entry, '--port', String(port)], {
    env: {
      ...process.env,
      HEARTH_HOME: options.home,
      HEARTH_LOG_LEVEL: 'warn',
      // This process's Node flags are not the gateway's (it runs as `npm start` runs it).
      NODE_OPTIONS: options.nodeOptions ?? '',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const logs: GatewayChild['logs'] = { errors: 0, warnings: 0, firstErrors: [], firstWarnings: [] };
  createInterface({ input: child.stdout }).on('line', (text) => {
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return;
    }
    const level = Number(record.level);
    if (level >= ERROR) {
      logs.errors += 1;
      if (logs.firstErrors.length < KEPT) logs.firstErrors.push(lineOf(record));
    } else if (level >= WARN) {
      logs.warnings += 1;
      if (logs.firstWarnings.length < KEPT) logs.firstWarnings.push(lineOf(record));
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

  const started = performance.now();
  const deadline = started + (options.readyTimeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the gateway exited during start-up (${child.exitCode ?? child.signalCode})`);
    try {
      const res = await fetch(`${url}/ready`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the gateway was not ready after ${options.readyTimeoutMs ?? 60_000} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  return {
    child,
    pid: child.pid ?? 0,
    url,
    port,
    logs,
    exited,
    async stop(graceMs = 30_000) {
      const at = performance.now();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const result = await exited;
      clearTimeout(timer);
      return { ...result, ms: Math.round(performance.now() - at) };
    },
  };
}
