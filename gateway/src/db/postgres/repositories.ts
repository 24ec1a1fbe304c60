import { orm } from '../drizzle.ts';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { nowEpochSeconds, toJsonText } from '../json-text.ts';
import type { AllowlistRepository, SettingsRepository } from '../database.ts';
import { allowlist, settings } from './schema.ts';

const { asc, eq, sql } = orm;

export type PostgresDrizzle = NodePgDatabase;

/** allowlist.id is a PostgreSQL `integer`; anything outside it cannot name an entry. */
const MAX_INTEGER_ID = 2_147_483_647;

export function postgresSettingsRepository(db: PostgresDrizzle): SettingsRepository {
  return {
    async get(key) {
      const rows = await db
        .select({ value: settings.value })
        .from(settings)
        .where(eq(settings.key, key));
      return rows[0]?.value;
    },
    async set(key, value) {
      const json = sql`${toJsonText(value)}::jsonb`;
      const updatedAt = nowEpochSeconds();
      await db
        .insert(settings)
        .values({ key, value: json, updatedAt })
        .onConflictDoUpdate({ target: settings.key, set: { value: json, updatedAt } });
    },
    async delete(key) {
      const rows = await db
        .delete(settings)
        .where(eq(settings.key, key))
        .returning({ key: settings.key });
      return rows.length > 0;
    },
    async all() {
      const rows = await db
        .select({ key: settings.key, value: settings.value })
        .from(settings)
        .orderBy(asc(settings.key));
      return Object.fromEntries(rows.map((row) => [row.key, row.value]));
    },
  };
}

const entryColumns = {
  id: allowlist.id,
  pattern: allowlist.pattern,
  arg_pattern: allowlist.argPattern,
  directory: allowlist.directory,
  created_at: allowlist.createdAt,
};

export function postgresAllowlistRepository(db: PostgresDrizzle): AllowlistRepository {
  return {
    list: () => db.select(entryColumns).from(allowlist).orderBy(asc(allowlist.id)),
    async add(entry) {
      const rows = await db
        .insert(allowlist)
        .values({
          pattern: entry.pattern,
          argPattern: entry.arg_pattern ?? null,
          directory: entry.directory ?? null,
          createdAt: nowEpochSeconds(),
        })
        .returning(entryColumns);
      const row = rows[0];
      if (row === undefined)
        throw new Error('PostgreSQL returned no row for the new allowlist entry.');
      return row;
    },
    async remove(id) {
      if (!Number.isInteger(id) || id < 1 || id > MAX_INTEGER_ID) return false;
      const rows = await db
        .delete(allowlist)
        .where(eq(allowlist.id, id))
        .returning({ id: allowlist.id });
      return rows.length > 0;
    },
  };
}
