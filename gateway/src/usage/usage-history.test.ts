/**
 * The persisted usage time series over the real SQLite store: generations land in their UTC
 * hour per provider and model, read back in hour or day buckets with totals, and rows older
 * than the retention are pruned.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteDatabase } from '../db/sqlite/open-sqlite.ts';
import type { Database } from '../db/ports.ts';
import { capturingLogger } from '../observability/testing/log-capture.ts';
import {
  MAX_MODEL_ID_CHARS,
  USAGE_HISTORY_RETENTION_DAYS,
  createUsageHistory,
} from './usage-history.ts';
import type { GenerationRecord } from './usage-tracker.ts';

const HOUR = 3600;
const DAY = 86_400;
/** 2026-03-10T00:00:00Z, a day boundary. */
const MIDNIGHT = Date.UTC(2026, 2, 10) / 1000;

function generation(patch: Partial<GenerationRecord> = {}): GenerationRecord {
  return {
    provider: 'openai',
    modelId: 'gpt-4o',
    nativeModelId: 'gpt-4o',
    pricing: 'table',
    inputTokens: 100,
    outputTokens: 10,
    ...patch,
  };
}

describe('usage history', () => {
  let db: Database;
  let now = MIDNIGHT;
  const history = () =>
    createUsageHistory({
      store: () => db.usageHistory,
      now: () => now,
      logger: capturingLogger().logger,
    });

  beforeEach(async () => {
    db = await openSqliteDatabase(':memory:');
    now = MIDNIGHT;
  });
  afterEach(async () => {
    await db.close();
  });

  it('adds generations to their UTC hour per provider and model, and reads hours and days', async () => {
    const recorder = history();
    now = MIDNIGHT - 10; // 23:59:50 the day before
    recorder.record(generation(), 0.001);
    now = MIDNIGHT + 5; // 00:00:05
    recorder.record(generation(), 0.001);
    now = MIDNIGHT + 1800; // 00:30
    recorder.record(generation({ inputTokens: 50, outputTokens: 5 }), 0.0005);
    recorder.record(
      generation({ provider: 'ollama', modelId: 'ollama/llama3.2', pricing: 'free' }),
      0,
    );
    recorder.record(
      generation({ provider: 'azure', modelId: 'azure/x', pricing: 'unpriced' }),
      null,
    );
    now = MIDNIGHT + 2 * HOUR + 1;

    const hours = await recorder.read(1, 'hour');
    expect(hours.bucket).toBe('hour');
    expect(hours.to).toBe(MIDNIGHT + 3 * HOUR);
    expect(hours.from).toBe(MIDNIGHT + 3 * HOUR - DAY);
    const openai = hours.points.filter((point) => point.provider === 'openai');
    expect(openai).toEqual([
      {
        start: MIDNIGHT - HOUR,
        provider: 'openai',
        model: 'gpt-4o',
        input_tokens: 100,
        output_tokens: 10,
        cost_usd: 0.001,
        requests: 1,
        unpriced_requests: 0,
      },
      {
        start: MIDNIGHT,
        provider: 'openai',
        model: 'gpt-4o',
        input_tokens: 150,
        output_tokens: 15,
        cost_usd: 0.0015,
        requests: 2,
        unpriced_requests: 0,
      },
    ]);
    expect(hours.points.find((point) => point.provider === 'azure')).toMatchObject({
      cost_usd: 0,
      requests: 1,
      unpriced_requests: 1,
    });
    expect(hours.totals).toEqual({
      input_tokens: 450,
      output_tokens: 45,
      cost_usd: 0.0025,
      requests: 5,
      unpriced_requests: 1,
    });

    const days = await recorder.read(2, 'day');
    expect(days.from).toBe(MIDNIGHT - DAY);
    expect(days.to).toBe(MIDNIGHT + DAY);
    const daily = days.points.filter((point) => point.provider === 'openai');
    expect(daily.map((point) => [point.start, point.requests])).toEqual([
      [MIDNIGHT - DAY, 1],
      [MIDNIGHT, 2],
    ]);
    // One day back holds only today.
    const today = await recorder.read(1, 'day');
    expect(today.totals.requests).toBe(4);
  });

  it('persists: a second recorder over the same store reads what the first wrote', async () => {
    const first = history();
    first.record(generation(), 0.002);
    await first.flush();
    const second = history();
    expect((await second.read(1, 'day')).totals).toMatchObject({ requests: 1, cost_usd: 0.002 });
  });

  it('prunes hours older than the retention, keeping the rest', async () => {
    const recorder = history();
    now = MIDNIGHT - (USAGE_HISTORY_RETENTION_DAYS + 1) * DAY;
    recorder.record(generation(), 0.001);
    now = MIDNIGHT - (USAGE_HISTORY_RETENTION_DAYS - 1) * DAY;
    recorder.record(generation(), 0.001);
    await recorder.flush();
    now = MIDNIGHT;
    expect(await recorder.prune()).toBe(1);
    expect(await db.usageHistory.range(0, MIDNIGHT + DAY)).toHaveLength(1);
  });

  it('cuts an overlong model id and keeps odd text as data', async () => {
    const recorder = history();
    const hostile = `<img src=x onerror=alert(1)>'; DROP TABLE usage_hourly; --${'m'.repeat(5000)}`;
    recorder.record(generation({ modelId: hostile }), 0.001);
    recorder.record(generation({ inputTokens: -5, outputTokens: 2.7 }), 0.001);
    const read = await recorder.read(1, 'hour');
    const models = read.points.map((point) => point.model);
    expect(models).toContain(hostile.slice(0, MAX_MODEL_ID_CHARS));
    expect(models.every((model) => model.length <= MAX_MODEL_ID_CHARS)).toBe(true);
    expect(read.points.find((point) => point.model === 'gpt-4o')).toMatchObject({
      input_tokens: 0,
      output_tokens: 2,
    });
  });

  it('logs and goes on when the store is not there yet', async () => {
    const capture = capturingLogger();
    const recorder = createUsageHistory({
      store: () => {
        throw new Error('The database is starting');
      },
      now: () => now,
      logger: capture.logger,
    });
    recorder.record(generation(), 0.001);
    await recorder.flush();
    expect(capture.warnings().map((line) => line.msg)).toEqual([
      'usage history: a generation was not recorded',
    ]);
  });
});
