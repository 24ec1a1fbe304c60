import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { SessionItem, SessionsState } from '../sessions-state.ts';
import './sessions.css';

/** "5 min ago", "yesterday 14:02"…: when a session was last active. */
function lastActive(iso: string): string {
  const at = new Date(iso);
  const minutes = Math.round((Date.now() - at.getTime()) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  return at.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
}

const titleOf = (session: SessionItem) => session.title ?? 'Untitled conversation';

/** One conversation in the list: switch to it, rename it in place, delete it after a confirm. */
function SessionRow(props: {
  session: SessionItem;
  current: boolean;
  sessions: SessionsState;
  onSwitch: (id: string) => void;
  onDeleted: (id: string) => void;
}) {
  const { session } = props;
  const [mode, setMode] = useState<'view' | 'rename' | 'confirm'>('view');
  const [title, setTitle] = useState('');
  const name = titleOf(session);
  if (mode === 'rename') {
    return (
      <li class="session">
        <form
          class="rename"
          onSubmit={(event) => {
            event.preventDefault();
            void props.sessions.rename(session.id, title).then((ok) => ok && setMode('view'));
          }}
        >
          <label for={`title-${session.id}`} class="visually-hidden">
            New title for {name}
          </label>
          <input
            id={`title-${session.id}`}
            value={title}
            maxLength={200}
            required
            onInput={(e) => setTitle(e.currentTarget.value)}
            onKeyDown={(e) => e.key === 'Escape' && setMode('view')}
            ref={(el) => el?.focus()}
          />
          <button type="submit">Save</button>
          <button type="button" class="secondary" onClick={() => setMode('view')}>
            Cancel
          </button>
        </form>
      </li>
    );
  }
  return (
    <li class={props.current ? 'session current' : 'session'}>
      <button
        type="button"
        class="session-open"
        aria-current={props.current ? 'true' : undefined}
        onClick={() => props.onSwitch(session.id)}
      >
        <span class="session-title">{name}</span>
        <span class="session-when">{lastActive(session.last_active)}</span>
      </button>
      {mode === 'confirm' ? (
        <span class="session-confirm" role="group" aria-label={`Delete ${name}?`}>
          <span>Delete?</span>
          <button
            type="button"
            class="danger"
            onClick={() =>
              void props.sessions.remove(session.id).then((ok) => {
                setMode('view');
                if (ok) props.onDeleted(session.id);
              })
            }
          >
            Delete
          </button>
          <button type="button" class="secondary" onClick={() => setMode('view')}>
            Keep
          </button>
        </span>
      ) : (
        <span class="session-actions">
          <button
            type="button"
            class="secondary"
            aria-label={`Rename ${name}`}
            onClick={() => {
              setTitle(session.title ?? '');
              setMode('rename');
            }}
          >
            Rename
          </button>
          <button
            type="button"
            class="secondary"
            aria-label={`Delete ${name}`}
            onClick={() => setMode('confirm')}
          >
            Delete
          </button>
        </span>
      )}
    </li>
  );
}

/**
 * The chat with its conversations beside it: search, new conversation, the list. On a narrow
 * screen the list folds behind a "Conversations" button.
 */
export function ConversationsLayout(props: {
  sessions: SessionsState;
  current: string;
  onSwitch: (id: string) => void;
  onNew: () => void;
  children: ComponentChildren;
}) {
  const { sessions } = props;
  const [open, setOpen] = useState(false);
  const pick = (id: string) => {
    setOpen(false);
    props.onSwitch(id);
  };
  return (
    <div class={open ? 'conversations open' : 'conversations'}>
      <button
        type="button"
        class="conversations-toggle secondary"
        aria-expanded={open}
        aria-controls="conversations-list"
        onClick={() => setOpen(!open)}
      >
        Conversations
      </button>
      <aside id="conversations-list" class="conversations-list" aria-label="Conversations">
        <button
          type="button"
          class="new-chat"
          onClick={() => {
            setOpen(false);
            props.onNew();
          }}
        >
          New conversation
        </button>
        <div role="search">
          <label for="session-search" class="visually-hidden">
            Search conversations
          </label>
          <input
            id="session-search"
            type="search"
            placeholder="Search conversations"
            maxLength={200}
            value={sessions.query}
            onInput={(e) => sessions.setQuery(e.currentTarget.value)}
          />
        </div>
        {sessions.error ? (
          <p class="error" role="alert">
            {sessions.error}
          </p>
        ) : null}
        <ul class="session-list" aria-label="Conversation list">
          {sessions.sessions.map((session) => (
            <SessionRow
              key={session.id}
              session={session}
              current={session.id === props.current}
              sessions={sessions}
              onSwitch={pick}
              onDeleted={(id) => id === props.current && props.onNew()}
            />
          ))}
        </ul>
        {sessions.sessions.length === 0 ? (
          <p class="muted">
            {sessions.query ? 'No conversation matches.' : 'No conversations yet.'}
          </p>
        ) : null}
      </aside>
      <div class="conversation">{props.children}</div>
    </div>
  );
}
