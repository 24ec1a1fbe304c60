/**
 * Backup figures (node bench/backup.bench.ts; not a test). A state directory whose memory.db
 * holds BENCH_ROWS (default 100k) long-term rows as the gateway writes them (content of about
 * 120 characters, tags, a 384-dimension embedding, the keyword index), in WAL mode with the
 * writer's connection still open; then `createBackup` (online backup API + tar.gz),
 * `verifyBackup` (digests + integrity_check) and `restoreBackup` into a fresh target, each
 * timed with the archive size. Results print as text and go to bench/results/backup.json.
 */
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { createBackup } from '../gateway/src/backup/create-backup.ts';
import { restoreBackup } from '../gateway/src/backup/restore-backup.ts';
import { verifyBackup } from '../gateway/src/backup/verify-backup.ts';
import { openSqliteDatabase } from '../gateway/src/db/sqlite/open-sqlite.ts';
import { contentHash } from '../gateway/src/memory/content-hash.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const DIMENSIONS = 384;
const words = (
  'the user prefers tea coffee deploy server kubernetes garden holiday budget invoice meeting ' +
  'python rust typescript database backup password reminder birthday doctor recipe travel'
).split(' ');

const root = await mkdtemp(join(tmpdir(), 'hearth-bench-backup-'));
const home = join(root, '.hearth');
await mkdir(home, { mode: 0o700 });
await writeFile(join(home, 'config.toml'), '');
const dbPath = join(home, 'memory.db');

// The gateway's schema (migrations, keyword index) through the real adapter, then the rows in
// large transactions straight through SQLite (the port commits one row at a time).
await (await openSqliteDatabase(dbPath)).close();
const writer = new BetterSqlite3(dbPath);
writer.pragma('journal_mode = WAL');
const insert = writer.prepare(
  `insert into memory_entries
     (session_id, content, content_hash, importance_score, tags, type, embedding, created_at, updated_at)
   values (?, ?, ?, ?, ?, 'turn', ?, ?, ?)`,
);
const fillStarted = performance.now();
let seed = 1;
const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
for (let done = 0; done < ROWS; done += 1000) {
  writer.transaction(() => {
    for (let i = done; i < Math.min(ROWS, done + 1000); i += 1) {
      const content = Array.from(
        { length: 18 },
        () => words[Math.floor(random() * words.length)],
      ).join(' ');
      const vector = new Float32Array(DIMENSIONS).map(() => random() - 0.5);
      insert.run(
        `session-${i % 200}`,
        `${content} #${i}`,
        contentHash(`${content} #${i}`),
        random(),
        JSON.stringify(['bench', words[i % words.length]]),
        Buffer.from(vector.buffer),
        1_800_000_000 + i,
        1_800_000_000 + i,
      );
    }
  })();
}
const fillMs = performance.now() - fillStarted;
const dbBytes =
  (await stat(dbPath)).size + (await stat(`${dbPath}-wal`).catch(() => ({ size: 0 }))).size;

const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
};

// The writer's connection stays open, as a running gateway's would.
const [created, createMs] = await timed(() =>
  createBackup({ home, backupsDir: join(root, 'backups'), hearthVersion: 'bench' }),
);
const [verified, verifyMs] = await timed(() => verifyBackup(created.archive));
const [restored, restoreMs] = await timed(() =>
  restoreBackup(created.archive, { target: join(root, 'restored') }),
);
writer.close();
if (!verified.ok || !restored.ok)
  throw new Error(`bench archive failed: ${verified.problems.join('; ')}`);

const figures = {
  rows: ROWS,
  database_bytes: dbBytes,
  fill_ms: Math.round(fillMs),
  backup_create_ms: Math.round(createMs),
  archive_bytes: created.size,
  backup_verify_ms: Math.round(verifyMs),
  backup_restore_ms: Math.round(restoreMs),
};
const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
process.stdout.write(
  `memory.db with ${ROWS} rows: ${mib(dbBytes)}\n` +
    `backup create: ${figures.backup_create_ms} ms, archive ${mib(created.size)}\n` +
    `backup verify: ${figures.backup_verify_ms} ms\n` +
    `backup restore: ${figures.backup_restore_ms} ms\n`,
);
await mkdir('bench/results', { recursive: true });
await writeFile('bench/results/backup.json', `${JSON.stringify(figures, null, 2)}\n`);
await rm(root, { recursive: true, force: true });
