import { open } from 'node:fs/promises';
import Database from 'better-sqlite3';

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

/** True when the file starts with SQLite's header (a database, whatever its name). */
export async function isSqliteFile(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(SQLITE_MAGIC.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return bytesRead === head.length && head.equals(SQLITE_MAGIC);
  } finally {
    await handle.close();
  }
}

const ALL_PAGES = 0x7fffffff;

/**
 * Read-only when SQLite can (a WAL database whose -shm is missing cannot be opened read-only
 * on every platform; a read-write connection that writes nothing is the fallback).
 */
function openForReading(path: string): Database.Database {
  try {
    return new Database(path, { readonly: true, fileMustExist: true });
  } catch {
    return new Database(path, { fileMustExist: true });
  }
}

/**
 * A consistent copy of a live database through SQLite's online backup API, from a read-only
 * connection of this process: it sees one committed state even while a gateway writes in WAL
 * mode (a plain file copy of the main file without its -wal would lose or tear transactions).
 * The copy is switched to rollback-journal mode so it is one self-contained file.
 */
export async function snapshotSqlite(source: string, destination: string): Promise<void> {
  const db = openForReading(source);
  try {
    db.pragma('busy_timeout = 10000');
    // One step copies every page inside one read transaction: writers carry on in the WAL
    // meanwhile, and the copy never restarts (small steps restart on every foreign write).
    await db.backup(destination, { progress: () => ALL_PAGES });
  } finally {
    db.close();
  }
  const copy = new Database(destination, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/** `PRAGMA integrity_check` of a database file, opened read-only: 'ok' or the problems found. */
export function integrityCheck(path: string): string {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    return rows.map((row) => row.integrity_check).join('; ');
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    db?.close();
  }
}
