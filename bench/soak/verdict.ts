/**
 * The soak's verdict over its per-minute readings, and the table it prints.
 *
 * - errors: no operation failed, the gateway logged no error, stayed up and shut down cleanly;
 * - every kind of traffic ran at least once;
 * - RSS flat: over the last half of the run (the last 30 minutes of an hour), every minute's
 *   RSS (the median of its samples) within ±`rssBandPercent` of the minute that opens that half;
 * - event loop: no minute of that half whose delay p99 exceeds the control process's (the same
 *   measurement in an idle process on the same machine: what scheduling alone costs) by more
 *   than `maxLoopP99Ms`;
 * - descriptors flat: none of that half's readings more than `fdSlack` above the one that opens it.
 */
import type { KindFigures } from './recorder.ts';
import type { ProcessReading } from './samples.ts';

export interface MinuteRow extends ProcessReading {
  minute: number;
  at_s: number;
  /**
   * `rss_mb` is the median of the RSS samples taken every few seconds since the previous
   * reading (the moment of one reading can fall on a garbage-collection peak or trough); the
   * reading's own instant, the interval's lowest and highest beside it.
   */
  rss_now_mb: number;
  rss_min_mb: number;
  rss_max_mb: number;
  rss_samples: number;
  /** Operations during the interval before this reading, by kind. */
  traffic: Record<string, KindFigures>;
  /** The gateway's CPU over the interval, percent of one core. */
  cpu_percent: number | null;
  /** The idle control process's event-loop delay over the interval. */
  control_p99_ms: number | null;
  control_max_ms: number | null;
  /** The machine's 1-minute load average. */
  load: number;
}

export interface Thresholds {
  rssBandPercent: number;
  maxLoopP99Ms: number;
  fdSlack: number;
}

export interface VerdictInput {
  rows: readonly MinuteRow[];
  minutes: number;
  thresholds: Thresholds;
  kinds: readonly string[];
  totals: Record<string, KindFigures>;
  failedOperations: number;
  gatewayLogErrors: number;
  /** Set when the gateway exited before the soak stopped it. */
  gatewayDied: string | null;
  shutdown: { code: number | null; signal: string | null; ms: number } | null;
}

export interface Verdict {
  pass: boolean;
  reasons: string[];
  window: {
    from_minute: number;
    readings: number;
    rss_reference_mb: number | null;
    rss_min_mb: number | null;
    rss_max_mb: number | null;
    rss_drift_percent: number | null;
    rss_spread_percent: number | null;
    loop_p99_max_ms: number | null;
    /** The largest p99 above the control's. */
    loop_p99_excess_max_ms: number | null;
    fds_reference: number | null;
    fds_max: number | null;
  };
}

const pct = (value: number, of: number) => Math.round(((value - of) / of) * 1000) / 10;

export function verdict(input: VerdictInput): Verdict {
  const reasons: string[] = [];
  const { thresholds } = input;
  if (input.failedOperations > 0)
    reasons.push(`${input.failedOperations} operations failed (target 0)`);
  if (input.gatewayLogErrors > 0)
    reasons.push(`the gateway logged ${input.gatewayLogErrors} errors (target 0)`);
  if (input.gatewayDied) reasons.push(`the gateway exited during the soak: ${input.gatewayDied}`);
  if (input.shutdown && (input.shutdown.code !== 0 || input.shutdown.signal !== null))
    reasons.push(
      `the gateway did not shut down cleanly on SIGTERM (code ${input.shutdown.code}, signal ${input.shutdown.signal})`,
    );
  for (const kind of input.kinds)
    if ((input.totals[kind]?.ok ?? 0) === 0) reasons.push(`no successful ${kind} operation`);

  const fromMinute = input.minutes / 2;
  const window = input.rows.filter((row) => row.minute >= fromMinute - 1e-9);
  const reference = window[0];
  const result: Verdict['window'] = {
    from_minute: reference?.minute ?? fromMinute,
    readings: window.length,
    rss_reference_mb: reference?.rss_mb ?? null,
    rss_min_mb: null,
    rss_max_mb: null,
    rss_drift_percent: null,
    rss_spread_percent: null,
    loop_p99_max_ms: null,
    loop_p99_excess_max_ms: null,
    fds_reference: reference?.fds ?? null,
    fds_max: null,
  };
  if (!reference || window.length < 2) {
    reasons.push(`too few readings in the last half to judge (${window.length}; need 2)`);
  } else {
    const rss = window.map((row) => row.rss_mb);
    const low = Math.min(...rss);
    const high = Math.max(...rss);
    result.rss_min_mb = low;
    result.rss_max_mb = high;
    result.rss_drift_percent = pct(window.at(-1)!.rss_mb, reference.rss_mb);
    result.rss_spread_percent = pct(high, low);
    const band = thresholds.rssBandPercent;
    for (const row of window) {
      const off = pct(row.rss_mb, reference.rss_mb);
      if (Math.abs(off) > band)
        reasons.push(
          `RSS at minute ${row.minute}: ${row.rss_mb} MB, ${off > 0 ? '+' : ''}${off} % against ${reference.rss_mb} MB at minute ${reference.minute} (band ±${band} %)`,
        );
    }
    const p99s = window.map((row) => row.loop_p99_ms).filter((v): v is number => v !== null);
    if (p99s.length < window.length)
      reasons.push('the gateway did not report nodejs_eventloop_lag_p99_seconds at every reading');
    if (p99s.length > 0) result.loop_p99_max_ms = Math.max(...p99s);
    for (const row of window) {
      if (row.loop_p99_ms === null) continue;
      const excess = Math.round((row.loop_p99_ms - (row.control_p99_ms ?? 0)) * 100) / 100;
      result.loop_p99_excess_max_ms = Math.max(result.loop_p99_excess_max_ms ?? excess, excess);
      if (excess > thresholds.maxLoopP99Ms)
        reasons.push(
          `event-loop delay p99 at minute ${row.minute}: ${row.loop_p99_ms} ms, ${excess} ms above the control process's ${row.control_p99_ms ?? '(none)'} ms (limit ${thresholds.maxLoopP99Ms} ms)`,
        );
    }
    const fds = window.map((row) => row.fds);
    result.fds_max = Math.max(...fds);
    if (result.fds_max > reference.fds + thresholds.fdSlack)
      reasons.push(
        `open descriptors rose to ${result.fds_max} from ${reference.fds} at minute ${reference.minute} (slack ${thresholds.fdSlack})`,
      );
  }
  return { pass: reasons.length === 0, reasons, window: result };
}

/** Short column names of the traffic kinds in the table. */
const SHORT: Record<string, string> = {
  rest: 'rest',
  ws: 'ws',
  webhook: 'hook',
  telegram: 'tg',
  approval: 'gate',
  skill: 'skill',
  mcp: 'mcp',
  canvas: 'canvas',
  backup: 'bkup',
};

export function tableHeader(kinds: readonly string[]): string {
  return [
    'min'.padStart(5),
    'RSS MB'.padStart(8),
    'max'.padStart(6),
    'anon'.padStart(6),
    'file'.padStart(5),
    'heap'.padStart(6),
    'htot'.padStart(6),
    'old'.padStart(6),
    'lo'.padStart(5),
    'wrk'.padStart(5),
    'ext'.padStart(5),
    'abuf'.padStart(5),
    'mall'.padStart(5),
    'fds'.padStart(5),
    'cpu%'.padStart(5),
    'loop p99'.padStart(9),
    'loop max'.padStart(9),
    'ctl p99'.padStart(8),
    'load'.padStart(5),
    'sess'.padStart(5),
    'res'.padStart(5),
    ...kinds.map((kind) => (SHORT[kind] ?? kind).padStart(6)),
    'failed'.padStart(7),
  ].join(' ');
}

export function tableRow(row: MinuteRow, kinds: readonly string[]): string {
  const num = (value: number | null, digits = 1) => (value === null ? '–' : value.toFixed(digits));
  const failed = Object.values(row.traffic).reduce((sum, figures) => sum + figures.failed, 0);
  return [
    row.minute.toFixed(row.minute % 1 === 0 ? 0 : 2).padStart(5),
    num(row.rss_mb).padStart(8),
    num(row.rss_max_mb).padStart(6),
    num(row.rss_anon_mb).padStart(6),
    num(row.rss_file_mb).padStart(5),
    num(row.heap_used_mb).padStart(6),
    num(row.heap_total_mb).padStart(6),
    num(row.heap_spaces_mb.old_space?.size ?? null).padStart(6),
    num(row.heap_spaces_mb.large_object_space?.size ?? null).padStart(5),
    num(
      Object.keys(row.worker_heaps_mb).length === 0
        ? null
        : Object.values(row.worker_heaps_mb).reduce((a, b) => a + b, 0),
    ).padStart(5),
    num(row.external_mb).padStart(5),
    num(row.array_buffers_mb).padStart(5),
    num(row.malloced_mb).padStart(5),
    String(row.fds).padStart(5),
    num(row.cpu_percent, 0).padStart(5),
    num(row.loop_p99_ms, 2).padStart(9),
    num(row.loop_max_ms, 2).padStart(9),
    num(row.control_p99_ms, 2).padStart(8),
    row.load.toFixed(1).padStart(5),
    num(row.active_sessions, 0).padStart(5),
    num(row.active_resources, 0).padStart(5),
    ...kinds.map((kind) => String(row.traffic[kind]?.ok ?? 0).padStart(6)),
    String(failed).padStart(7),
  ].join(' ');
}
