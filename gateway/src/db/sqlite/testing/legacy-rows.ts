import BetterSqlite3 from 'better-sqlite3';

/**
 * Makes a memory row of the SQLite store at `file` look like one written before provenance was
 * kept (its `origin` NULL, as migration 0006_memory_origin leaves older rows), through a
 * connection of its own.
 */
export function forgetSqliteOrigin(file: string, id: number): Promise<void> {
  const raw = new BetterSqlite3(file);
  try {
    raw.prepare('update memory_entries set origin = null where id = ?').run(id);
  } finally {
    raw.close();
  }
  return Promise.resolve();
}
