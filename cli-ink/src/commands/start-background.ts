import { spawn, type ChildProcess } from 'node:child_process';
import { open, readFile } from 'node:fs/promises';
import { assertSafeBinding } from '@hearth/gateway/binding';
import { ensureStateDir, statePaths } from '@hearth/gateway/config';
import { CliError, errorMessage } from '../cli-error.ts';
import { readRawConfig } from '../config-file.ts';
import type { CommandContext } from '../deps.ts';
import { createGatewayClient } from '../gateway-client.ts';
import { gatewayUrl } from '@hearth/gateway/reachable-url';
import { readPidFile, removePidFile, writePidFile } from '../pid-file.ts';
import { summariseLogLine } from '../log-lines.ts';
import { isProcessAlive, sleep, waitForExit } from '../process-alive.ts';
import type { StartOptions } from './start.ts';

const READY_TIMEOUT_MS = 15_000;
const POLL_INTERVAL_MS = 100;
const LOG_TAIL_LINES = 20;

/**
 * `start --background`: spawns `hearth start` (same flags) detached, its output appended to
 * {home}/gateway.log, records {pid, url} in {home}/gateway.pid, and waits for /ready.
 */
export async function startBackground(ctx: CommandContext, options: StartOptions): Promise<void> {
  const { deps } = ctx;
  const paths = statePaths(deps.env.home);
  const configPath = ctx.configPath();

  const existing = await readPidFile(paths.pidFile);
  if (existing !== undefined && isProcessAlive(existing.pid)) {
    const where = existing.url === undefined ? '' : ` at ${existing.url}`;
    throw new CliError(
      `Hearth is already running (pid ${existing.pid})${where}; stop it with 'hearth stop'.`,
    );
  }

  const config = await readRawConfig(configPath);
  const host = options.bind ?? config.gateway.host;
  assertSafeBinding({ ...config.gateway, host });
  const port = options.port ?? config.gateway.port;
  if (port === 0)
    throw new CliError('--background needs a fixed port: pass --port N or set [gateway] port.');
  const url = gatewayUrl(host, port);
  const client = createGatewayClient({ baseUrl: url, fetch: deps.fetch });
  if (await client.isAnswering()) {
    throw new CliError(`something is already answering at ${url} (a gateway in the foreground?).`);
  }

  await ensureStateDir(deps.env.home);
  const { pid, exit, logStart } = await spawnDetached(ctx, configPath, options, paths.logFile);
  await writePidFile(paths.pidFile, { pid, url, configPath });

  const outcome = await waitUntilReady(exit, () => client.isReady());
  if (outcome === 'ready') {
    deps.output.out(`Hearth is ready at ${url} (pid ${pid})`);
    deps.output.out(`Logs: ${paths.logFile}`);
    return;
  }

  if (outcome === 'timeout') await terminate(pid);
  await removePidFile(paths.pidFile);
  const reason =
    outcome === 'timeout'
      ? `the gateway was not ready after ${READY_TIMEOUT_MS / 1000} s`
      : `the gateway exited during start-up (${outcome.exited})`;
  const tail = await logTail(paths.logFile, logStart);
  const details = tail === '' ? '' : `\nLast lines of ${paths.logFile}:\n${tail}`;
  throw new CliError(`${reason}.${details}`);
}

async function spawnDetached(
  ctx: CommandContext,
  configPath: string,
  options: StartOptions,
  logFile: string,
): Promise<SpawnedGateway> {
  const { deps } = ctx;
  const args = [deps.binPath, 'start', '--config', configPath];
  if (options.bind !== undefined) args.push('--bind', options.bind);
  if (options.port !== undefined) args.push('--port', String(options.port));
  if (options.voiceMode !== undefined) args.push('--voice-mode', options.voiceMode);

  const log = await open(logFile, 'a', 0o600);
  try {
    await log.write(`--- hearth start --background, ${new Date().toISOString()} ---\n`);
    const logStart = (await log.stat()).size;
    const child = spawn(deps.execPath, args, {
      detached: true,
      stdio: ['ignore', log.fd, log.fd],
      env: { ...deps.env.variables },
    });
    child.unref();
    const exit = watchExit(child);
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error) =>
        reject(new CliError(`could not start ${deps.execPath}: ${errorMessage(error)}`)),
      );
    });
    if (child.pid === undefined) throw new CliError('could not start the gateway process.');
    return { pid: child.pid, exit, logStart };
  } finally {
    await log.close();
  }
}

interface SpawnedGateway {
  pid: number;
  exit: ExitWatch;
  /** Where this start's output begins in the log file. */
  logStart: number;
}

/** How a child process ended, watched from the moment it was spawned so no exit is missed. */
interface ExitWatch {
  /** 'exit code N' or 'signal X' once the child has exited; undefined while it runs. */
  readonly reason: string | undefined;
  readonly exited: Promise<void>;
}

function watchExit(child: ChildProcess): ExitWatch {
  let reason: string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      reason = signal === null ? `exit code ${code ?? '?'}` : `signal ${signal}`;
      resolve();
    });
  });
  return {
    get reason() {
      return reason;
    },
    exited,
  };
}

type Outcome = 'ready' | 'timeout' | { exited: string };

/** Polls /ready every 100 ms until it answers 200, the child exits, or 15 s pass. */
async function waitUntilReady(exit: ExitWatch, isReady: () => Promise<boolean>): Promise<Outcome> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exit.reason !== undefined) return { exited: exit.reason };
    if (await isReady()) return 'ready';
    await Promise.race([sleep(POLL_INTERVAL_MS), exit.exited]);
  }
  return exit.reason === undefined ? 'timeout' : { exited: exit.reason };
}

/** SIGTERM, then SIGKILL when the process has not gone after a few seconds. */
async function terminate(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGTERM');
    if (!(await waitForExit(pid, 3_000))) process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** The last lines this start wrote to the log (from byte `from` on). */
async function logTail(path: string, from: number): Promise<string> {
  try {
    const text = (await readFile(path)).subarray(from).toString('utf8');
    return text.trimEnd().split('\n').slice(-LOG_TAIL_LINES).map(summariseLogLine).join('\n');
  } catch {
    return '';
  }
}
