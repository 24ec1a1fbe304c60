/**
 * Tools offered upstream per turn (npm run bench:tools): a real gateway in this process (the
 * chat test bed: SQLite, hash embedder, every model on the fake LLM server, OpenAI wire), with
 * 0, 50 and 500 installed tools (realistic MCP, hub and skill tools: the relevance table's
 * fifty, then copies of them as other servers' tools). For each count:
 *
 * - bytes: the size of the upstream request body of a plain "hello" (the fake records it), with
 *   `[tools] selection = "relevant"` (the default) and with `"all"`, and the tools it offered.
 *   Targets (relevant): ≤ 3,000 bytes with no installed tool, ≤ 4,000 with 50.
 * - selection time: what choosing the relevant tools costs a turn (keyword index, the message
 *   "turn off the kitchen light and email Bob"), BENCH_RUNS (200) samples after 20 warm-up
 *   ones, p50/p95/max in ms.
 *
 * Prints a table and writes bench/results/tools.json.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { createToolSelector } from '../gateway/src/agent/tool-selection/tool-selector.ts';
import { manyInstalledTools } from '../gateway/src/agent/tool-selection/testing/installed-tools.ts';
import {
  install,
  turnRequest,
} from '../gateway/src/agent/tool-selection/testing/upstream-request.ts';
import { startChatTestBed } from '../gateway/src/testing/gateway/chat-gateway.ts';
import { percentile } from './process.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARM_UP = 20;
const COUNTS = [0, 50, 500] as const;
const MESSAGE = 'turn off the kitchen light and email Bob';

interface Row {
  installed: number;
  relevant_bytes: number;
  relevant_tools: number;
  all_bytes: number;
  all_tools: number;
  select_p50_ms: number;
  select_p95_ms: number;
  select_max_ms: number;
}

/** "hello" with `count` installed tools, in a gateway with this selection mode. */
async function helloWith(count: number, selection: 'relevant' | 'all') {
  const bed = await startChatTestBed(undefined, { config: { tools: { selection } } });
  try {
    install(bed, manyInstalledTools(count));
    await turnRequest(bed, 'hello', 'warm-up');
    return await turnRequest(bed, 'hello', `hello-${count}`);
  } finally {
    await bed.close();
  }
}

async function selectionTimes(count: number): Promise<number[]> {
  const selector = createToolSelector({});
  const tools = manyInstalledTools(count);
  const samples: number[] = [];
  for (let i = 0; i < WARM_UP + RUNS; i++) {
    const start = performance.now();
    await selector.select({ tools, message: MESSAGE, recent: ['hello'], maxOffered: 8 });
    if (i >= WARM_UP) samples.push(performance.now() - start);
  }
  return samples.sort((a, b) => a - b);
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;
const rows: Row[] = [];
for (const count of COUNTS) {
  const relevant = await helloWith(count, 'relevant');
  const all = await helloWith(count, 'all');
  const times = await selectionTimes(count);
  rows.push({
    installed: count,
    relevant_bytes: relevant.bytes,
    relevant_tools: relevant.tools.length,
    all_bytes: all.bytes,
    all_tools: all.tools.length,
    select_p50_ms: round(percentile(times, 50)),
    select_p95_ms: round(percentile(times, 95)),
    select_max_ms: round(times.at(-1) ?? Number.NaN),
  });
}

process.stdout.write('Upstream request of a plain "hello" (bytes, tools offered)\n');
process.stdout.write(
  '  installed | relevant: bytes, tools | all: bytes, tools | selection p50 / p95 / max ms\n',
);
for (const row of rows) {
  process.stdout.write(
    `  ${String(row.installed).padStart(9)} | ${String(row.relevant_bytes).padStart(8)}, ${String(row.relevant_tools).padStart(5)} |` +
      ` ${String(row.all_bytes).padStart(8)}, ${String(row.all_tools).padStart(3)} |` +
      ` ${row.select_p50_ms} / ${row.select_p95_ms} / ${row.select_max_ms}\n`,
  );
}
await mkdir(new URL('results/', import.meta.url), { recursive: true });
await writeFile(new URL('results/tools.json', import.meta.url), JSON.stringify(rows, null, 2));
