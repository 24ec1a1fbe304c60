/**
 * PostgreSQL tables of the long-term store, the same shape as ../sqlite/schema.ts. To extend:
 * add tables here and there, then `npm run db:generate -- --name <what>` from the repo root
 * writes the next versioned migration into gateway/drizzle/pg; commit it with the schema change.
 */
import { orm, pgCore } from '../drizzle.ts';

const { sql } = orm;
const { bigint, customType, integer, pgTable, text } = pgCore;

const epochSecondsNow = sql`(extract(epoch from now()))::bigint`;

/**
 * jsonb handed back exactly as node-postgres parsed it. Drizzle's own `jsonb` JSON.parses any
 * string it reads again, so the stored JSON string "123" would come back as the number 123.
 */
const jsonValue = customType<{ data: unknown; driverData: unknown }>({
  dataType: () => 'jsonb',
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => value,
});

/** Non-secret runtime settings: one JSON document per key. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonValue('value').notNull(),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull().default(epochSecondsNow),
});

/** Approval allowlist entries; identity ids are never reused. */
export const allowlist = pgTable('allowlist', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  pattern: text('pattern').notNull(),
  argPattern: text('arg_pattern'),
  createdAt: bigint('created_at', { mode: 'number' }).notNull().default(epochSecondsNow),
});
