import { createElement as h } from 'react';
import type { DashboardState } from '../dashboard-state.ts';
import { cost, safe, tokens } from '../format.ts';
import { Pane, Row } from './pane.ts';
import type { Theme } from './theme.ts';

/** Tokens and estimated cost per model since the gateway started (unpriced models say so). */
export function UsagePane(props: {
  state: DashboardState;
  width: number;
  height: number;
  theme: Theme;
}) {
  const { usage } = props.state;
  const w = props.width;
  const models = usage?.models ?? [];
  const rows = Math.max(1, props.height - 2);
  return h(
    Pane,
    {
      title: `Usage · total ${usage ? cost(usage.total_cost_usd) : '?'} · tokens in→out`,
      width: w,
      height: props.height,
      theme: props.theme,
    },
    models.length === 0
      ? h(Row, { text: 'no generations yet', width: w, dim: props.theme.styled })
      : models.slice(0, rows).map((m) =>
          h(Row, {
            key: m.model,
            text: `${safe(m.model)} ${tokens(m.input_tokens)}→${tokens(m.output_tokens)} ${cost(m.cost_usd)}`,
            width: w,
          }),
        ),
  );
}
