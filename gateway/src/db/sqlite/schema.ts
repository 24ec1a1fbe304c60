/**
 * SQLite tables of the long-term store. Column names are snake_case in SQL, camelCase in
 * TypeScript. To extend: add tables here (and the same ones in ../postgres/schema.ts), then
 * `npm run db:generate -- --name <what>` from the repo root writes the next versioned
 * migration into gateway/drizzle/sqlite; commit it with the schema change.
 */
import { orm, sqliteCore } from '../drizzle.ts';

const { sql } = orm;
const { check, integer, sqliteTable, text } = sqliteCore;

const epochSecondsNow = sql`(unixepoch())`;

/** Non-secret runtime settings: one JSON document per key. */
export const settings = sqliteTable(
  'settings',
  {
    key: text('key').primaryKey(),
    value: text('value', { mode: 'json' }).$type<unknown>().notNull(),
    updatedAt: integer('updated_at').notNull().default(epochSecondsNow),
  },
  (table) => [check('settings_value_is_json', sql`json_valid(${table.value})`)],
);

/** Approval allowlist entries; ids are never reused (AUTOINCREMENT). */
export const allowlist = sqliteTable('allowlist', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  pattern: text('pattern').notNull(),
  argPattern: text('arg_pattern'),
  createdAt: integer('created_at').notNull().default(epochSecondsNow),
});
