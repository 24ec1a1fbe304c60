import { createElement as h } from 'react';
import { secondsLeft, type DashboardState } from '../dashboard-state.ts';
import { safe } from '../format.ts';
import { Pane, Row } from './pane.ts';
import type { Theme } from './theme.ts';

/**
 * Pending approvals with their live countdown (spec: 120 s, then denied). The selected one is
 * marked `>`; the keys act on it. The command is shown with every control character escaped,
 * so what is read is what would run.
 */
export function ApprovalsPane(props: {
  state: DashboardState;
  width: number;
  height: number;
  theme: Theme;
}) {
  const { pending, selected, now } = props.state;
  const w = props.width;
  const rows = Math.max(1, props.height - 2);
  const start = Math.min(Math.max(0, selected - rows + 1), Math.max(0, pending.length - rows));
  return h(
    Pane,
    {
      title: `Approvals (${pending.length} pending)`,
      width: w,
      height: props.height,
      theme: props.theme,
    },
    pending.length === 0
      ? h(Row, { text: 'nothing is waiting', width: w, dim: props.theme.styled })
      : pending.slice(start, start + rows).map((p, i) => {
          const left = secondsLeft(p, now);
          const mark = start + i === selected ? '>' : ' ';
          return h(Row, {
            key: p.id,
            text: `${mark} ${String(left).padStart(3)}s ${p.id.slice(0, 8)} ${safe(p.tool_name)}: ${safe(p.command)}`,
            width: w,
            color:
              left <= 15 ? props.theme.bad : start + i === selected ? props.theme.warn : undefined,
          });
        }),
    pending.length > 0
      ? h(Row, { text: 'a approve · A always · d deny · ↑↓', width: w, dim: props.theme.styled })
      : null,
  );
}
