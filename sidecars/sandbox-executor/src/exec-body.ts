/**
 * The wire format of `POST /exec`: snake_case JSON in, snake_case JSON out.
 *
 *   request   { command, timeout_seconds, workdir?, env?, network?, max_output_bytes? }
 *   response  { exit_code, signal, stdout, stderr, timed_out, truncated, duration_ms }
 */
import type { BackendRequest, BackendResult } from './backends/ports.ts';

export interface ExecLimits {
  /** Largest accepted timeout_seconds (default 3600). */
  maxTimeoutSeconds: number;
  /** Largest accepted max_output_bytes (default 8 MiB). */
  maxOutputBytes: number;
  /** max_output_bytes when the call gives none (default 64 KiB, as the gateway's). */
  defaultOutputBytes: number;
}

export const DEFAULT_LIMITS: ExecLimits = {
  maxTimeoutSeconds: 3_600,
  maxOutputBytes: 8 * 1024 * 1024,
  defaultOutputBytes: 64 * 1024,
};

export type ParsedExecBody =
  { ok: true; request: Omit<BackendRequest, 'signal'> } | { ok: false; detail: string };

const ENV_NAME = /^[^=\0]+$/;
const KNOWN = new Set([
  'command',
  'timeout_seconds',
  'workdir',
  'env',
  'network',
  'max_output_bytes',
]);

export function parseExecBody(body: unknown, limits: ExecLimits = DEFAULT_LIMITS): ParsedExecBody {
  const fail = (detail: string): ParsedExecBody => ({ ok: false, detail });
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return fail('body must be a JSON object');
  }
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).find((key) => !KNOWN.has(key));
  if (unknown !== undefined) return fail(`unknown field: ${unknown}`);

  const { command, timeout_seconds: timeout, workdir, env, network } = fields;
  if (typeof command !== 'string' || command.trim() === '' || command.includes('\0')) {
    return fail('command: a non-empty string is required');
  }
  if (typeof timeout !== 'number' || !(timeout > 0) || timeout > limits.maxTimeoutSeconds) {
    return fail(`timeout_seconds: a number above 0 and at most ${limits.maxTimeoutSeconds}`);
  }
  if (workdir !== undefined && (typeof workdir !== 'string' || !workdir.startsWith('/'))) {
    return fail('workdir: an absolute path');
  }
  const environment: Record<string, string> = {};
  if (env !== undefined) {
    if (typeof env !== 'object' || env === null || Array.isArray(env)) {
      return fail('env: an object of string values');
    }
    for (const [name, value] of Object.entries(env as Record<string, unknown>)) {
      if (!ENV_NAME.test(name)) return fail(`env: invalid variable name ${JSON.stringify(name)}`);
      if (typeof value !== 'string' || value.includes('\0')) {
        return fail(`env.${name}: a string without NUL`);
      }
      environment[name] = value;
    }
  }
  if (network !== undefined && typeof network !== 'boolean') return fail('network: a boolean');
  const cap = fields.max_output_bytes ?? limits.defaultOutputBytes;
  if (typeof cap !== 'number' || !Number.isInteger(cap) || cap < 0 || cap > limits.maxOutputBytes) {
    return fail(`max_output_bytes: an integer from 0 to ${limits.maxOutputBytes}`);
  }
  return {
    ok: true,
    request: {
      command,
      timeoutSeconds: timeout,
      ...(workdir === undefined ? {} : { workdir }),
      env: environment,
      network: network === true,
      maxOutputBytes: cap,
    },
  };
}

export function formatExecResult(result: BackendResult): Record<string, unknown> {
  return {
    exit_code: result.exitCode,
    signal: result.signal,
    stdout: result.stdout,
    stderr: result.stderr,
    timed_out: result.timedOut,
    truncated: result.truncated,
    duration_ms: Math.round(result.durationMs * 1000) / 1000,
  };
}
