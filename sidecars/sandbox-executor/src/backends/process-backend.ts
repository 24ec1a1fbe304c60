/**
 * The backend for development machines without Docker: each command runs as `/bin/sh -c` in a
 * new process group of the sidecar's machine (or of the sidecar's own container). The timeout
 * or an abort kills the whole group with SIGKILL, background grandchildren included; when the
 * shell ends, whatever it left running in its group is killed too. Output is capped per stream.
 * Isolation is the process group only: the command runs as the sidecar's user.
 */
import { stat } from 'node:fs/promises';
import type { Logger } from '../logger.ts';
import { ExecRequestError } from './ports.ts';
import type { Backend } from './ports.ts';
import { runInProcessGroup } from '../../../../common/sandbox/process-group.ts';

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
