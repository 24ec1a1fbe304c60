/**
 * The executor of a bare install: each command runs as `/bin/sh -c` in a new process group on
 * this machine. The timeout (or an abort) kills the whole group with SIGKILL, background
 * grandchildren included; when the shell itself ends, whatever it left running in its group is
 * killed too, so nothing outlives the call. Output is capped per stream. This is process-group
 * isolation only: the command runs as the gateway's user and sees its files.
 */
import { stat } from 'node:fs/promises';
import type { Logger } from 'pino';
import { validationError } from '../../../errors.ts';
import { DEFAULT_MAX_OUTPUT_BYTES } from '../ports.ts';
import type { ExecRequest, Executor } from '../ports.ts';
import { runInProcessGroup } from '../../../../../common/sandbox/process-group.ts';

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
      const result = await runInProcessGroup(
        { ...request, maxOutputBytes: request.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES },
        workdir,
        running,
        options.drainGraceMs ?? 1_000,
      );
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
