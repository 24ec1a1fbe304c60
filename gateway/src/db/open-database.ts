import type { Database } from './ports.ts';
import { openPostgresDatabase } from './postgres/open-postgres.ts';
import { openSqliteDatabase } from './sqlite/open-sqlite.ts';

const POSTGRES_URL = /^postgres(ql)?:\/\//;

/** `postgres://` or `postgresql://` opens PostgreSQL; anything else is a SQLite file path. */
export function openDatabase(location: string): Promise<Database> {
  return POSTGRES_URL.test(location)
    ? openPostgresDatabase(location)
    : openSqliteDatabase(location);
}
