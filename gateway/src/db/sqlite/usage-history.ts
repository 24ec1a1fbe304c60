import { orm } from '../drizzle.ts';
import type { UsageHistoryStore } from '../../usage/ports.ts';
import type { DeferredWrites } from './deferred-writes.ts';
import type { SqliteDrizzle } from './repositories.ts';
import { usageHourly } from './schema.ts';

const { and, asc, gte, lt, sql } = orm;

const columns = {
  hour: usageHourly.hour,
  provider: usageHourly.provider,
  model: usageHourly.model,
  input_tokens: usageHourly.inputTokens,
  output_tokens: usageHourly.outputTokens,
  cost_usd: usageHourly.costUsd,
  requests: usageHourly.requests,
  unpriced: usageHourly.unpriced,
};

/** better-sqlite3 is synchronous; this keeps the port's promise contract (throws become rejections). */
const settle = <T>(work: () => T): Promise<T> => new Promise((resolve) => resolve(work()));

/**
 * The `usage_hourly` table of the SQLite store. A generation's row is a deferred write
 * (deferred-writes.ts), committed with the turn's history; reads write what is waiting first.
 */
export function sqliteUsageHistoryStore(
  db: SqliteDrizzle,
  writes: DeferredWrites,
): UsageHistoryStore {
  /**
   * Compiled once: every generation adds its row, and building and preparing the upsert per
   * call cost ~0.8 ms of CPU per chat turn (more than the rest of the turn's writes together).
   */
  const upsert = db
    .insert(usageHourly)
    .values({
      hour: sql.placeholder('hour'),
      provider: sql.placeholder('provider'),
      model: sql.placeholder('model'),
      inputTokens: sql.placeholder('input_tokens'),
      outputTokens: sql.placeholder('output_tokens'),
      costUsd: sql.placeholder('cost_usd'),
      requests: sql.placeholder('requests'),
      unpriced: sql.placeholder('unpriced'),
    })
    .onConflictDoUpdate({
      target: [usageHourly.hour, usageHourly.provider, usageHourly.model],
      set: {
        inputTokens: sql`${usageHourly.inputTokens} + excluded.input_tokens`,
        outputTokens: sql`${usageHourly.outputTokens} + excluded.output_tokens`,
        costUsd: sql`${usageHourly.costUsd} + excluded.cost_usd`,
        requests: sql`${usageHourly.requests} + excluded.requests`,
        unpriced: sql`${usageHourly.unpriced} + excluded.unpriced`,
      },
    })
    .prepare();
  return {
    add: (row) => {
      const values = { ...row };
      return writes.defer(() => {
        upsert.run(values);
      });
    },
    range: (from, to) =>
      settle(() => {
        writes.flush();
        return db
          .select(columns)
          .from(usageHourly)
          .where(and(gte(usageHourly.hour, from), lt(usageHourly.hour, to)))
          .orderBy(asc(usageHourly.hour), asc(usageHourly.provider), asc(usageHourly.model))
          .all();
      }),
    prune: (before) =>
      settle(() => {
        writes.flush();
        return db.delete(usageHourly).where(lt(usageHourly.hour, before)).run().changes;
      }),
  };
}
