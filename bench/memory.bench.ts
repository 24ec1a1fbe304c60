/**
 * Memory service figures (node bench/memory.bench.ts; not a test):
 * - a full retrieval pass (`MemoryService.retrieve`, top_k 8 as the chat pipeline asks: the
 *   short-term tier, semantic search over the in-memory index, the long-term keyword search,
 *   dedupe and ranking) over a SQLite file of BENCH_ROWS (100k) long-term rows with 384-d
 *   embeddings, p50/p95/max over BENCH_QUERIES (200) queries. Two layouts of the same row
 *   count: rows spread over 200 sessions (500 each), and every row in one session (one user
 *   on one channel for a long time: the session filter then narrows nothing);
 * - write throughput of `rememberTurn` (turns/s), BENCH_TURNS (2,000) turns, half of them
 *   important enough to be stored long-term: with the 384-d hash embedder, and with
 *   embeddings skipped (an embedder whose state is 'unavailable').
 * The hash embedder stands in for the real model (stored rows carry hash embeddings of their
 * text too), so the figures measure the memory service, not model inference, which costs
 * milliseconds per text on its own. Runs on fresh files in the temp folder, WAL mode as in the
 * gateway.
 * Results print as text and are written to bench/results/memory.json.
 * Env: BENCH_ROWS, BENCH_QUERIES, BENCH_TURNS, BENCH_LAYOUTS=spread,single.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { loadBetterSqlite3 } from '../gateway/src/db/drizzle.ts';
import type { Database } from '../gateway/src/db/ports.ts';
import { sqliteMemoryRepository } from '../gateway/src/db/sqlite/memory-repository.ts';
import { openSqliteDatabase } from '../gateway/src/db/sqlite/open-sqlite.ts';
import { createHashEmbedder, hashEmbed } from '../gateway/src/memory/embedder/hash-embedder.ts';
import { createMemoryService, type MemoryService } from '../gateway/src/memory/memory-service.ts';
import type { Embedder, NewMemoryEntry } from '../gateway/src/memory/ports.ts';
import { createInProcessShortTermStore } from '../gateway/src/memory/short-term/in-process.ts';
import { createInMemoryVectorStore } from '../gateway/src/memory/vectors/in-memory.ts';
import { createHostStats } from '../gateway/src/observability/host-stats.ts';
import { silentLogger } from '../gateway/src/observability/logger.ts';
import { createMetrics } from '../gateway/src/observability/metrics.ts';
import { percentile } from './process.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const TURNS = Number(process.env.BENCH_TURNS ?? 2_000);
const LAYOUTS = (process.env.BENCH_LAYOUTS ?? 'spread,single').split(',') as (
  'spread' | 'single'
)[];
const DIMENSIONS = 384;
const TOP_K = 8;
const SPREAD_SESSIONS = 200;
const BATCH = 1_000;
/** Short-term turns per queried session, so the short-term tier has something to rank. */
const SHORT_TERM_TURNS = 10;

const words = (
  'the user prefers tea coffee deploy server kubernetes garden holiday budget invoice meeting ' +
  'python rust typescript database backup password reminder birthday doctor recipe travel ' +
  'music guitar project deadline report family weekend bicycle weather train ticket'
).split(' ');

let seed = 42;
function random(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x1_0000_0000;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const sentence = (length: number): string => Array.from({ length }, () => pick(words)).join(' ');

const NOW = Math.floor(Date.now() / 1000);

function entry(index: number, sessionOf: (index: number) => string): NewMemoryEntry {
  const content = sentence(20 + Math.floor(random() * 30));
  return {
    session_id: sessionOf(index),
    content,
    importance_score: Math.round(random() * 100) / 100,
    type: 'turn',
    embedding: hashEmbed(content, DIMENSIONS),
    created_at: NOW - ROWS + index,
  };
}

/** Fills `file` with ROWS rows, in transactions of BATCH, through the real repository. */
async function fill(file: string, sessionOf: (index: number) => string): Promise<number> {
  await (await openSqliteDatabase(file)).close(); // creates the file and applies the migrations
  const client = new BetterSqlite3(file);
  client.pragma('journal_mode = WAL');
  client.pragma('synchronous = NORMAL');
  const memory = sqliteMemoryRepository(loadBetterSqlite3().driver.drizzle({ client }));
  const started = performance.now();
  for (let start = 0; start < ROWS; start += BATCH) {
    client.exec('begin');
    for (let index = start; index < Math.min(ROWS, start + BATCH); index += 1)
      await memory.insert(entry(index, sessionOf));
    client.exec('commit');
  }
  client.pragma('wal_checkpoint(TRUNCATE)');
  client.close();
  return performance.now() - started;
}

function service(db: Database, embedder: Embedder): MemoryService {
  let id = 0;
  return createMemoryService({
    shortTerm: createInProcessShortTermStore({ now: Date.now }),
    vectors: createInMemoryVectorStore(DIMENSIONS),
    longTerm: () => db.memory,
    embedder,
    shortTermTtlSeconds: 3600,
    metrics: createMetrics(createHostStats(tmpdir())),
    logger: silentLogger(),
    now: Date.now,
    randomId: () => `bench-${(id += 1)}`,
  });
}

const unavailableEmbedder: Embedder = {
  state: 'unavailable',
  detail: 'no model (bench stub)',
  dimensions: DIMENSIONS,
  embed: () => Promise.reject(new Error('no model (bench stub)')),
};

interface Latency {
  p50_ms: number;
  p95_ms: number;
  max_ms: number;
}
const round = (ms: number, places = 2): number => Math.round(ms * 10 ** places) / 10 ** places;
const latency = (sorted: number[]): Latency => ({
  p50_ms: round(percentile(sorted, 50)),
  p95_ms: round(percentile(sorted, 95)),
  max_ms: round(sorted.at(-1) ?? Number.NaN),
});

const IMPORTANT = (n: number) => ({
  user: `Remember that my locker number is ${n} and I prefer ${pick(words)} ${pick(words)}`,
  assistant: `Noted: locker ${n}.`,
});
const ORDINARY = () => ({
  user: `What about the ${pick(words)} ${pick(words)} ${pick(words)}?`,
  assistant: `Here is something about ${sentence(12)}.`,
});

/** rememberTurn throughput on `db`; every other turn is important (stored long-term). */
async function writeThroughput(db: Database, embedder: Embedder) {
  const memory = service(db, embedder);
  const before = await db.memory.count();
  for (let n = 0; n < 50; n += 1) await memory.rememberTurn({ sessionId: 'warm', ...ORDINARY() });
  const started = performance.now();
  let important = 0;
  for (let n = 0; n < TURNS; n += 1) {
    const turn = n % 2 === 0 ? IMPORTANT(n) : ORDINARY();
    const written = await memory.rememberTurn({ sessionId: `writer-${n % 20}`, ...turn });
    if (written.longTermId !== null) important += 1;
  }
  const ms = performance.now() - started;
  return {
    turns: TURNS,
    stored_long_term: important,
    rows_added: (await db.memory.count()) - before,
    seconds: round(ms / 1000, 3),
    turns_per_s: Math.round(TURNS / (ms / 1000)),
  };
}

const out = process.stdout;
const folder = await mkdtemp(join(tmpdir(), 'hearth-memory-service-bench-'));
const results: Record<string, unknown> = {
  node: process.version,
  rows: ROWS,
  embedding_dimensions: DIMENSIONS,
  top_k: TOP_K,
  queries: QUERIES,
};
try {
  out.write(
    `memory service, ${ROWS} long-term rows with ${DIMENSIONS}-d embeddings, top_k ${TOP_K}, ` +
      `${QUERIES} queries (node ${process.version})\n`,
  );
  const retrieval: Record<string, unknown> = {};
  for (const layout of LAYOUTS) {
    const sessions = layout === 'spread' ? SPREAD_SESSIONS : 1;
    const sessionOf = (index: number) => `session-${index % sessions}`;
    const file = join(folder, `${layout}.db`);
    const fillMs = await fill(file, sessionOf);
    const db = await openSqliteDatabase(file);
    const memory = service(db, createHashEmbedder({ dimensions: DIMENSIONS }));

    const rebuildStarted = performance.now();
    const loaded = await memory.rebuildVectorIndex();
    const rebuildMs = performance.now() - rebuildStarted;

    // Recent turns in the queried sessions (ordinary ones: nothing new goes long-term).
    const queried = Array.from({ length: Math.min(sessions, 20) }, (_, i) => `session-${i}`);
    for (const sessionId of queried)
      for (let n = 0; n < SHORT_TERM_TURNS; n += 1)
        await memory.rememberTurn({ sessionId, ...ORDINARY() });

    const queries = Array.from({ length: QUERIES }, (_, i) => ({
      sessionId: queried[i % queried.length] ?? 'session-0',
      query: `${sentence(5)}?`,
    }));
    for (const q of queries.slice(0, 10)) await memory.retrieve({ ...q, topK: TOP_K }); // warm-up
    const times: number[] = [];
    const sources = { 'short-term': 0, semantic: 0, 'long-term': 0 };
    for (const q of queries) {
      const started = performance.now();
      const found = await memory.retrieve({ ...q, topK: TOP_K });
      times.push(performance.now() - started);
      for (const m of found) sources[m.source] += 1;
    }
    times.sort((a, b) => a - b);
    const figures = {
      sessions,
      rows_per_session: ROWS / sessions,
      fill_seconds: round(fillMs / 1000, 1),
      rebuild_index: { rows: loaded, ms: Math.round(rebuildMs) },
      retrieve: latency(times),
      results_by_source: sources,
    };
    retrieval[layout] = figures;
    out.write(
      `retrieve, ${sessions === 1 ? 'all rows in one session' : `rows over ${sessions} sessions`}: ` +
        `p50 ${figures.retrieve.p50_ms} ms, p95 ${figures.retrieve.p95_ms} ms, ` +
        `max ${figures.retrieve.max_ms} ms ` +
        `(results: ${sources['short-term']} short-term, ${sources.semantic} semantic, ` +
        `${sources['long-term']} long-term; index rebuilt from ${loaded} rows in ` +
        `${figures.rebuild_index.ms} ms)\n`,
    );
    await db.close();
  }
  results.retrieval = retrieval;

  // Write throughput, on the first layout's file (100k rows already there).
  const file = join(folder, `${LAYOUTS[0] ?? 'spread'}.db`);
  const db = await openSqliteDatabase(file);
  const withEmbeddings = await writeThroughput(db, createHashEmbedder({ dimensions: DIMENSIONS }));
  const withoutEmbeddings = await writeThroughput(db, unavailableEmbedder);
  await db.close();
  results.write = { with_embeddings: withEmbeddings, embeddings_skipped: withoutEmbeddings };
  for (const [label, figures] of [
    ['with 384-d hash embeddings', withEmbeddings],
    ['embeddings skipped        ', withoutEmbeddings],
  ] as const) {
    out.write(
      `rememberTurn ${label}: ${figures.turns_per_s} turns/s ` +
        `(${figures.turns} turns, ${figures.stored_long_term} stored long-term, ${figures.seconds} s)\n`,
    );
  }
  await mkdir('bench/results', { recursive: true });
  await writeFile('bench/results/memory.json', `${JSON.stringify(results, null, 2)}\n`);
} finally {
  await rm(folder, { recursive: true, force: true });
}
