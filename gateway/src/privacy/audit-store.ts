import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { AuditReport, ClearResult, EgressEntry } from './types.ts';

export const RETENTION_DAYS = 90;
export const DEFAULT_ENTRY_LIMIT = 1000;
const DAY_SECONDS = 86_400;
const DAY_MS = DAY_SECONDS * 1000;

export interface AuditStoreOptions {
  /** Epoch seconds; defaults to the system clock. */
  now?: () => number;
  /** Rows older than this are pruned on open and then every `pruneEveryMs`. */
  retentionDays?: number;
  pruneEveryMs?: number;
  /** At most this many entries in a report (newest first); `total` still counts all. */
  entryLimit?: number;
}

export interface AuditStore {
  readonly location: string;
  record(entry: EgressEntry): void;
  /** `sessionId` null reports every session. */
  report(sessionId: string | null): AuditReport;
  /** `sessionId` null clears every session. */
  clear(sessionId: string | null): ClearResult;
  /** Deletes rows older than `olderThanDays` before `now` (epoch seconds); returns the count. */
  prune(olderThanDays?: number, now?: number): number;
  close(): void;
}

const IN_MEMORY = ':memory:';

const schema = `
  CREATE TABLE IF NOT EXISTS egress (
    id INTEGER PRIMARY KEY,
    session_id TEXT NULL,
    method TEXT NOT NULL,
    url TEXT NOT NULL,
    destination TEXT NOT NULL,
    timestamp REAL NOT NULL,
    source TEXT NULL,
    refused TEXT NULL
  );
  CREATE INDEX IF NOT EXISTS egress_session_id ON egress (session_id);
  CREATE INDEX IF NOT EXISTS egress_timestamp ON egress (timestamp);
`;

/**
 * The privacy audit's own small SQLite file (not the main store, no migrations: one table
 * created with plain SQL). The parent folder is created with mode 0700 and the file is kept at
 * 0600; SQLite gives its -wal/-shm files the same mode. Opening is synchronous.
 */
export function openAuditStore(file: string, options: AuditStoreOptions = {}): AuditStore {
  const now = options.now ?? (() => Date.now() / 1000);
  const retentionDays = options.retentionDays ?? RETENTION_DAYS;
  const entryLimit = options.entryLimit ?? DEFAULT_ENTRY_LIMIT;
  const location = file === IN_MEMORY ? IN_MEMORY : resolve(file);
  if (location !== IN_MEMORY) prepareFile(location);

  const db = new BetterSqlite3(location);
  try {
    if (location !== IN_MEMORY) db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = NORMAL');
    db.exec(schema);
    addMissingColumns(db);
  } catch (error) {
    db.close();
    throw new Error(`Cannot open the privacy audit database at ${location}`, { cause: error });
  }

  const insert = db.prepare<
    [string | null, string, string, string, number, string | null, string | null]
  >(
    'INSERT INTO egress (session_id, method, url, destination, timestamp, source, refused) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const countAll = db.prepare<[], { total: number }>('SELECT count(*) AS total FROM egress');
  const countSession = db.prepare<[string], { total: number }>(
    'SELECT count(*) AS total FROM egress WHERE session_id = ?',
  );
  const destinationsAll = db.prepare<[], { destination: string }>(
    'SELECT DISTINCT destination FROM egress ORDER BY destination',
  );
  const destinationsSession = db.prepare<[string], { destination: string }>(
    'SELECT DISTINCT destination FROM egress WHERE session_id = ? ORDER BY destination',
  );
  const columns = 'session_id, method, url, destination, timestamp, source, refused';
  const entriesAll = db.prepare<[number], Required<EgressEntry>>(
    `SELECT ${columns} FROM egress ORDER BY timestamp DESC, id DESC LIMIT ?`,
  );
  const entriesSession = db.prepare<[string, number], Required<EgressEntry>>(
    `SELECT ${columns} FROM egress WHERE session_id = ? ORDER BY timestamp DESC, id DESC LIMIT ?`,
  );
  const deleteAll = db.prepare('DELETE FROM egress');
  const deleteSession = db.prepare<[string]>('DELETE FROM egress WHERE session_id = ?');
  const deleteBefore = db.prepare<[number]>('DELETE FROM egress WHERE timestamp < ?');

  const readReport = db.transaction((sessionId: string | null): AuditReport => {
    const total = sessionId === null ? countAll.get()?.total : countSession.get(sessionId)?.total;
    const destinations =
      sessionId === null ? destinationsAll.all() : destinationsSession.all(sessionId);
    const entries =
      sessionId === null ? entriesAll.all(entryLimit) : entriesSession.all(sessionId, entryLimit);
    return {
      session_id: sessionId,
      total: total ?? 0,
      unique_destinations: destinations.map((row) => row.destination),
      entries,
    };
  });

  function prune(olderThanDays = retentionDays, at = now()): number {
    return deleteBefore.run(at - olderThanDays * DAY_SECONDS).changes;
  }

  prune();
  const timer = setInterval(() => {
    try {
      prune();
    } catch {
      // A failed prune is retried at the next interval.
    }
  }, options.pruneEveryMs ?? DAY_MS);
  timer.unref();

  let closed = false;
  return {
    location,
    record(entry) {
      insert.run(
        entry.session_id,
        entry.method,
        entry.url,
        entry.destination,
        entry.timestamp,
        entry.source ?? null,
        entry.refused ?? null,
      );
    },
    report: (sessionId) => readReport(sessionId),
    clear(sessionId) {
      const result = sessionId === null ? deleteAll.run() : deleteSession.run(sessionId);
      return { cleared: result.changes, session_id: sessionId };
    },
    prune,
    close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      db.close();
    },
  };
}

/** A database written before `source` and `refused` existed gets them (null in old rows). */
function addMissingColumns(db: BetterSqlite3.Database): void {
  const present = new Set(
    (db.prepare('PRAGMA table_info(egress)').all() as { name: string }[]).map((row) => row.name),
  );
  for (const column of ['source', 'refused'])
    if (!present.has(column)) db.exec(`ALTER TABLE egress ADD COLUMN ${column} TEXT NULL`);
}

function prepareFile(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}
