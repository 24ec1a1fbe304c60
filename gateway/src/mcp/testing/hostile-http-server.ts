/**
 * A hostile MCP server over Streamable HTTP on 127.0.0.1, speaking the protocol by hand (no
 * SDK): `node <this> <progress file>` prints `listening <port>`. The behaviours of a URL are its
 * `b` query (`/mcp?b=flood,many:300`, names in hostile-tools.ts). The bytes written of the last
 * flooding answer are in the progress file, written as it goes, and with ` stopped` when its
 * connection was closed before the end.
 */
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  floodFrame,
  FLOOD_BYTES,
  FLOOD_PIECE,
  initializeResult,
  resultOf,
  toolsFor,
} from './hostile-tools.ts';

const progressFile = process.argv[2] ?? '/dev/null';

async function flood(res: ServerResponse, id: unknown, how: string): Promise<void> {
  let written = 0;
  let closed = false;
  const report = (end = '') => writeFileSync(progressFile, `${written}${end}`);
  res.once('close', () => {
    closed = true;
    report(written < FLOOD_BYTES ? ' stopped' : ' sent whole');
  });
  const { head, tail } = floodFrame(id);
  const sse = how === 'flood_sse';
  const opening = sse ? `event: message\ndata: ${head}` : head;
  const closing = sse ? `${tail}\n\n` : tail;
  res.writeHead(200, {
    'content-type': sse ? 'text/event-stream' : 'application/json',
    ...(how === 'flood_declared'
      ? { 'content-length': String(FLOOD_BYTES + opening.length + closing.length) }
      : {}),
  });
  const send = async (text: string) => {
    written += text.length;
    if (!res.write(text)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
  };
  await send(opening);
  const piece = 'x'.repeat(FLOOD_PIECE);
  for (let sent = 0; sent < FLOOD_BYTES && !closed; sent += FLOOD_PIECE) {
    await send(piece);
    if (!closed && sent % (16 * FLOOD_PIECE) === 0) report();
  }
  if (!closed) res.end(closing);
}

const server = createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(req.method === 'DELETE' ? 200 : 405).end();
    return;
  }
  const behaviours = (new URL(req.url ?? '/', 'http://x').searchParams.get('b') ?? '').split(',');
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      id?: unknown;
      method?: string;
      params?: Record<string, unknown>;
    };
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    const params = message.params ?? {};
    const name = String(params.name);
    if (message.method === 'tools/call' && name.startsWith('flood')) {
      void flood(res, message.id, name);
      return;
    }
    const result =
      message.method === 'initialize'
        ? initializeResult(params)
        : message.method === 'tools/list'
          ? { tools: toolsFor(behaviours) }
          : message.method === 'tools/call'
            ? resultOf(name, (params.arguments ?? {}) as Record<string, unknown>)
            : {};
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  });
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
