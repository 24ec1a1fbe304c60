/**
 * Where approved shell commands run. Adapters: the local executor in the gateway (a bare
 * install: own process group, timeout kills the whole group, output cap) and the
 * sandbox-executor sidecar (`sidecars/sandbox-executor`: throwaway containers, or a process
 * backend on machines without Docker). All pass `runExecutorConformance`.
 */
export interface ExecRequest {
  /** A shell command line, run with `/bin/sh -c`. */
  command: string;
  /** Hard limit; the whole process group (or container) is killed when it passes. */
  timeoutSeconds: number;
  /** Working directory (must exist); the executor's default work area when omitted. */
  workdir?: string;
  /** The child's environment, already sanitised by the caller (see sanitiseEnv). */
  env: Record<string, string>;
  /** Network access inside a sandbox (containers only; default off). */
  network?: boolean;
  /** Bytes kept of stdout and of stderr each; the rest is dropped and `truncated` set. */
  maxOutputBytes?: number;
  signal?: AbortSignal;
}

export interface ExecResult {
  exitCode: number | null;
  /** The signal that ended it, e.g. 'SIGKILL' after a timeout. */
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  truncated: boolean;
  durationMs: number;
}

export type Isolation = 'none' | 'process-group' | 'container';

export interface Executor {
  readonly kind: 'local' | 'sandbox-docker' | 'sandbox-process';
  readonly isolation: Isolation;
  run(request: ExecRequest): Promise<ExecResult>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024;
