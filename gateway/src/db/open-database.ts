import type { Database } from './database.ts';

const POSTGRES_URL = /^postgres(ql)?:\/\//;

/**
 * `postgres://` or `postgresql://` opens PostgreSQL; anything else is a SQLite file path.
 * Each adapter (and its driver) is loaded only when a store of its kind is opened.
 */
export async function openDatabase(location: string): Promise<Database> {
  if (POSTGRES_URL.test(location)) {
    const { openPostgresDatabase } = await import('./postgres/open-postgres.ts');
    return openPostgresDatabase(location);
  }
  const { openSqliteDatabase } = await import('./sqlite/open-sqlite.ts');
  return openSqliteDatabase(location);
}
