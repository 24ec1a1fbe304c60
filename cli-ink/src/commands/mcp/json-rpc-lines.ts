import { Transform, type TransformCallback } from 'node:stream';
import { ErrorCode, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** The largest JSON-RPC line `hearth mcp` reads, in bytes; a longer one is refused. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/** A JSON-RPC error response for a line that could not be taken as a request. */
export interface LineError {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
}

const failure = (id: string | number | null, code: number, message: string): LineError => ({
  jsonrpc: '2.0',
  id,
  error: { code, message },
});

/** The `id` of a parsed value that failed the message schema, when it has a usable one. */
function idOf(value: unknown): string | number | null {
  if (value && typeof value === 'object' && 'id' in value) {
    const id = value.id;
    if (typeof id === 'string' || typeof id === 'number') return id;
  }
  return null;
}

/**
 * Newline-delimited JSON-RPC in front of the SDK's stdio transport. Lines that are valid
 * JSON-RPC messages pass through unchanged; every other line gets the protocol's error response
 * through `reject` and goes no further: not JSON → -32700 Parse error, JSON that is no JSON-RPC
 * message → -32600 Invalid Request, a line over `maxLineBytes` → -32600 (dropped as it streams,
 * never buffered whole). Blank lines are ignored. The server stays up through all of them.
 */
export function jsonRpcLines(
  reject: (response: LineError) => void,
  maxLineBytes = MAX_LINE_BYTES,
): Transform {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let oversized = false;

  function line(bytes: Buffer, push: (chunk: Buffer) => void): void {
    const text = bytes.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      reject(failure(null, ErrorCode.ParseError, 'Parse error: the line is not JSON'));
      return;
    }
    if (!JSONRPCMessageSchema.safeParse(value).success) {
      reject(
        failure(
          idOf(value),
          ErrorCode.InvalidRequest,
          'Invalid Request: not a JSON-RPC 2.0 message',
        ),
      );
      return;
    }
    push(Buffer.from(`${text}\n`));
  }

  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      let rest = chunk;
      for (;;) {
        const end = rest.indexOf(0x0a);
        const piece = end === -1 ? rest : rest.subarray(0, end);
        if (!oversized) {
          if (pendingBytes + piece.length > maxLineBytes) {
            oversized = true;
            pending = [];
            pendingBytes = 0;
          } else {
            pending.push(piece);
            pendingBytes += piece.length;
          }
        }
        if (end === -1) break;
        if (oversized) {
          reject(
            failure(
              null,
              ErrorCode.InvalidRequest,
              `Invalid Request: a message over ${maxLineBytes} bytes`,
            ),
          );
        } else {
          line(Buffer.concat(pending), (out) => this.push(out));
        }
        pending = [];
        pendingBytes = 0;
        oversized = false;
        rest = rest.subarray(end + 1);
      }
      done();
    },
  });
}
