/**
 * Long-term memory figures (node bench/memory-store.bench.ts; not a test).
 * SQLite, on a fresh file in the temp folder, WAL mode as in the gateway:
 * - insert rate of 100k rows with 384-dimension embeddings through `LongTermMemory.insert`,
 *   in transactions of BENCH_BATCH rows, plus the rate without a transaction (one commit per
 *   row, what the port does on its own) on a smaller sample;
 * - `search` and `list` latency over the 100k rows (p50 / p95 / max of BENCH_RUNS calls);
 * - the cost of the Unicode case folding `search` uses, against SQLite's ASCII-only lower();
 * - reading every embedding back in pages (what rebuilding the in-memory index costs).
 * PostgreSQL, in a scratch database on BENCH_PG_URL (default the local server; skipped when it
 * cannot be reached): the same rows and `search` cases, loaded in multi-row INSERTs (timed),
 * then ANALYZEd, plus the rate of one-row inserts through the port on a smaller sample.
 * Results print as text and are written to bench/results/memory-store.json.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { loadBetterSqlite3 } from '../gateway/src/db/drizzle.ts';
import { sqliteMemoryRepository } from '../gateway/src/db/sqlite/memory-repository.ts';
import { openSqliteDatabase } from '../gateway/src/db/sqlite/open-sqlite.ts';
import { openPostgresDatabase } from '../gateway/src/db/postgres/open-postgres.ts';
import type { Database } from '../gateway/src/db/ports.ts';
import type { LongTermMemory, NewMemoryEntry } from '../gateway/src/memory/ports.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 1_000);
const AUTOCOMMIT_ROWS = Number(process.env.BENCH_AUTOCOMMIT_ROWS ?? 5_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const DIMENSIONS = 384;
const SESSIONS = 200;
const NOW = 1_800_000_000;
const PG_URL = process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const PG_PORT_ROWS = Number(process.env.BENCH_PG_PORT_ROWS ?? 5_000);

const words = (
  'the user prefers tea coffee deploy server kubernetes garden holiday budget invoice meeting ' +
  'python rust typescript database backup password reminder birthday doctor recipe travel ' +
  'music guitar project deadline report family weekend bicycle weather train ticket ' +
  'über café naïve résumé 日本語 emoji 🔥'
).split(' ');

let seed = 42;
const reseed = (): void => {
  seed = 42;
};
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

type Summary = ReturnType<typeof summary>;

/** The `search` cases, limit 20, the same on both stores. */
async function searchFigures(memory: LongTermMemory): Promise<Record<string, Summary>> {
  const cases: [label: string, query: string, session?: string][] = [
    ['common_word_any_session', 'Coffee'],
    ['common_word_one_session', 'coffee', 'session-7'],
    ['rare_word_any_session', 'needle-50007'],
    ['rare_word_one_session', 'needle-50007', 'session-7'],
    ['rare_phrase_of_common_words_any_session', 'tea coffee deploy'],
    ['no_match_any_session', 'no such text'],
    ['no_match_one_session', 'no such text', 'session-7'],
    ['non_ascii_common_any_session', 'Über'],
    ['non_ascii_rare_any_session', 'naïve résumé 日本語'],
    ['non_ascii_no_match_any_session', 'ünknown wörd'],
    ['two_characters_no_match_any_session', 'zq'],
  ];
  const figures: Record<string, Summary> = {};
  for (const [label, query, session] of cases)
    figures[label] = summary(
      await timed(() => memory.search(query, { limit: 20, session_id: session })),
    );
  return figures;
}

const keywordSearchOf = (db: Database): unknown =>
  'keywordSearch' in db ? db.keywordSearch : 'scan (no keyword index in this version)';

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
    keyword_search: keywordSearchOf(store),
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
    search_limit_20: await searchFigures(store.memory),
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
  reseed();
  const postgres = await postgresFigures();

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
  if ('skipped' in postgres) out.write(`PostgreSQL: skipped (${postgres.skipped})\n`);
  else {
    out.write(
      `PostgreSQL long-term memory, ${postgres.rows} rows (${postgres.server}), keyword search: ` +
        `${JSON.stringify(postgres.keyword_search)}\n`,
    );
    out.write(
      `insert: ${postgres.insert.bulk_rows_per_s} rows/s in INSERTs of ${BATCH} rows ` +
        `(${postgres.insert.bulk_seconds} s); ${postgres.insert.port_rows_per_s} rows/s one ` +
        `memory.insert() at a time\n`,
    );
    out.write(`search, limit 20 (${RUNS} runs each):\n`);
    for (const [label, value] of Object.entries(postgres.search_limit_20)) line(label, value);
  }
  await mkdir('bench/results', { recursive: true });
  await writeFile(
    'bench/results/memory-store.json',
    `${JSON.stringify({ sqlite: all, postgresql: postgres }, null, 2)}\n`,
  );
} finally {
  await rm(folder, { recursive: true, force: true });
}

/** The same rows in a scratch PostgreSQL database, dropped afterwards. */
async function postgresFigures() {
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    return { skipped: `${PG_URL.replace(/:[^:@/]*@/, ':***@')}: ${String(error)}` };
  }
  const name = `hearth_bench_${randomBytes(4).toString('hex')}`;
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  await admin.query(`create database "${name}"`);
  try {
    const store = await openPostgresDatabase(url.toString());
    const loader = new pg.Client({ connectionString: url.toString() });
    await loader.connect();
    try {
      const columns =
        'session_id, content, content_hash, importance_score, tags, type, embedding, created_at, updated_at';
      const bulkStarted = performance.now();
      for (let start = 0; start < ROWS; start += BATCH) {
        const values: unknown[] = [];
        const rows: string[] = [];
        for (let index = start; index < Math.min(ROWS, start + BATCH); index += 1) {
          const row = entry(index);
          const base = values.length;
          rows.push(
            `(${Array.from({ length: 9 }, (_, column) => `$${base + column + 1}`).join(', ')})`,
          );
          const vector = row.embedding ?? new Float32Array();
          values.push(
            row.session_id,
            row.content,
            'bench',
            row.importance_score,
            JSON.stringify(row.tags ?? []),
            row.type ?? 'turn',
            Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength),
            row.created_at,
            row.created_at,
          );
        }
        await loader.query(
          `insert into memory_entries (${columns}) values ${rows.join(', ')}`,
          values,
        );
      }
      const bulkMs = performance.now() - bulkStarted;

      const portStarted = performance.now();
      const extra: number[] = [];
      for (let index = 0; index < PG_PORT_ROWS; index += 1)
        extra.push((await store.memory.insert(entry(ROWS + index))).id);
      const portMs = performance.now() - portStarted;
      await store.memory.removeMany(extra);
      await loader.query('vacuum analyze memory_entries');

      const figures = {
        server: (await loader.query<{ v: string }>("select current_setting('server_version') as v"))
          .rows[0]?.v,
        rows: await store.memory.count(),
        keyword_search: keywordSearchOf(store),
        insert: {
          batch_rows: BATCH,
          bulk_seconds: Math.round(bulkMs / 100) / 10,
          bulk_rows_per_s: Math.round(ROWS / (bulkMs / 1000)),
          port_rows_per_s: Math.round(PG_PORT_ROWS / (portMs / 1000)),
        },
        search_limit_20: await searchFigures(store.memory),
      };
      return figures;
    } finally {
      await loader.end();
      await store.close();
    }
  } finally {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}
