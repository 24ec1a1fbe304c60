/** Short, fixed-width renderings for the dashboard's panes (pure functions). */
import { showControls } from '@hearth/gateway/show-controls';

/** Text from the gateway made safe to print: controls and bidi marks shown as escapes. */
export const safe = (text: string): string => showControls(text);

export function duration(seconds: number | null): string {
  if (seconds === null) return '?';
  const s = Math.floor(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3_600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  if (s < 86_400) return `${Math.floor(s / 3_600)}h ${Math.floor((s % 3_600) / 60)}m`;
  return `${Math.floor(s / 86_400)}d ${Math.floor((s % 86_400) / 3_600)}h`;
}

export function bytes(value: number | null): string {
  if (value === null) return '?';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = value;
  let unit = 0;
  while (v >= 1024 && unit < units.length - 1) {
    v /= 1024;
    unit += 1;
  }
  return `${v >= 10 || unit === 0 ? Math.round(v) : v.toFixed(1)} ${units[unit]}`;
}

export function percent(value: number | null): string {
  return value === null ? '?' : `${value.toFixed(1)}%`;
}

export function tokens(value: number): string {
  if (value < 1_000) return String(value);
  if (value < 1_000_000) return `${(value / 1_000).toFixed(1)}k`;
  return `${(value / 1_000_000).toFixed(1)}M`;
}

/** Spec rule 13: an unpriced model has no cost (never shown as $0). */
export function cost(value: number | null): string {
  if (value === null) return 'unpriced';
  return value < 0.01 && value > 0 ? `$${value.toFixed(4)}` : `$${value.toFixed(2)}`;
}

/** `text` cut to `width` columns with an ellipsis. */
export function fit(text: string, width: number): string {
  if (width <= 0) return '';
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/** HH:MM:SS of an ISO time (UTC), or the text as is when it is not one. */
export function clock(iso: string): string {
  const match = /T(\d\d:\d\d:\d\d)/.exec(iso);
  return match?.[1] ?? iso.slice(0, 8);
}

/** Backend kinds that mean a fallback or a missing part (shown as "active fallbacks"). */
const FALLBACK = /in-process|in-memory|unavailable|none|not loaded|local|fallback/i;

export function fallbacks(backends: Record<string, string>): [string, string][] {
  return Object.entries(backends).filter(([, kind]) => FALLBACK.test(kind));
}
