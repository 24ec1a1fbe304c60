import type { Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { jsonRpcLines, type LineError } from './json-rpc-lines.ts';

/**
 * Serves `server` on stdin/stdout until stdin ends (the client went away, or the gateway that
 * spawned this process ended): newline-delimited JSON-RPC, malformed lines answered with the
 * protocol's errors (json-rpc-lines.ts). Nothing but protocol messages goes to stdout.
 */
export async function serveStdio(
  server: Server,
  stdin: NodeJS.ReadableStream,
  stdout: NodeJS.WritableStream,
): Promise<void> {
  const reject = (response: LineError) => void stdout.write(`${JSON.stringify(response)}\n`);
  const lines = jsonRpcLines(reject);
  stdin.pipe(lines);
  const transport = new StdioServerTransport(lines, stdout as Writable);
  const ended = new Promise<void>((resolve) => {
    lines.once('end', resolve);
    lines.once('close', resolve);
  });
  await server.connect(transport);
  await ended;
  await server.close();
}
