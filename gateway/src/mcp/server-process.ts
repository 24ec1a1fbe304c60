import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Logger } from 'pino';
import { unavailable } from '../errors.ts';
import type { McpServerCommand, ServerProcessStatus } from './ports.ts';

export interface ServerProcessDeps {
  /** How to start `hearth mcp`; undefined when this gateway does not know its CLI. */
  command: McpServerCommand | undefined;
  /** The child's whole environment: sanitised, plus the gateway's URL and key. */
  env: () => Record<string, string>;
  logger: Logger;
  /** How long `kill` waits after SIGTERM before SIGKILL. */
  killGraceMs?: number;
}

export interface SpawnResult {
  pid: number;
  running: boolean;
  already_running: boolean;
}

/** Longest stderr line written to the gateway log, in characters. */
const MAX_LOG_LINE = 2_000;

/**
 * The `hearth mcp` child of `POST /mcp/spawn` (spec: States "MCP server process"): stopped →
 * spawn → running (returns its pid); running → spawn → running, the same pid with
 * `already_running` and no second process; running → `DELETE /mcp/server` → stopped
 * (`killed`). The child's stdin and stdout are pipes the gateway holds (that is the stdio an
 * MCP client would speak on; the gateway speaks none), its stderr goes to the gateway log line
 * by line, and it dies with the gateway: killed on close, and it exits by itself when its stdin
 * closes (the gateway process ended in any way).
 */
export function createServerProcess(deps: ServerProcessDeps) {
  const logger = deps.logger.child({ area: 'mcp-server' });
  const graceMs = deps.killGraceMs ?? 2_000;
  let child: ChildProcess | undefined;
  let starting: Promise<ChildProcess> | undefined;
  const exits = new WeakMap<ChildProcess, Promise<void>>();

  function start(command: McpServerCommand): Promise<ChildProcess> {
    return new Promise((resolve, reject) => {
      const proc = spawn(command.command, [...command.args], {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: deps.env(),
        windowsHide: true,
      });
      exits.set(
        proc,
        new Promise((done) => {
          proc.once('close', (code, signal) => {
            if (child === proc) child = undefined;
            logger.info({ pid: proc.pid, code, signal }, 'hearth mcp exited');
            done();
          });
        }),
      );
      proc.once('error', (error) => {
        if (child === proc) child = undefined;
        reject(unavailable(`Cannot start hearth mcp: ${error.message}`));
      });
      proc.once('spawn', () => resolve(proc));
      // Nobody speaks MCP on this stdio; whatever the child writes there is read and dropped,
      // so it never blocks on a full pipe.
      proc.stdout?.resume();
      proc.stdin?.on('error', () => undefined);
      if (proc.stderr) {
        createInterface({ input: proc.stderr, crlfDelay: Infinity }).on('line', (line) => {
          logger.info({ pid: proc.pid }, line.slice(0, MAX_LOG_LINE));
        });
      }
    });
  }

  async function kill(proc: ChildProcess): Promise<void> {
    const exited = exits.get(proc) ?? Promise.resolve();
    if (proc.exitCode !== null || proc.signalCode !== null) return exited;
    proc.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), graceMs);
    });
    if ((await Promise.race([exited, late])) === 'late') proc.kill('SIGKILL');
    clearTimeout(timer);
    await exited;
  }

  return {
    async spawn(): Promise<SpawnResult> {
      if (starting) await starting.catch(() => undefined);
      if (child?.pid !== undefined) return { pid: child.pid, running: true, already_running: true };
      const command = deps.command;
      if (!command)
        throw unavailable(
          'This gateway was started without the hearth CLI; run `hearth mcp` yourself',
        );
      starting = start(command);
      try {
        child = await starting;
      } finally {
        starting = undefined;
      }
      logger.info({ pid: child.pid }, 'hearth mcp started');
      return { pid: child.pid ?? 0, running: true, already_running: false };
    },

    status(): ServerProcessStatus {
      return child?.pid === undefined
        ? { running: false, pid: 0 }
        : { running: true, pid: child.pid };
    },

    async kill(): Promise<{ killed: boolean }> {
      if (starting) await starting.catch(() => undefined);
      const proc = child;
      if (!proc) return { killed: false };
      child = undefined;
      await kill(proc);
      return { killed: true };
    },

    async close(): Promise<void> {
      if (starting) await starting.catch(() => undefined);
      const proc = child;
      child = undefined;
      if (proc) await kill(proc);
    },
  };
}

export type ServerProcess = ReturnType<typeof createServerProcess>;
