import { createElement as h } from 'react';
import type { DashboardState } from '../dashboard-state.ts';
import { clock, safe } from '../format.ts';
import { Pane, Row } from './pane.ts';
import type { Theme } from './theme.ts';

/** The newest lines of the gateway's log (`/ws/logs`), as many as fit. */
export function LogsPane(props: {
  state: DashboardState;
  width: number;
  height: number;
  theme: Theme;
}) {
  const { logs, logsAvailable } = props.state;
  const w = props.width;
  const rows = Math.max(1, props.height - 1);
  const color = (level: string) =>
    level === 'error' || level === 'fatal'
      ? props.theme.bad
      : level === 'warn'
        ? props.theme.warn
        : undefined;
  return h(
    Pane,
    { title: 'Log', width: w, height: props.height, theme: props.theme },
    logs.length === 0
      ? h(Row, {
          text: logsAvailable === false ? 'this gateway keeps no log tail' : 'no log lines yet',
          width: w,
          dim: props.theme.styled,
        })
      : logs.slice(-rows).map((line, i) =>
          h(Row, {
            key: `${i}-${line.time}`,
            text: `${clock(line.time)} ${line.level.toUpperCase().padEnd(5)} ${line.area ? `[${safe(line.area)}] ` : ''}${safe(line.msg)}`,
            width: w,
            color: color(line.level),
          }),
        ),
  );
}
