/**
 * Runs one command as `/bin/sh -c` in a new process group. The timeout (or an abort) kills the
 * whole group with SIGKILL, background grandchildren included; when the shell itself ends,
 * whatever it left running in its group is killed too, so nothing outlives the call. Output is
 * capped per stream (output-cap.ts). The gateway's local executor and the sidecar's process
 * backend both run commands this way.
 *
 * The gateway and the sandbox sidecar (which is deployed on its own image) both import this one
 * file from common/sandbox/; the sidecar's image copies that folder beside its sources.
 */
import { spawn } from 'node:child_process';
import { createCappedOutput } from './output-cap.ts';

export interface ProcessGroupRequest {
  command: string;
  timeoutSeconds: number;
  /** The command's complete environment. */
  env: Record<string, string>;
  /** Bytes kept of stdout and of stderr each. */
  maxOutputBytes: number;
  signal?: AbortSignal;
}

export interface ProcessGroupResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  truncated: boolean;
  durationMs: number;
}

/**
 * `running` holds a kill function for each command under way (its owner kills them all on
 * close); `drainGraceMs` is how long the pipes may stay open after the shell ended.
 */
export function runInProcessGroup(
  request: ProcessGroupRequest,
  cwd: string,
  running: Set<() => void>,
  drainGraceMs: number,
): Promise<ProcessGroupResult> {
  if (request.signal?.aborted) {
    return Promise.resolve({
      exitCode: null,
      signal: 'SIGKILL',
      stdout: '',
      stderr: '',
      timedOut: false,
      truncated: false,
      durationMs: 0,
    });
  }
  const stdout = createCappedOutput(request.maxOutputBytes);
  const stderr = createCappedOutput(request.maxOutputBytes);
  const started = performance.now();

  return new Promise<ProcessGroupResult>((resolve, reject) => {
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
