import { createElement as h } from 'react';
import type { DashboardState } from '../dashboard-state.ts';
import { bytes, duration, fallbacks, percent, safe } from '../format.ts';
import { Pane, Row } from './pane.ts';
import type { Theme } from './theme.ts';

/** Phase, uptime, host figures, backends and the fallbacks in use. */
export function StatusPane(props: {
  state: DashboardState;
  width: number;
  height: number;
  theme: Theme;
}) {
  const { status } = props.state;
  const w = props.width;
  if (!status)
    return h(
      Pane,
      { title: 'Status', width: w, height: props.height, theme: props.theme },
      h(Row, {
        text:
          props.state.connection === 'unreachable'
            ? 'no gateway yet: run hearth start'
            : 'waiting for the gateway…',
        width: w,
      }),
    );
  const used = fallbacks(status.backends);
  const host = status.host;
  const notReady = status.model_ready?.ok === false ? status.model_ready.detail : null;
  return h(
    Pane,
    { title: 'Status', width: w, height: props.height, theme: props.theme },
    // Why no model can answer comes first, in place of the last row (the fallbacks).
    notReady === null
      ? null
      : h(Row, {
          text: `model: ${safe(notReady.replace(/^no model can answer: /, ''))}`,
          width: w,
          color: props.theme.warn,
        }),
    h(Row, {
      text: `${safe(status.status)} · phase ${safe(status.init_phase)} · up ${duration(status.uptime_seconds)} · ${status.active_sessions ?? '?'} live`,
      width: w,
      color: status.status === 'ok' ? props.theme.ok : props.theme.bad,
    }),
    status.init_error
      ? h(Row, { text: `error: ${safe(status.init_error)}`, width: w, color: props.theme.bad })
      : null,
    h(Row, {
      text: `cpu ${percent(host.cpu_percent)} · rss ${bytes(host.memory_rss_bytes)} · disk ${percent(host.disk_usage_percent)}`,
      width: w,
    }),
    h(Row, {
      text: `disk free ${bytes(host.disk_free_bytes)} · runtime ${status.runtime_available ? 'ready' : 'not ready'}`,
      width: w,
    }),
    h(Row, {
      text: `backends ${
        Object.entries(status.backends)
          .map(([k, v]) => `${safe(k)}=${safe(v)}`)
          .join(' ') || 'none yet'
      }`,
      width: w,
      dim: props.theme.styled,
    }),
    notReady === null
      ? h(Row, {
          text: fallbackLine(used, w),
          width: w,
          color: used.length === 0 ? props.theme.ok : props.theme.warn,
        })
      : null,
  );
}

/** The active fallbacks with their kinds, or only their names when that does not fit. */
function fallbackLine(used: [string, string][], width: number): string {
  if (used.length === 0) return 'fallbacks: none active';
  const full = `fallbacks: ${used.map(([k, v]) => `${safe(k)} (${safe(v)})`).join(', ')}`;
  return full.length <= width ? full : `fallbacks: ${used.map(([k]) => safe(k)).join(', ')}`;
}
