/**
 * What a backend of the sidecar does: run one command and report how it ended. The shapes
 * mirror the gateway's `Executor` port (gateway/src/tools/executors/ports.ts); the sidecar is
 * deployed on its own, so it keeps its own copy rather than importing the gateway's; the result
 * is the process-group runner's from common/sandbox, which its image carries.
 */
import type { ProcessGroupResult } from '../../../../common/sandbox/process-group.ts';
export interface BackendRequest {
  command: string;
  timeoutSeconds: number;
  /** Default: the backend's work area (`/work` in a container). */
  workdir?: string;
  /** The complete environment of the command: nothing of the sidecar's own is added. */
  env: Record<string, string>;
  /** Containers only: network access (default none). */
  network?: boolean;
  maxOutputBytes: number;
  signal?: AbortSignal;
}

/** How a command ended: the same record the shared process-group runner returns. */
export type BackendResult = ProcessGroupResult;

export interface Backend {
  readonly name: 'docker' | 'process';
  readonly isolation: 'container' | 'process-group';
  run(request: BackendRequest): Promise<BackendResult>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** The request cannot be run as given (e.g. its workdir does not exist): a 422, not a 500. */
export class ExecRequestError extends Error {
  override readonly name = 'ExecRequestError';
}

/** How a call ends that was aborted before it started. */
export function abortedResult(durationMs = 0): BackendResult {
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
