/**
 * The executor that hands commands to the sandbox-executor sidecar (`sidecars/sandbox-executor`)
 * over HTTP: `POST /exec` with the shared token in `X-Sandbox-Token`. What it is (a throwaway
 * container per command, or a process group when the sidecar has no Docker engine) comes from
 * the sidecar's `GET /health` when the executor is created.
 */
import type { Logger } from 'pino';
import { HearthError, isHearthError, unavailable, validationError } from '../../../errors.ts';
import { BodyTooLargeError, capResponse } from '../../../http/outbound/capped-body.ts';
import { DEFAULT_MAX_OUTPUT_BYTES } from '../ports.ts';
import type { ExecRequest, ExecResult, Executor, Isolation } from '../ports.ts';

export interface SidecarExecutorOptions {
  /** Base URL of the sidecar, e.g. `http://sandbox-executor:7433`. */
  url: string;
  /** Read when a call is made, so a rotated secret applies without a restart. */
  token: string | (() => string);
  fetch: typeof fetch;
  logger: Logger;
  /** Added to a command's timeout to give the HTTP call its own deadline (default 5 s). */
  graceSeconds?: number;
  /** Deadline of /health and of the start-up checks (default 5 s). */
  probeTimeoutMs?: number;
  /**
   * The gateway's workspace (a real, absolute path), when requests carry the gateway's own
   * directories: the workspace is the sandbox's work folder, so it and the folders below it are
   * translated (`/work/…` in a container), and any other directory, which the sandbox cannot
   * see, is refused. Without it a request's `workdir` is passed on as it is.
   */
  hostWorkspace?: string;
}

/** The largest `/health` answer read (a few hundred bytes). */
const MAX_HEALTH_BYTES = 64 * 1024;

/**
 * The largest `/exec` answer read: stdout and stderr at `maxOutputBytes` each, JSON-escaped (a
 * control byte takes six characters), the heartbeat newlines of an hour and the other fields.
 */
export const execAnswerCap = (maxOutputBytes: number) => 12 * maxOutputBytes + 64 * 1024;

/** The sandbox's work folder in a container (the sidecar's Docker backend). */
const CONTAINER_WORK_DIR = '/work';

/**
 * Where a gateway directory is in the sandbox: `undefined` for the workspace itself (the
 * sidecar's default work folder), `/work/<rest>` below it in a container.
 */
export function sandboxWorkdir(
  workdir: string | undefined,
  hostWorkspace: string,
  backend: 'docker' | 'process',
): string | undefined {
  if (workdir === undefined) return undefined;
  const root = hostWorkspace.replace(/\/+$/, '');
  if (workdir === root || workdir === `${root}/`) return undefined;
  if (!workdir.startsWith(`${root}/`)) {
    throw validationError(
      `workdir ${workdir} is outside the workspace; the sandbox sees only the workspace`,
    );
  }
  if (backend === 'process') {
    throw validationError(
      'the sandbox runs commands in its own work folder: a folder of the workspace cannot be chosen',
    );
  }
  return `${CONTAINER_WORK_DIR}/${workdir.slice(root.length + 1)}`;
}

interface HealthBody {
  status: string;
  backend: 'docker' | 'process';
  isolation: Isolation;
}

interface WireResult {
  exit_code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timed_out: boolean;
  truncated: boolean;
  duration_ms: number;
}

const TOKEN_HEADER = 'X-Sandbox-Token';

/**
 * Asks the sidecar what it is and checks the token (an empty `/exec` call: 422 means the
 * token was accepted, 401 that it was not), then returns the executor. Throws a HearthError
 * `unavailable` when either fails, so the caller can fall back to the local executor and say
 * so. `run` rejects with `validation` when the sidecar refuses a request (422, e.g. a workdir
 * outside its work area), `unavailable` when it cannot be reached, rejects the token or does
 * not answer in time, and `upstream` when it fails.
 */
export async function createSidecarExecutor(options: SidecarExecutorOptions): Promise<Executor> {
  const base = options.url.replace(/\/+$/, '');
  const logger = options.logger.child({ executor: 'sidecar', url: base });
  const probeTimeoutMs = options.probeTimeoutMs ?? 5_000;
  const graceSeconds = options.graceSeconds ?? 5;
  const token = typeof options.token === 'function' ? options.token : () => options.token as string;
  const inFlight = new Set<AbortController>();
  let closed = false;

  const readHealth = async (): Promise<HealthBody> => {
    const response = await options.fetch(`${base}/health`, {
      signal: AbortSignal.timeout(probeTimeoutMs),
    });
    const body = (await capResponse(response, {
      maxBytes: MAX_HEALTH_BYTES,
      what: "the sidecar's /health answer",
    }).json()) as Partial<HealthBody>;
    if (!response.ok || body.status !== 'ok') {
      throw unavailable(`the sidecar reports ${body.status ?? response.status}`);
    }
    if (body.backend !== 'docker' && body.backend !== 'process') {
      throw unavailable(`the sidecar reports an unknown backend: ${body.backend}`);
    }
    return body as HealthBody;
  };

  let health: HealthBody;
  try {
    health = await readHealth();
    const probe = await options.fetch(`${base}/exec`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token() },
      body: '{}',
      signal: AbortSignal.timeout(probeTimeoutMs),
    });
    await probe.body?.cancel();
    if (probe.status === 401) throw unavailable('the sidecar rejected the token');
    if (probe.status !== 422) {
      throw unavailable(`unexpected answer to the token check: ${probe.status}`);
    }
  } catch (error) {
    if (isHearthError(error)) throw error;
    throw unavailable(
      `the sandbox-executor at ${base} cannot be reached: ${(error as Error).message}`,
      error,
    );
  }
  const kind = health.backend === 'docker' ? 'sandbox-docker' : 'sandbox-process';
  logger.info({ kind, isolation: health.isolation }, 'sandbox-executor connected');

  return {
    kind,
    isolation: health.isolation,

    async run(request: ExecRequest): Promise<ExecResult> {
      if (closed) throw new Error('the sidecar executor is closed');
      const started = performance.now();
      if (request.signal?.aborted) return aborted(0);
      const workdir =
        options.hostWorkspace === undefined
          ? request.workdir
          : sandboxWorkdir(request.workdir, options.hostWorkspace, health.backend);
      const controller = new AbortController();
      inFlight.add(controller);
      const deadline = AbortSignal.timeout((request.timeoutSeconds + graceSeconds) * 1000);
      const signals = [controller.signal, deadline, ...(request.signal ? [request.signal] : [])];
      const maxOutputBytes = request.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
      try {
        const response = await options.fetch(`${base}/exec`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token() },
          body: JSON.stringify({
            command: request.command,
            timeout_seconds: request.timeoutSeconds,
            ...(workdir === undefined ? {} : { workdir }),
            env: request.env,
            network: request.network ?? false,
            max_output_bytes: maxOutputBytes,
          }),
          signal: AbortSignal.any(signals),
        });
        // Counted as it streams: the sidecar cannot make the gateway hold more than the output
        // it was asked for (escaped as JSON) and a little more.
        let text: string;
        try {
          text = await capResponse(response, {
            maxBytes: execAnswerCap(maxOutputBytes),
            what: "the sidecar's /exec answer",
          }).text();
        } catch (error) {
          if (!(error instanceof BodyTooLargeError)) throw error;
          throw new HearthError('upstream', `the sandbox-executor failed: ${error.message}`);
        }
        let body: Partial<WireResult> & { detail?: string } = {};
        try {
          body = JSON.parse(text) as typeof body;
        } catch {
          // not JSON: the status says enough
        }
        if (response.status === 401) {
          throw unavailable('the sidecar rejected the token');
        }
        if (response.status === 422) {
          throw validationError(body.detail ?? 'the sidecar refused the request');
        }
        if (!response.ok || typeof body.exit_code === 'undefined') {
          throw new HearthError(
            'upstream',
            `the sandbox-executor failed (${response.status}): ${body.detail ?? 'no detail'}`,
          );
        }
        return {
          exitCode: body.exit_code,
          signal: body.signal ?? null,
          stdout: body.stdout ?? '',
          stderr: body.stderr ?? '',
          timedOut: body.timed_out === true,
          truncated: body.truncated === true,
          durationMs: body.duration_ms ?? performance.now() - started,
        };
      } catch (error) {
        // Closing the connection makes the sidecar kill the command; its output is lost.
        if (request.signal?.aborted || controller.signal.aborted) {
          return aborted(performance.now() - started);
        }
        if (deadline.aborted) {
          throw unavailable(
            `the sidecar did not answer within ${request.timeoutSeconds + graceSeconds} s`,
          );
        }
        if (isHearthError(error)) throw error;
        throw unavailable(
          `the sandbox-executor cannot be reached: ${(error as Error).message}`,
          error,
        );
      } finally {
        inFlight.delete(controller);
      }
    },

    async ping() {
      if (closed) return false;
      try {
        const now = await readHealth();
        return now.backend === health.backend;
      } catch {
        return false;
      }
    },

    close() {
      closed = true;
      for (const controller of inFlight) controller.abort();
      return Promise.resolve();
    },
  };
}

function aborted(durationMs: number): ExecResult {
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
