/**
 * The backend for development machines without Docker: each command runs as `/bin/sh -c` in a
 * new process group of the sidecar's machine (or of the sidecar's own container). The timeout
 * or an abort kills the whole group with SIGKILL, background grandchildren included; when the
 * shell ends, whatever it left running in its group is killed too. Output is capped per stream.
 * Isolation is the process group only: the command runs as the sidecar's user.
 */
import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import type { Logger } from '../logger.ts';
import { createCappedOutput } from './output-cap.ts';
import { abortedResult, ExecRequestError } from './ports.ts';
import type { Backend, BackendRequest, BackendResult } from './ports.ts';

export interface ProcessBackendOptions {
  /** Where a command runs when the request names no workdir (must exist). */
  defaultWorkdir: string;
  logger: Logger;
  /** How long to wait for the pipes to close after the shell ended (default 1 s). */
  drainGraceMs?: number;
}

export function createProcessBackend(options: ProcessBackendOptions): Backend {
  const running = new Set<() => void>();
  let closed = false;
  return {
    name: 'process',
    isolation: 'process-group',
    async run(request) {
      if (closed) throw new Error('the process backend is closed');
      const workdir = request.workdir ?? options.defaultWorkdir;
      const info = await stat(workdir).catch(() => null);
      if (!info?.isDirectory())
        throw new ExecRequestError(`workdir is not a directory: ${workdir}`);
      return runInProcessGroup(request, workdir, running, options.drainGraceMs ?? 1_000);
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

function runInProcessGroup(
  request: BackendRequest,
  cwd: string,
  running: Set<() => void>,
  drainGraceMs: number,
): Promise<BackendResult> {
  if (request.signal?.aborted) return Promise.resolve(abortedResult());
  const stdout = createCappedOutput(request.maxOutputBytes);
  const stderr = createCappedOutput(request.maxOutputBytes);
  const started = performance.now();

  return new Promise<BackendResult>((resolve, reject) => {
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
    const timer = setTimeout(() => {
      if (exit) return; // the shell had ended; only the pipes were still draining
      timedOut = true;
      killGroup();
    }, request.timeoutSeconds * 1000);
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
