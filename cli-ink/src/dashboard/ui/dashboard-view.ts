import { Box } from 'ink';
import { createElement as h } from 'react';
import type { DashboardState } from '../dashboard-state.ts';
import { duration, safe } from '../format.ts';
import type { PendingApproval } from '../api-types.ts';
import { ApprovalsPane, ReviewPane } from './approvals-pane.ts';
import { ChatPane } from './chat-pane.ts';
import { HelpPane } from './help-pane.ts';
import { LogsPane } from './logs-pane.ts';
import { Row } from './pane.ts';
import { ChannelsPane, MemoryPane, SessionsPane } from './side-panes.ts';
import { StatusPane } from './status-pane.ts';
import { theme as makeTheme } from './theme.ts';
import { UsagePane } from './usage-pane.ts';

export interface ViewProps {
  state: DashboardState;
  /** The chat input while the chat has the keyboard; null otherwise. */
  input: string | null;
  help: boolean;
  /** The approval under review and the first line shown, or null. */
  review?: { approval: PendingApproval; offset: number; hint: string } | null;
  color: boolean;
  columns: number;
  rows: number;
}

/** The footer while no gateway answers: what starts one (it retries by itself meanwhile). */
export const NO_GATEWAY = 'No gateway answers: run hearth start (or npm start)';

/** The header while no model can answer. */
export const NEEDS_SETUP = 'needs setup: no model can answer, press s';

/** Below this width the panes stack in one column and the side panes are left out. */
export const WIDE = 80;

/** The approvals pane's width in a terminal of `columns` × `rows`. */
export function approvalsPaneWidth(columns: number, rows: number): number {
  const width = Math.max(20, columns);
  const body = Math.max(6, rows - 2);
  return width < WIDE || body < 16 ? width : width - (Math.floor(width / 2) - 1) - 2;
}

/** Lines of a command the review shows at once in a terminal of `rows`. */
export const reviewRows = (rows: number): number => Math.max(1, Math.max(4, rows - 2) - 1);

/**
 * The whole screen from the state (display only). At 80×24 and up: a header, two columns of
 * panes, the log and the chat, a footer. Narrower or shorter, it drops panes in order of
 * importance (side panes, usage, log) but always keeps status, approvals and chat.
 */
export function DashboardView(props: ViewProps) {
  const { state, columns, rows } = props;
  const theme = makeTheme(props.color);
  const width = Math.max(20, columns);
  const half = Math.floor(width / 2) - 1;
  const header = h(Row, {
    text: `Hearth ${safe(state.url)} · ${headline(state)}`,
    width,
    color:
      state.connection === 'ok' && !state.problem
        ? state.needsSetup
          ? theme.warn
          : theme.ok
        : theme.bad,
  });
  const footer = h(Row, {
    text: state.notice
      ? safe(state.notice)
      : state.connection === 'unreachable'
        ? `${NO_GATEWAY} · q quit`
        : state.needsSetup
          ? 'No provider works yet: press s to run hearth setup · ? help · q quit'
          : '? help · c chat · a/A/d approvals · q quit',
    width,
    color: state.needsSetup || state.connection === 'unreachable' ? theme.warn : undefined,
  });
  if (props.review) {
    return h(
      Box,
      { flexDirection: 'column', width },
      header,
      h(ReviewPane, {
        approval: props.review.approval,
        offset: props.review.offset,
        width,
        height: Math.max(4, rows - 2),
        theme,
      }),
      h(Row, { text: props.review.hint, width, color: theme.warn }),
    );
  }
  if (props.help) {
    return h(
      Box,
      { flexDirection: 'column', width },
      header,
      h(HelpPane, { width, height: Math.max(4, rows - 2), theme }),
      footer,
    );
  }

  const body = Math.max(6, rows - 2); // lines between header and footer
  if (width < WIDE || body < 16) {
    // Narrow or short: status, approvals and chat only, stacked.
    const statusH = Math.min(6, Math.floor(body / 3));
    const approvalsH = Math.min(6, Math.floor(body / 3));
    return h(
      Box,
      { flexDirection: 'column', width },
      header,
      h(StatusPane, { state, width, height: statusH, theme }),
      h(ApprovalsPane, {
        state,
        width: approvalsPaneWidth(columns, rows),
        height: approvalsH,
        theme,
      }),
      h(ChatPane, { state, input: props.input, width, height: body - statusH - approvalsH, theme }),
      footer,
    );
  }

  const topH = 6;
  const midH = 5;
  const rest = body - topH - midH;
  const logsH = Math.max(3, Math.floor(rest * 0.4));
  const chatH = rest - logsH;
  return h(
    Box,
    { flexDirection: 'column', width },
    header,
    h(
      Box,
      { flexDirection: 'row', height: topH },
      h(StatusPane, { state, width: half, height: topH, theme }),
      h(Box, { width: 2 }),
      h(ApprovalsPane, { state, width: approvalsPaneWidth(columns, rows), height: topH, theme }),
    ),
    h(
      Box,
      { flexDirection: 'row', height: midH },
      h(UsagePane, { state, width: half, height: midH, theme }),
      h(Box, { width: 2 }),
      h(
        Box,
        { flexDirection: 'column', width: width - half - 2 },
        h(MemoryPane, { state, width: width - half - 2, height: 2, theme }),
        h(
          Box,
          { flexDirection: 'row' },
          h(SessionsPane, { state, width: Math.floor((width - half - 2) / 2), height: 3, theme }),
          h(ChannelsPane, { state, width: Math.ceil((width - half - 2) / 2), height: 3, theme }),
        ),
      ),
    ),
    h(LogsPane, { state, width, height: logsH, theme }),
    h(ChatPane, { state, input: props.input, width, height: chatH, theme }),
    footer,
  );
}

function headline(state: DashboardState): string {
  if (state.connection === 'connecting') return 'connecting…';
  if (state.connection === 'unreachable') return `unreachable: ${safe(state.problem ?? '')}`;
  if (state.problem) return safe(state.problem);
  const s = state.status;
  // The first thing a newcomer reads (it fits 80 columns): no model can answer yet, and the
  // key that fixes it. Why not is the status pane's first row.
  if (state.needsSetup) return NEEDS_SETUP;
  return s ? `${safe(s.status)} · v${safe(s.version)} · up ${duration(s.uptime_seconds)}` : '…';
}
