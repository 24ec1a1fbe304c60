/**
 * A hostile MCP server over stdio, speaking raw JSON-RPC lines (no SDK): `node <this>
 * <progress file> <behaviour>…` (behaviours in hostile-tools.ts). How many bytes of an answer it
 * wrote is in the progress file, written as it goes, and with ` stopped` when it is stopped.
 */
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import {
  floodFrame,
  FLOOD_BYTES,
  FLOOD_PIECE,
  initializeResult,
  resultOf,
  toolsFor,
} from './hostile-tools.ts';

const [progressFile = '/dev/null', ...behaviours] = process.argv.slice(2);
const tools = toolsFor(behaviours);
let written = 0;
let flooding = false;
const report = (end = '') => writeFileSync(progressFile, `${written}${end}`);
/** Stopped by SIGTERM or by its stdin closing, whichever comes first. */
const stop = () => {
  if (flooding) report(' stopped');
  process.exit(0);
};
process.on('SIGTERM', stop);

async function write(text: string): Promise<void> {
  written += Buffer.byteLength(text);
  if (!process.stdout.write(text)) await once(process.stdout, 'drain');
}

async function flood(id: unknown): Promise<void> {
  flooding = true;
  const { head, tail } = floodFrame(id);
  await write(head);
  const piece = 'x'.repeat(FLOOD_PIECE);
  for (let sent = 0; sent < FLOOD_BYTES; sent += FLOOD_PIECE) {
    await write(piece);
    if (sent % (16 * FLOOD_PIECE) === 0) report();
  }
  await write(`${tail}\n`);
  flooding = false;
  report(' sent whole');
}

const answer = (id: unknown, result: unknown) =>
  write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);

createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  let message: { id?: unknown; method?: string; params?: Record<string, unknown> };
  try {
    message = JSON.parse(line) as typeof message;
  } catch {
    return;
  }
  if (message.id === undefined) return;
  const params = message.params ?? {};
  switch (message.method) {
    case 'initialize':
      void answer(message.id, initializeResult(params));
      break;
    case 'tools/list':
      void answer(message.id, { tools });
      break;
    case 'tools/call':
      if (String(params.name).startsWith('flood')) void flood(message.id);
      else
        void answer(
          message.id,
          resultOf(String(params.name), (params.arguments ?? {}) as Record<string, unknown>),
        );
      break;
    default:
      void answer(message.id, {});
  }
});
process.stdin.on('end', stop);
