import { createElement as h } from 'react';
import type { DashboardState } from '../dashboard-state.ts';
import { safe } from '../format.ts';
import { Pane, Row } from './pane.ts';
import type { Theme } from './theme.ts';

const PREFIX = { you: 'you> ', agent: 'agent: ', note: '  ', error: '! ' } as const;

/**
 * The chat over `/ws/chat`: the last lines that fit (a long reply shows its end), and the
 * input line while the chat has the keyboard.
 */
export function ChatPane(props: {
  state: DashboardState;
  input: string | null;
  width: number;
  height: number;
  theme: Theme;
}) {
  const { chat } = props.state;
  const w = props.width;
  const rows = Math.max(1, props.height - 2);
  // Each line's text, split where the reply had line breaks, then cut to the pane's width.
  const flat = chat.lines.flatMap((line) =>
    line.text.split(/\r?\n/).map((part, i) => ({
      role: line.role,
      text: `${i === 0 ? PREFIX[line.role] : '  '}${safe(part)}`,
    })),
  );
  const status = chat.connected ? (chat.busy ? 'replying…' : 'connected') : 'not connected';
  return h(
    Pane,
    {
      title: `Chat (${status}${chat.sessionId ? ` · ${safe(chat.sessionId)}` : ''})`,
      width: w,
      height: props.height,
      theme: props.theme,
    },
    ...flat.slice(-rows).map((line, i) =>
      h(Row, {
        key: i,
        text: line.text,
        width: w,
        color:
          line.role === 'error'
            ? props.theme.bad
            : line.role === 'you'
              ? props.theme.accent
              : undefined,
      }),
    ),
    h(Row, {
      text:
        props.input === null ? 'press c to chat, / for a slash command' : `> ${safe(props.input)}█`,
      width: w,
      dim: props.input === null && props.theme.styled,
    }),
  );
}
