import { orm } from '../drizzle.ts';
import type { UsageHistoryStore } from '../../usage/ports.ts';
import type { PostgresDrizzle } from './repositories.ts';
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

/** The `usage_hourly` table of the PostgreSQL store. */
export function postgresUsageHistoryStore(db: PostgresDrizzle): UsageHistoryStore {
  return {
    async add(row) {
      await db
        .insert(usageHourly)
        .values({
          hour: row.hour,
          provider: row.provider,
          model: row.model,
          inputTokens: row.input_tokens,
          outputTokens: row.output_tokens,
          costUsd: row.cost_usd,
          requests: row.requests,
          unpriced: row.unpriced,
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
        });
    },
    range: (from, to) =>
      db
        .select(columns)
        .from(usageHourly)
        .where(and(gte(usageHourly.hour, from), lt(usageHourly.hour, to)))
        .orderBy(asc(usageHourly.hour), asc(usageHourly.provider), asc(usageHourly.model)),
    async prune(before) {
      const result = await db.delete(usageHourly).where(lt(usageHourly.hour, before));
      return result.rowCount ?? 0;
    },
  };
}
