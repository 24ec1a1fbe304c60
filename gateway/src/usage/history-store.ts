/**
 * The persisted usage time series as the usage area sees it: hourly rows per provider and
 * model, kept by the long-term store (`usage_hourly`, SQLite or PostgreSQL).
 */

/** One hour of one provider's model: its start (epoch seconds, UTC, a multiple of 3600). */
export interface UsageHourRow {
  hour: number;
  provider: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  /** Priced cost in USD (unpriced generations add nothing). */
  cost_usd: number;
  /** Generations counted. */
  requests: number;
  /** Generations whose model has no price. */
  unpriced: number;
}

export interface UsageHistoryStore {
  /** Adds the row's counters to its (hour, provider, model) row, creating it when missing. */
  add(row: UsageHourRow): Promise<void>;
  /** Rows with `from <= hour < to`, oldest first. */
  range(from: number, to: number): Promise<UsageHourRow[]>;
  /** Deletes rows with `hour < before`; returns how many. */
  prune(before: number): Promise<number>;
}
