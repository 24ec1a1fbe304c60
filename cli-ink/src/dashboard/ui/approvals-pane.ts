import { createElement as h } from 'react';
import { approvalRow, reviewLines } from '../approval-review.ts';
import type { PendingApproval } from '../api-types.ts';
import { secondsLeft, type DashboardState } from '../dashboard-state.ts';
import { safe } from '../format.ts';
import { Pane, Row } from './pane.ts';
import type { Theme } from './theme.ts';

/**
 * Pending approvals with their live countdown (spec: 120 s, then denied). The selected one is
 * marked `>`; the keys act on it. A row shows the whole command when it fits unmarked; else it
 * states the size and `a` opens the review, which shows it all (issue #27).
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
            text: approvalRow(p, { selected: mark === '>', left, width: w }).text,
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

/**
 * The review of one approval (`a` on a command its row cannot show whole): everything, wrapped,
 * from line `offset`; the title says which lines are on screen and how many there are.
 */
export function ReviewPane(props: {
  approval: PendingApproval;
  offset: number;
  width: number;
  height: number;
  theme: Theme;
}) {
  const { approval, width } = props;
  const lines = reviewLines(approval, width);
  const visible = Math.max(1, props.height - 1);
  const shown = lines.slice(props.offset, props.offset + visible);
  const last = Math.min(lines.length, props.offset + visible);
  return h(
    Pane,
    {
      title: `Review ${approval.id.slice(0, 8)} ${safe(approval.tool_name)} · lines ${props.offset + 1}–${last} of ${lines.length}`,
      width,
      height: props.height,
      theme: props.theme,
    },
    ...shown.map((text, i) => h(Row, { key: i, text, width })),
  );
}
