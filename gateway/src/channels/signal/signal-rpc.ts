import { capResponse } from '../../http/outbound/capped-body.ts';

/**
 * A small JSON-RPC 2.0 client for signal-cli's HTTP daemon (`POST /api/v1/rpc`). Each call is
 * one HTTP request; an `error` object in the answer becomes a `SignalRpcError` with its code.
 */

/** A JSON-RPC error object signal-cli answered with (or a broken answer, code 0). */
export class SignalRpcError extends Error {
  readonly method: string;
  readonly code: number;
  constructor(method: string, code: number, message: string) {
    super(`signal-cli ${method} failed (${code}): ${message}`);
    this.name = 'SignalRpcError';
    this.method = method;
    this.code = code;
  }
}

export interface SignalRpc {
  call(method: string, params: Record<string, unknown>): Promise<unknown>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The largest answer read from the daemon (a `send` answers a few hundred bytes). */
export const MAX_RPC_ANSWER_BYTES = 1024 * 1024;

export function createSignalRpc(options: {
  rpcUrl: string;
  fetch: typeof globalThis.fetch;
  /** How long one call may take before it is given up. */
  timeoutMs?: number;
}): SignalRpc {
  const endpoint = new URL('/api/v1/rpc', options.rpcUrl).toString();
  let nextId = 1;
  return {
    async call(method, params) {
      const id = nextId++;
      const res = await options.fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', method, params, id }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      });
      // Counted as it streams: an answer without end is cut at the cap (and the call fails).
      const text = await capResponse(res, {
        maxBytes: MAX_RPC_ANSWER_BYTES,
        what: `signal-cli's answer to ${method}`,
      }).text();
      let answer: unknown;
      try {
        answer = JSON.parse(text);
      } catch {
        throw new SignalRpcError(method, 0, `HTTP ${res.status}, not JSON`);
      }
      if (!isRecord(answer))
        throw new SignalRpcError(method, 0, `HTTP ${res.status}, not an object`);
      if (isRecord(answer.error)) {
        const code = typeof answer.error.code === 'number' ? answer.error.code : 0;
        const message = typeof answer.error.message === 'string' ? answer.error.message : 'error';
        throw new SignalRpcError(method, code, message);
      }
      if (!res.ok) throw new SignalRpcError(method, 0, `HTTP ${res.status}`);
      if (answer.id !== id) throw new SignalRpcError(method, 0, 'answer to another request');
      return answer.result;
    },
  };
}
