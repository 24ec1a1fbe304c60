/**
 * drizzle-orm, loaded through its CommonJS build. Node 24's ESM loader re-reads drizzle-orm's
 * 175 KB package.json for each of the ~450 modules it imports (measured: ≈400 ms and ≈150 MB
 * of heap at start-up); the CommonJS build loads in ≈50 ms and ≈10 MB. Every drizzle import of
 * the gateway goes through this file, so the workaround lives in one place. Types come from
 * the ESM declarations as usual.
 */
import { createRequire } from 'node:module';
import type * as Orm from 'drizzle-orm';
import type * as BetterSqlite3Driver from 'drizzle-orm/better-sqlite3';
import type * as BetterSqlite3Migrator from 'drizzle-orm/better-sqlite3/migrator';
import type * as NodePostgresDriver from 'drizzle-orm/node-postgres';
import type * as NodePostgresMigrator from 'drizzle-orm/node-postgres/migrator';
import type * as PgCore from 'drizzle-orm/pg-core';
import type * as SqliteCore from 'drizzle-orm/sqlite-core';

const require = createRequire(import.meta.url);

export const orm = require('drizzle-orm') as typeof Orm;
export const sqliteCore = require('drizzle-orm/sqlite-core') as typeof SqliteCore;
/** PostgreSQL's column builders, loaded only by the PostgreSQL schema (never with SQLite). */
export const loadPgCore = () => require('drizzle-orm/pg-core') as typeof PgCore;

/** Drivers and migrators are loaded when a store of that kind is opened. */
export const loadBetterSqlite3 = () => ({
  driver: require('drizzle-orm/better-sqlite3') as typeof BetterSqlite3Driver,
  migrator: require('drizzle-orm/better-sqlite3/migrator') as typeof BetterSqlite3Migrator,
});
export const loadNodePostgres = () => ({
  driver: require('drizzle-orm/node-postgres') as typeof NodePostgresDriver,
  migrator: require('drizzle-orm/node-postgres/migrator') as typeof NodePostgresMigrator,
});
