/**
 * Long-term memory figures for the SQLite store (node bench/memory-store.bench.ts; not a test):
 * - insert rate of 100k rows with 384-dimension embeddings through `LongTermMemory.insert`,
 *   in transactions of BENCH_BATCH rows, plus the rate without a transaction (one commit per
 *   row, what the port does on its own) on a smaller sample;
 * - `search` and `list` latency over the 100k rows (p50 / p95 / max of BENCH_RUNS calls);
 * - the cost of the Unicode case folding `search` uses, against SQLite's ASCII-only lower();
 * - reading every embedding back in pages (what rebuilding the in-memory index costs).
 * Runs on a fresh file in the temp folder, WAL mode as in the gateway. Results print as text
 * and are written to bench/results/memory-store.json.
 */
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { loadBetterSqlite3 } from '../gateway/src/db/drizzle.ts';
import { sqliteMemoryRepository } from '../gateway/src/db/sqlite/memory-repository.ts';
import { openSqliteDatabase } from '../gateway/src/db/sqlite/open-sqlite.ts';
import type { NewMemoryEntry } from '../gateway/src/memory/ports.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 1_000);
const AUTOCOMMIT_ROWS = Number(process.env.BENCH_AUTOCOMMIT_ROWS ?? 5_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const DIMENSIONS = 384;
const SESSIONS = 200;
const NOW = 1_800_000_000;

const words = (
  'the user prefers tea coffee deploy server kubernetes garden holiday budget invoice meeting ' +
  'python rust typescript database backup password reminder birthday doctor recipe travel ' +
  'music guitar project deadline report family weekend bicycle weather train ticket ' +
  'über café naïve résumé 日本語 emoji 🔥'
).split(' ');

let seed = 42;
function random(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x1_0000_0000;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

function embedding(): Float32Array {
  const values = new Float32Array(DIMENSIONS);
  let norm = 0;
  for (let index = 0; index < DIMENSIONS; index += 1) {
    const value = random() - 0.5;
    values[index] = value;
    norm += value * value;
  }
  norm = Math.sqrt(norm);
  for (let index = 0; index < DIMENSIONS; index += 1) values[index] = (values[index] ?? 0) / norm;
  return values;
}

function entry(index: number): NewMemoryEntry {
  const length = 20 + Math.floor(random() * 30);
  const content = Array.from({ length }, () => pick(words)).join(' ');
  return {
    session_id: `session-${index % SESSIONS}`,
    content: index % 10_000 === 7 ? `${content} needle-${index}` : content,
    importance_score: Math.round(random() * 100) / 100,
    tags: random() < 0.3 ? [pick(['work', 'home', 'health', 'finance'])] : [],
    type: random() < 0.1 ? 'summary' : 'turn',
    embedding: embedding(),
    created_at: NOW - ROWS + index,
  };
}

async function timed(run: () => Promise<unknown>): Promise<number[]> {
  await run(); // warm the page cache and statement cache
  const times: number[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

const at = (sorted: number[], fraction: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
const summary = (sorted: number[]) => ({
  p50_ms: Math.round(at(sorted, 0.5) * 100) / 100,
  p95_ms: Math.round(at(sorted, 0.95) * 100) / 100,
  max_ms: Math.round((sorted.at(-1) ?? Number.NaN) * 100) / 100,
});

const folder = await mkdtemp(join(tmpdir(), 'hearth-memory-bench-'));
const file = join(folder, 'memory.db');
try {
  // Creates the file and applies the migrations as the gateway does.
  await (await openSqliteDatabase(file)).close();

  // A second handle on the same file whose client the bench controls, to batch in transactions.
  const client = new BetterSqlite3(file);
  client.pragma('journal_mode = WAL');
  client.pragma('synchronous = NORMAL');
  const db = loadBetterSqlite3().driver.drizzle({ client });
  const memory = sqliteMemoryRepository(db);

  const insertStarted = performance.now();
  for (let start = 0; start < ROWS; start += BATCH) {
    client.exec('begin');
    for (let index = start; index < Math.min(ROWS, start + BATCH); index += 1)
      await memory.insert(entry(index));
    client.exec('commit');
  }
  const insertMs = performance.now() - insertStarted;

  const autocommitStarted = performance.now();
  for (let index = 0; index < AUTOCOMMIT_ROWS; index += 1) await memory.insert(entry(ROWS + index));
  const autocommitMs = performance.now() - autocommitStarted;
  await memory.removeMany(Array.from({ length: AUTOCOMMIT_ROWS }, (_, index) => ROWS + index + 1));
  client.pragma('wal_checkpoint(TRUNCATE)');

  // Unicode folding (hearth_lower, what search uses) against SQLite's ASCII-only lower().
  const scan = (fold: string) =>
    client.prepare(
      `select count(*) from memory_entries where instr(${fold}(content), ${fold}(?)) > 0`,
    );
  const unicodeScan = scan('hearth_lower');
  const asciiScan = scan('lower');
  const foldUnicode = await timed(() => Promise.resolve(unicodeScan.get('no such text')));
  const foldAscii = await timed(() => Promise.resolve(asciiScan.get('no such text')));
  client.close();

  const store = await openSqliteDatabase(file);
  const rows = await store.memory.count();
  const figures = {
    node: process.version,
    rows,
    embedding_dimensions: DIMENSIONS,
    session_ids: SESSIONS,
    file_mb: Math.round(((await stat(file)).size / 1_048_576) * 10) / 10,
    insert: {
      batch_rows: BATCH,
      seconds: Math.round(insertMs / 100) / 10,
      rows_per_s: Math.round(ROWS / (insertMs / 1000)),
      without_transaction_rows_per_s: Math.round(AUTOCOMMIT_ROWS / (autocommitMs / 1000)),
    },
    search_limit_20: {
      common_word_any_session: summary(
        await timed(() => store.memory.search('Coffee', { limit: 20 })),
      ),
      common_word_one_session: summary(
        await timed(() => store.memory.search('coffee', { limit: 20, session_id: 'session-7' })),
      ),
      rare_word_full_scan: summary(
        await timed(() => store.memory.search('needle-50007', { limit: 20 })),
      ),
      no_match_full_scan: summary(
        await timed(() => store.memory.search('no such text', { limit: 20 })),
      ),
    },
    list_limit_20: {
      newest: summary(await timed(() => store.memory.list({ limit: 20 }))),
      one_session: summary(
        await timed(() => store.memory.list({ limit: 20, session_id: 'session-7' })),
      ),
      by_tag: summary(await timed(() => store.memory.list({ limit: 20, tag: 'finance' }))),
      by_type: summary(await timed(() => store.memory.list({ limit: 20, type: 'summary' }))),
      one_session_by_tag: summary(
        await timed(() => store.memory.list({ limit: 20, session_id: 'session-7', tag: 'health' })),
      ),
    },
    full_scan_fold: {
      hearth_lower_unicode: summary(foldUnicode),
      sqlite_lower_ascii: summary(foldAscii),
    },
    sessions: summary(await timed(() => store.memory.sessions())),
    count: summary(await timed(() => store.memory.count())),
  };

  const readStarted = performance.now();
  let read = 0;
  for (let after = 0; ;) {
    const page = await store.memory.embeddings(after, 1_000);
    if (page.length === 0) break;
    read += page.length;
    after = page.at(-1)?.id ?? after;
  }
  const readMs = performance.now() - readStarted;
  await store.close();
  const all = {
    ...figures,
    read_all_embeddings: { rows: read, ms: Math.round(readMs), page_rows: 1_000 },
  };

  const out = process.stdout;
  const line = (label: string, value: { p50_ms: number; p95_ms: number; max_ms: number }) =>
    out.write(
      `  ${label}: p50 ${value.p50_ms} ms, p95 ${value.p95_ms} ms, max ${value.max_ms} ms\n`,
    );
  out.write(
    `SQLite long-term memory, ${rows} rows with ${DIMENSIONS}-d embeddings (${all.file_mb} MB), ${process.version}\n`,
  );
  out.write(
    `insert: ${all.insert.rows_per_s} rows/s in transactions of ${BATCH} ` +
      `(${all.insert.seconds} s); ${all.insert.without_transaction_rows_per_s} rows/s one commit per row\n`,
  );
  out.write(`search, limit 20 (${RUNS} runs each):\n`);
  for (const [label, value] of Object.entries(all.search_limit_20)) line(label, value);
  out.write('list, limit 20:\n');
  for (const [label, value] of Object.entries(all.list_limit_20)) line(label, value);
  out.write('full-table substring scan, case folding:\n');
  for (const [label, value] of Object.entries(all.full_scan_fold)) line(label, value);
  line('sessions()', all.sessions);
  line('count()', all.count);
  out.write(
    `read all embeddings in pages of 1000: ${read} rows in ${all.read_all_embeddings.ms} ms\n`,
  );
  await mkdir('bench/results', { recursive: true });
  await writeFile('bench/results/memory-store.json', `${JSON.stringify(all, null, 2)}\n`);
} finally {
  await rm(folder, { recursive: true, force: true });
}
