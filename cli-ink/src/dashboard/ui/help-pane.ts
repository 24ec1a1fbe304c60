import { createElement as h } from 'react';
import { LOCAL_SLASH_HELP } from '../dashboard-core.ts';
import { Pane, Row } from './pane.ts';
import type { Theme } from './theme.ts';

export const KEY_HELP = [
  '?          show or hide this help',
  'q, Ctrl-C  quit',
  '↑ ↓ / k j  select a pending approval',
  'a          approve it (a command its row cannot show whole: read it all first,',
  '           space/↓ scroll, then a approves)',
  'A          approve it and allow it from now on',
  'd          deny it',
  'c, Tab     type a chat message (Enter sends, Esc leaves)',
  '/          type a slash command',
  'r          refresh now',
  's          run hearth setup (when no provider works)',
];

/** The keyboard help (`?`). */
export function HelpPane(props: { width: number; height: number; theme: Theme }) {
  const lines = [...KEY_HELP, '', 'Slash commands in the chat:', ...LOCAL_SLASH_HELP];
  return h(
    Pane,
    { title: 'Keys', width: props.width, height: props.height, theme: props.theme },
    ...lines
      .slice(0, props.height - 1)
      .map((text, i) => h(Row, { key: i, text, width: props.width })),
  );
}
