import { Cron } from 'croner';
import type { Logger } from 'pino';
import type { Summarise } from './compaction.ts';
import { HEARTH_ORIGIN, leastTrusted } from './origin.ts';
import type { LongTermMemory, MemoryEntry, NewMemoryEntry } from './ports.ts';

export interface ArchivalDeps {
  longTerm: () => LongTermMemory;
  summarise: Summarise;
  store: (entry: Omit<NewMemoryEntry, 'embedding'>) => Promise<MemoryEntry>;
  removeEntries: (ids: readonly number[]) => Promise<number>;
  logger: Logger;
  /** Epoch milliseconds. */
  now: () => number;
}

export interface ArchivalResult {
  sessions: number;
  condensed: number;
  failed: number;
}

/**
 * Condenses sessions inactive for `days` (default 30) or more: each session's rows become one
 * 'archive' row holding an LLM summary (importance = the highest of the originals, origin the
 * least trusted of them); the originals are deleted only after the archive row is stored. A
 * session whose summary fails is left untouched and counted in `failed`.
 */
export async function archiveInactiveSessions(
  deps: ArchivalDeps,
  days = 30,
): Promise<ArchivalResult> {
  const cutoff = deps.now() / 1000 - days * 86_400;
  const result: ArchivalResult = { sessions: 0, condensed: 0, failed: 0 };
  for (const session of await deps.longTerm().sessions()) {
    // Inactive for `days` or more: the last activity is at or before the cutoff.
    if (session.last_active > cutoff) continue;
    const entries = (
      await deps.longTerm().list({ session_id: session.session_id, limit: 100_000 })
    ).filter((e) => e.type !== 'archive');
    if (entries.length < 2) continue;
    result.sessions += 1;
    try {
      const oldestFirst = entries.slice().reverse();
      const text = oldestFirst.map((e) => e.content).join('\n---\n');
      const summary = (await deps.summarise(text)).trim();
      if (summary === '') throw new Error('empty summary');
      await deps.store({
        session_id: session.session_id,
        content: summary,
        type: 'archive',
        importance_score: Math.max(...entries.map((e) => e.importance_score)),
        tags: [...new Set(entries.flatMap((e) => e.tags))],
        // Hearth's writing from the rows: the least trusted of them (untrusted sources joined).
        origin: leastTrusted([HEARTH_ORIGIN, ...oldestFirst.map((e) => e.origin)]),
      });
      result.condensed += await deps.removeEntries(entries.map((e) => e.id));
    } catch (error) {
      result.failed += 1;
      deps.logger.warn(
        {
          session: session.session_id,
          err: error instanceof Error ? error.message : String(error),
        },
        'archival failed',
      );
    }
  }
  deps.logger.info(result, 'archival finished');
  return result;
}

export interface DailyMemoryJobDeps extends ArchivalDeps {
  /** Deletes the long-term rows created more than `days` ago from every tier; count removed. */
  expireOlderThan: (days: number) => Promise<number>;
  /** `[memory] long_term_days`; 0 keeps long-term memories forever. */
  longTermDays: number;
}

export interface DailyMemoryJobResult {
  /** Null when retention failed (logged); archival still ran. */
  retention: { days: number; removed: number } | null;
  archival: ArchivalResult;
}

/**
 * The daily memory job: retention first (rows past `long_term_days` are deleted, not condensed
 * into a fresh archive row that would outlive them), then archival of inactive sessions.
 */
export async function runDailyMemoryJob(deps: DailyMemoryJobDeps): Promise<DailyMemoryJobResult> {
  let retention: DailyMemoryJobResult['retention'] = null;
  try {
    const removed = await deps.expireOlderThan(deps.longTermDays);
    retention = { days: deps.longTermDays, removed };
    deps.logger.info(retention, 'retention finished');
  } catch (error) {
    deps.logger.error(
      { err: error instanceof Error ? error.message : String(error), days: deps.longTermDays },
      'retention failed',
    );
  }
  return { retention, archival: await archiveInactiveSessions(deps) };
}

/** The daily memory job's schedule: `nextRun()` is null once stopped. */
export interface DailySchedule {
  stop(): void;
  nextRun(): Date | null;
}

/** Runs the daily memory job at 03:00 local time; `stop()` cancels it. */
export function scheduleArchival(run: () => Promise<unknown>, logger: Logger): DailySchedule {
  const job = new Cron('0 3 * * *', { protect: true }, async () => {
    try {
      await run();
    } catch (error) {
      logger.error({ err: error }, 'scheduled archival failed');
    }
  });
  return { stop: () => job.stop(), nextRun: () => job.nextRun() };
}

/** `backends.memory_job` in GET /status: when the daily job runs (and next runs, ISO 8601, UTC). */
export function dailyJobStatus(schedule: DailySchedule | undefined): Record<string, string> {
  if (!schedule) return {};
  const next = schedule.nextRun();
  return {
    memory_job: next
      ? `daily at 03:00 local time and at start; next ${next.toISOString()}`
      : 'stopped',
  };
}
