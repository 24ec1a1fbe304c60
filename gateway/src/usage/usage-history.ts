import type { Logger } from 'pino';
import type { UsageHistoryStore, UsageHourRow } from './history-store.ts';
import type { GenerationRecord } from './usage-tracker.ts';

/** Hours of usage history kept, in days; older rows are pruned at start and then daily. */
export const USAGE_HISTORY_RETENTION_DAYS = 90;
/** The widest window `GET /usage/history` answers, in days (hourly buckets: `MAX_HOURLY_DAYS`). */
export const MAX_HISTORY_DAYS = USAGE_HISTORY_RETENTION_DAYS;
export const MAX_HOURLY_DAYS = 14;
/** A model id longer than this is cut before it is stored (ids come from config and settings). */
export const MAX_MODEL_ID_CHARS = 200;

const HOUR = 3600;
const DAY = 86_400;

export type UsageBucket = 'hour' | 'day';

export interface UsageHistoryPoint {
  /** Start of the bucket, epoch seconds (UTC). */
  start: number;
  provider: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  requests: number;
  unpriced_requests: number;
}

export interface UsageHistoryTotals {
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  requests: number;
  unpriced_requests: number;
}

export interface UsageHistory {
  bucket: UsageBucket;
  days: number;
  /** The window, epoch seconds: `from` inclusive, `to` exclusive (the end of the current bucket). */
  from: number;
  to: number;
  retention_days: number;
  /** One point per bucket, provider and model that had a generation, oldest first. */
  points: UsageHistoryPoint[];
  totals: UsageHistoryTotals;
}

export interface UsageHistoryDeps {
  /** The store; throws (503) until the database has opened. */
  store: () => UsageHistoryStore;
  /** Epoch seconds. */
  now: () => number;
  logger: Logger;
}

export interface UsageHistoryRecorder {
  /** Adds one generation to its hour (written in the background, in order). */
  record(record: GenerationRecord, cost: number | null): void;
  read(days: number, bucket: UsageBucket): Promise<UsageHistory>;
  /** Deletes the hours older than the retention; returns how many rows went. */
  prune(): Promise<number>;
  /** Resolves once every recorded generation has been written. */
  flush(): Promise<void>;
}

const round = (value: number): number => Math.round(value * 1e8) / 1e8;
const floorTo = (seconds: number, step: number): number => Math.floor(seconds / step) * step;

/** The persisted usage time series: hourly rows per provider and model, read in hour or day buckets. */
export function createUsageHistory(deps: UsageHistoryDeps): UsageHistoryRecorder {
  let pending: Promise<void> = Promise.resolve();

  function record(record: GenerationRecord, cost: number | null): void {
    const row: UsageHourRow = {
      hour: floorTo(deps.now(), HOUR),
      provider: record.provider,
      model: record.modelId.slice(0, MAX_MODEL_ID_CHARS),
      input_tokens: Math.max(0, Math.trunc(record.inputTokens)),
      output_tokens: Math.max(0, Math.trunc(record.outputTokens)),
      cost_usd: cost ?? 0,
      requests: 1,
      unpriced: cost === null ? 1 : 0,
    };
    pending = pending
      .then(() => deps.store().add(row))
      .catch((error: unknown) => {
        deps.logger.warn({ err: error }, 'usage history: a generation was not recorded');
      });
  }

  async function read(days: number, bucket: UsageBucket): Promise<UsageHistory> {
    await pending;
    const step = bucket === 'hour' ? HOUR : DAY;
    const to = floorTo(deps.now(), step) + step;
    const from = to - (bucket === 'hour' ? days * 24 : days) * step;
    const rows = await deps.store().range(from, to);
    const points = new Map<string, UsageHistoryPoint>();
    const totals: UsageHistoryTotals = {
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
      requests: 0,
      unpriced_requests: 0,
    };
    for (const row of rows) {
      const start = floorTo(row.hour, step);
      const key = JSON.stringify([start, row.provider, row.model]);
      const point = points.get(key) ?? {
        start,
        provider: row.provider,
        model: row.model,
        input_tokens: 0,
        output_tokens: 0,
        cost_usd: 0,
        requests: 0,
        unpriced_requests: 0,
      };
      point.input_tokens += row.input_tokens;
      point.output_tokens += row.output_tokens;
      point.cost_usd += row.cost_usd;
      point.requests += row.requests;
      point.unpriced_requests += row.unpriced;
      points.set(key, point);
      totals.input_tokens += row.input_tokens;
      totals.output_tokens += row.output_tokens;
      totals.cost_usd += row.cost_usd;
      totals.requests += row.requests;
      totals.unpriced_requests += row.unpriced;
    }
    return {
      bucket,
      days,
      from,
      to,
      retention_days: USAGE_HISTORY_RETENTION_DAYS,
      points: [...points.values()].map((point) => ({ ...point, cost_usd: round(point.cost_usd) })),
      totals: { ...totals, cost_usd: round(totals.cost_usd) },
    };
  }

  return {
    record,
    read,
    prune: () => deps.store().prune(floorTo(deps.now(), HOUR) - USAGE_HISTORY_RETENTION_DAYS * DAY),
    flush: () => pending,
  };
}
