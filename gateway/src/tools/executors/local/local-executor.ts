/**
 * The executor of a bare install: each command runs as `/bin/sh -c` in a new process group on
 * this machine. The timeout (or an abort) kills the whole group with SIGKILL, background
 * grandchildren included; when the shell itself ends, whatever it left running in its group is
 * killed too, so nothing outlives the call. Output is capped per stream. This is process-group
 * isolation only: the command runs as the gateway's user and sees its files.
 */
import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import type { Logger } from 'pino';
import { validationError } from '../../../errors.ts';
import { DEFAULT_MAX_OUTPUT_BYTES } from '../ports.ts';
import type { ExecRequest, ExecResult, Executor } from '../ports.ts';
import { createCappedOutput } from './output-cap.ts';

export interface LocalExecutorOptions {
  /** Where a command runs when the request names no workdir (must exist). */
  defaultWorkdir: string;
  logger: Logger;
  /** How long to wait for the pipes to close after the shell ended (default 1 s). */
  drainGraceMs?: number;
}

export function createLocalExecutor(options: LocalExecutorOptions): Executor {
  const logger = options.logger.child({ executor: 'local' });
  const running = new Set<() => void>();
  let closed = false;

  return {
    kind: 'local',
    isolation: 'process-group',
    async run(request) {
      if (closed) throw new Error('the local executor is closed');
      validateRequest(request);
      const workdir = request.workdir ?? options.defaultWorkdir;
      await assertDirectory(workdir);
      const result = await runInProcessGroup(request, workdir, running, options.drainGraceMs);
      logger.debug(
        {
          exitCode: result.exitCode,
          signal: result.signal,
          timedOut: result.timedOut,
          truncated: result.truncated,
          durationMs: Math.round(result.durationMs),
        },
        'command finished',
      );
      return result;
    },
    ping() {
      return Promise.resolve(!closed);
    },
    close() {
      closed = true;
      for (const kill of running) kill();
      return Promise.resolve();
    },
  };
}

function validateRequest(request: ExecRequest): void {
  if (typeof request.command !== 'string' || request.command.trim() === '') {
    throw validationError('command must be a non-empty string');
  }
  if (!(request.timeoutSeconds > 0) || !Number.isFinite(request.timeoutSeconds)) {
    throw validationError('timeoutSeconds must be a positive number');
  }
  const cap = request.maxOutputBytes;
  if (cap !== undefined && !(Number.isInteger(cap) && cap >= 0)) {
    throw validationError('maxOutputBytes must be a non-negative integer');
  }
}

async function assertDirectory(path: string): Promise<void> {
  const info = await stat(path).catch(() => null);
  if (!info?.isDirectory()) throw validationError(`workdir is not a directory: ${path}`);
}

/** Result of a call that was aborted before or while it ran. */
function abortedResult(durationMs: number): ExecResult {
  return {
    exitCode: null,
    signal: 'SIGKILL',
    stdout: '',
    stderr: '',
    timedOut: false,
    truncated: false,
    durationMs,
  };
}

function runInProcessGroup(
  request: ExecRequest,
  cwd: string,
  running: Set<() => void>,
  drainGraceMs = 1_000,
): Promise<ExecResult> {
  if (request.signal?.aborted) return Promise.resolve(abortedResult(0));
  const cap = request.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const stdout = createCappedOutput(cap);
  const stderr = createCappedOutput(cap);
  const started = performance.now();

  return new Promise<ExecResult>((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', request.command], {
      cwd,
      env: request.env,
      detached: true, // the shell leads a new process group: -pid addresses all of it
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let timedOut = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let settled = false;
    let drainTimer: NodeJS.Timeout | undefined;

    const killGroup = () => {
      if (child.pid === undefined || settled) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // ESRCH: the group is already gone
      }
    };
    const onTimeout = () => {
      if (exit) return; // the shell had ended; only the pipes were still draining
      timedOut = true;
      killGroup();
    };
    const timer = setTimeout(onTimeout, request.timeoutSeconds * 1000);
    const onAbort = () => killGroup();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    running.add(killGroup);

    const finish = (error?: Error) => {
      if (settled) return;
      killGroup();
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      request.signal?.removeEventListener('abort', onAbort);
      running.delete(killGroup);
      if (error) {
        reject(error);
        return;
      }
      resolve({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        stdout: stdout.text(),
        stderr: stderr.text(),
        timedOut,
        truncated: stdout.truncated || stderr.truncated,
        durationMs: performance.now() - started,
      });
    };

    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.once('error', (error) => finish(error));
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      // The shell is done: end what it left running in its group, then let the pipes drain.
      // A process that left the group (setsid) may still hold them: stop waiting after a grace.
      killGroup();
      drainTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, drainGraceMs);
    });
    child.once('close', () => finish());
  });
}
