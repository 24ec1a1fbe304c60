import { createElement as h } from 'react';
import type { DashboardState } from '../dashboard-state.ts';
import { safe } from '../format.ts';
import { Pane, Row } from './pane.ts';
import type { Theme } from './theme.ts';

interface Props {
  state: DashboardState;
  width: number;
  height: number;
  theme: Theme;
}

/** Live sessions, most recent first. */
export function SessionsPane(props: Props) {
  const sessions = [...props.state.sessions].sort((a, b) =>
    b.last_active.localeCompare(a.last_active),
  );
  const w = props.width;
  return h(
    Pane,
    { title: `Sessions (${sessions.length})`, width: w, height: props.height, theme: props.theme },
    sessions.length === 0
      ? h(Row, { text: 'none', width: w, dim: props.theme.styled })
      : sessions
          .slice(0, Math.max(1, props.height - 1))
          .map((s) =>
            h(Row, { key: s.id, text: `${safe(s.id)}  ${s.message_count} msg`, width: w }),
          ),
  );
}

/** Long-term entries, whether semantic search works, and the memory tiers' backends. */
export function MemoryPane(props: Props) {
  const { status, memoryEntries } = props.state;
  const b = status?.backends ?? {};
  const semantic = status?.semantic_available;
  const w = props.width;
  return h(
    Pane,
    { title: 'Memory', width: w, height: props.height, theme: props.theme },
    h(Row, {
      text: `${memoryEntries ?? '?'} entries · semantic ${semantic === null || semantic === undefined ? 'not loaded yet' : semantic ? 'on' : 'off'}`,
      width: w,
    }),
    h(Row, {
      text: `short ${safe(b.short_term ?? '?')} · vectors ${safe(b.vectors ?? '?')} · db ${safe(b.database ?? '?')}`,
      width: w,
      dim: props.theme.styled,
    }),
  );
}

/** Channels with unread counts, or "no channels" when the gateway serves none. */
export function ChannelsPane(props: Props) {
  const { channels } = props.state;
  const w = props.width;
  return h(
    Pane,
    { title: 'Channels', width: w, height: props.height, theme: props.theme },
    channels === null || channels.length === 0
      ? h(Row, { text: 'no channels', width: w, dim: props.theme.styled })
      : channels.slice(0, Math.max(1, props.height - 1)).map((c) =>
          h(Row, {
            key: c.name,
            text: `${safe(c.name)} ${c.status === 'connected' ? '' : `(${safe(c.status)}) `}${c.unread} unread`,
            width: w,
            color: c.status === 'connected' ? props.theme.ok : props.theme.warn,
          }),
        ),
  );
}
