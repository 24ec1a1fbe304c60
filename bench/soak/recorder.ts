/**
 * What the soak's traffic did: per kind, operations that succeeded (with their latency) and
 * failed, per sampling interval and in all; the first failures with their message.
 */
import { percentile } from '../process.ts';

export interface KindFigures {
  ok: number;
  failed: number;
  p50_ms: number | null;
  p95_ms: number | null;
}

export interface Failure {
  at_s: number;
  kind: string;
  detail: string;
}

const KEPT_FAILURES = 50;

function figures(ok: number, failed: number, durations: number[]): KindFigures {
  const sorted = [...durations].sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    ok,
    failed,
    p50_ms: sorted.length > 0 ? round(percentile(sorted, 50)) : null,
    p95_ms: sorted.length > 0 ? round(percentile(sorted, 95)) : null,
  };
}

export function createRecorder(startedAt: number) {
  interface Tally {
    ok: number;
    failed: number;
    durations: number[];
  }
  const interval = new Map<string, Tally>();
  const total = new Map<string, Tally>();
  const failures: Failure[] = [];
  let failed = 0;

  const tallyOf = <T extends Tally>(map: Map<string, T>, kind: string, fresh: () => T): T => {
    let tally = map.get(kind);
    if (!tally) {
      tally = fresh();
      map.set(kind, tally);
    }
    return tally;
  };
  const emptyTally = () => ({ ok: 0, failed: 0, durations: [] as number[] });

  return {
    ok(kind: string, ms: number): void {
      const now = tallyOf(interval, kind, emptyTally);
      now.ok += 1;
      now.durations.push(ms);
      const all = tallyOf(total, kind, emptyTally);
      all.ok += 1;
      // Keeps the total's latencies bounded: every 4th sample once it holds 50k.
      if (all.durations.length < 50_000 || all.ok % 4 === 0) all.durations.push(ms);
    },
    fail(kind: string, error: unknown): void {
      failed += 1;
      tallyOf(interval, kind, emptyTally).failed += 1;
      tallyOf(total, kind, emptyTally).failed += 1;
      if (failures.length < KEPT_FAILURES)
        failures.push({
          at_s: Math.round((performance.now() - startedAt) / 100) / 10,
          kind,
          detail: (error instanceof Error ? error.message : String(error)).slice(0, 500),
        });
    },
    /** The interval's figures by kind, and a new interval. */
    takeInterval(): Record<string, KindFigures> {
      const out: Record<string, KindFigures> = {};
      for (const [kind, tally] of interval)
        out[kind] = figures(tally.ok, tally.failed, tally.durations);
      interval.clear();
      return out;
    },
    totals(): Record<string, KindFigures> {
      const out: Record<string, KindFigures> = {};
      for (const [kind, tally] of [...total].sort(([a], [b]) => a.localeCompare(b)))
        out[kind] = figures(tally.ok, tally.failed, tally.durations);
      return out;
    },
    failed: () => failed,
    failures: () => failures,
  };
}

export type Recorder = ReturnType<typeof createRecorder>;
