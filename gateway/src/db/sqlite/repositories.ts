import { orm } from '../drizzle.ts';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { nowEpochSeconds, toJsonText } from '../json-text.ts';
import type { AllowlistEntry, AllowlistRepository, SettingsRepository } from '../database.ts';
import { allowlist, settings } from './schema.ts';

const { asc, eq, sql } = orm;

export type SqliteDrizzle = BetterSQLite3Database;

/** better-sqlite3 is synchronous; this keeps the port's promise contract (throws become rejections). */
const settle = <T>(work: () => T): Promise<T> => new Promise((resolve) => resolve(work()));

export function sqliteSettingsRepository(db: SqliteDrizzle): SettingsRepository {
  return {
    get: (key) =>
      settle(
        () =>
          db.select({ value: settings.value }).from(settings).where(eq(settings.key, key)).get()
            ?.value,
      ),
    set: (key, value) =>
      settle(() => {
        const json = sql`${toJsonText(value)}`;
        const updatedAt = nowEpochSeconds();
        db.insert(settings)
          .values({ key, value: json, updatedAt })
          .onConflictDoUpdate({ target: settings.key, set: { value: json, updatedAt } })
          .run();
      }),
    delete: (key) =>
      settle(() => db.delete(settings).where(eq(settings.key, key)).run().changes > 0),
    all: () =>
      settle(() => {
        const rows = db
          .select({ key: settings.key, value: settings.value })
          .from(settings)
          .orderBy(asc(settings.key))
          .all();
        return Object.fromEntries(rows.map((row) => [row.key, row.value]));
      }),
  };
}

const entryColumns = {
  id: allowlist.id,
  pattern: allowlist.pattern,
  arg_pattern: allowlist.argPattern,
  directory: allowlist.directory,
  created_at: allowlist.createdAt,
};

export function sqliteAllowlistRepository(db: SqliteDrizzle): AllowlistRepository {
  return {
    list: () =>
      settle(() => db.select(entryColumns).from(allowlist).orderBy(asc(allowlist.id)).all()),
    add: (entry) =>
      settle(() => {
        const row: AllowlistEntry | undefined = db
          .insert(allowlist)
          .values({
            pattern: entry.pattern,
            argPattern: entry.arg_pattern ?? null,
            directory: entry.directory ?? null,
            createdAt: nowEpochSeconds(),
          })
          .returning(entryColumns)
          .get();
        if (row === undefined)
          throw new Error('SQLite returned no row for the new allowlist entry.');
        return row;
      }),
    remove: (id) =>
      settle(
        () =>
          Number.isSafeInteger(id) &&
          db.delete(allowlist).where(eq(allowlist.id, id)).run().changes > 0,
      ),
  };
}
