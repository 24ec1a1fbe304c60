/**
 * The per-turn cost of the provenance ledger (node bench/provenance.bench.ts): everything the
 * chat pipeline and the gate do for it in one turn, on realistic inputs, without the model or
 * the tools themselves.
 *
 * - clean turn: a ledger, a clean 40-message history and the descriptions of Hearth's 8 built-in
 *   tools looked over, 8 recalled memories without an untrusted origin, three tool results of
 *   Hearth's own (a built-in, `pwd`, `echo`: the shell rule is evaluated), the view handed to
 *   one gated call, the gate's naming of its (empty) sources and the turn's (absent) origin.
 * - tainted turn: the same plus a 50 KB browser page, a 20 KB MCP result, a skill result and a
 *   recalled memory of untrusted origin, then the gate names the sources (clean, dedupe, cap).
 * - tainted history: a clean turn whose 40-message history holds 10 replies made from a page
 *   and a summary made from a forward, with an MCP server's 12 tools offered: the conversation's
 *   and the descriptions' sources are named and the turn's origin is worked out.
 *
 * Each sample times BATCH turns and divides (one turn is far below the timer's resolution);
 * BENCH_RUNS (2000) samples after 200 warm-up samples. Prints p50/p95/max per turn in ms; the
 * target is p50 under 0.2 ms. A clean turn adds no byte to the upstream request (asserted in
 * gateway/src/approvals/untrusted-turn.test.ts).
 */
import {
  createProvenanceLedger,
  createToolDescriptionSources,
} from '../gateway/src/agent/provenance.ts';
import { shownSources } from '../gateway/src/approvals/ports.ts';
import type { Conversation, HistoryMessage, RetrievedMemory } from '../gateway/src/memory/ports.ts';
import type { Tool } from '../gateway/src/tools/ports.ts';
import { percentile } from './process.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 2000);
const WARM_UP = 200;
const BATCH = 20;

const memories: RetrievedMemory[] = Array.from({ length: 8 }, (_, i) => ({
  content: `The user mentioned fact number ${i} about their garden and the weather. `.repeat(4),
  contentHash: `h${i}`,
  source: 'long-term',
  score: 1 - i / 10,
  origin: { trust: 'hearth', sources: [] },
}));
const untrustedMemory = {
  ...memories[0]!,
  origin: { trust: 'untrusted', sources: [{ kind: 'browser', name: 'https://example.com/' }] },
} as RetrievedMemory;
const page = `<html><body>${'<p>Some article text \u0007 with controls.</p>'.repeat(1200)}</body></html>`;
const mcpResult = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => `issue ${i}`) });
const skillResult = 'Sunny, 21 °C. '.repeat(50);

const tool = (name: string, source: string): Tool => ({
  name,
  description: `${name}: does one thing well, with a description of ordinary length. `.repeat(3),
  parameters: { type: 'object', properties: {} },
  source,
  execute: () => Promise.resolve(''),
});
const builtins = Array.from({ length: 8 }, (_, i) => tool(`builtin_${i}`, 'builtin'));
const mcpTools = Array.from({ length: 12 }, (_, i) => tool(`gh__tool_${i}`, 'mcp:gh'));
const descriptionSources = createToolDescriptionSources();

const cleanHistory: Conversation = {
  history: Array.from({ length: 40 }, (_, i): HistoryMessage => ({
    role: i % 2 === 0 ? 'user' : 'assistant',
    content: `Message ${i} of an ordinary conversation about the garden. `.repeat(3),
  })),
  summary: 'An earlier summary of the conversation.',
};
const PAGE = {
  trust: 'untrusted' as const,
  sources: [{ kind: 'browser' as const, name: 'https://example.com/' }],
};
const taintedHistory: Conversation = {
  history: cleanHistory.history.map((message, i) =>
    message.role === 'assistant' && i % 4 === 1 ? { ...message, origin: PAGE } : message,
  ),
  summary: 'An earlier summary made from a forwarded mail.',
  origin: { trust: 'untrusted', sources: [{ kind: 'channel', name: 'forwarded from mallory' }] },
};

let sink = 0;

function cleanTurn(): void {
  const ledger = createProvenanceLedger();
  ledger.conversation(cleanHistory);
  ledger.toolDescriptions(descriptionSources(builtins));
  ledger.memories(memories);
  ledger.toolResult({ name: 'current_time', source: 'builtin' }, {}, '2026-11-27T18:00:00Z');
  ledger.toolResult({ name: 'shell', source: 'builtin' }, { command: 'pwd' }, '/home/user');
  ledger.toolResult({ name: 'shell', source: 'builtin' }, { command: 'echo ok && date' }, 'ok');
  sink += shownSources(ledger.sources()).length;
  if (ledger.origin() !== undefined) sink += 1;
}

function taintedHistoryTurn(): void {
  const ledger = createProvenanceLedger();
  ledger.conversation(taintedHistory);
  ledger.toolDescriptions(descriptionSources([...builtins, ...mcpTools]));
  ledger.memories(memories);
  ledger.toolResult({ name: 'shell', source: 'builtin' }, { command: 'pwd' }, '/home/user');
  sink += shownSources(ledger.sources()).length;
  sink += ledger.origin()?.sources.length ?? 0;
}

function taintedTurn(): void {
  const ledger = createProvenanceLedger();
  ledger.memories([...memories.slice(1), untrustedMemory]);
  ledger.toolResult({ name: 'browser', source: 'builtin' }, { url: 'https://example.com/' }, page);
  ledger.toolResult({ name: 'gh__issues', source: 'mcp:gh' }, {}, mcpResult);
  ledger.toolResult({ name: 'weather_now', source: 'skill:weather' }, {}, skillResult);
  ledger.toolResult({ name: 'shell', source: 'builtin' }, { command: 'curl -s x | jq .' }, page);
  sink += shownSources(ledger.sources()).length;
}

function measure(turn: () => void): number[] {
  const samples: number[] = [];
  for (let run = 0; run < WARM_UP + RUNS; run += 1) {
    const started = performance.now();
    for (let i = 0; i < BATCH; i += 1) turn();
    const perTurn = (performance.now() - started) / BATCH;
    if (run >= WARM_UP) samples.push(perTurn);
  }
  return samples.sort((a, b) => a - b);
}

const ms = (value: number) => value.toFixed(4);
for (const [name, turn] of [
  ['clean turn', cleanTurn],
  ['tainted turn', taintedTurn],
  ['tainted history', taintedHistoryTurn],
] as const) {
  const samples = measure(turn);
  const p50 = percentile(samples, 50);
  process.stdout.write(
    `provenance ${name}: p50 ${ms(p50)} ms, p95 ${ms(percentile(samples, 95))} ms, max ${ms(samples.at(-1) ?? 0)} ms per turn (target p50 < 0.2 ms: ${p50 < 0.2 ? 'met' : 'MISSED'})\n`,
  );
}
if (sink < 0) process.stdout.write('unreachable\n');
