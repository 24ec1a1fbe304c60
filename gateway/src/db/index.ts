export type {
  AllowlistEntry,
  AllowlistRepository,
  Database,
  DatabaseKind,
  KeywordSearchInfo,
  OpenDatabase,
  SettingsRepository,
} from './database.ts';
export { openDatabase } from './open-database.ts';
export { openPostgresDatabase } from './postgres/open-postgres.ts';
export type { PostgresOptions } from './postgres/open-postgres.ts';
export { openSqliteDatabase } from './sqlite/open-sqlite.ts';
export type { SqliteOptions } from './sqlite/open-sqlite.ts';
