import type { Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  JSONRPCMessage,
  MessageExtraInfo,
  RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { jsonRpcLines, type LineError } from './json-rpc-lines.ts';

/**
 * Serves `server` on stdin/stdout until stdin ends (the client went away, or the gateway that
 * spawned this process ended): newline-delimited JSON-RPC, malformed lines answered with the
 * protocol's errors (json-rpc-lines.ts). Nothing but protocol messages goes to stdout.
 *
 * A client may send its last requests and close its end at once (`… | hearth mcp`): every
 * request that was read is answered before the server closes, however long it takes (a gated
 * tool call waits for its approval, or its expiry). Closing earlier would abort them. Only a
 * stdout that is gone (nobody left to answer) ends the wait.
 */
export async function serveStdio(
  server: Server,
  stdin: NodeJS.ReadableStream,
  stdout: NodeJS.WritableStream,
): Promise<void> {
  const reject = (response: LineError) => void stdout.write(`${JSON.stringify(response)}\n`);
  const lines = jsonRpcLines(reject);
  stdin.pipe(lines);
  const transport = new TrackedTransport(new StdioServerTransport(lines, stdout as Writable));
  stdout.once('error', () => transport.outputGone());
  stdout.once('close', () => transport.outputGone());
  const ended = new Promise<void>((resolve) => {
    lines.once('end', resolve);
    lines.once('close', resolve);
  });
  await server.connect(transport);
  await ended;
  await transport.answered();
  await server.close();
}

/**
 * The stdio transport, counting the requests read and the responses written by id:
 * `answered()` settles once every request read so far has its response on stdout (or stdout
 * has gone away, when nothing more can be answered).
 */
class TrackedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private readonly open = new Map<RequestId, number>();
  private idle: (() => void) | undefined;
  private gone = false;
  private readonly inner: StdioServerTransport;

  constructor(inner: StdioServerTransport) {
    this.inner = inner;
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message: JSONRPCMessage) => {
      if ('method' in message && 'id' in message)
        this.open.set(message.id, (this.open.get(message.id) ?? 0) + 1);
      this.onmessage?.(message);
    };
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.inner.send(message);
    if ('method' in message || !('id' in message) || message.id === undefined) return;
    const count = this.open.get(message.id) ?? 0;
    if (count <= 1) this.open.delete(message.id);
    else this.open.set(message.id, count - 1);
    this.settle();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  outputGone(): void {
    this.gone = true;
    this.settle();
  }

  answered(): Promise<void> {
    return new Promise((resolve) => {
      this.idle = resolve;
      this.settle();
    });
  }

  private settle(): void {
    if (this.open.size === 0 || this.gone) this.idle?.();
  }
}
