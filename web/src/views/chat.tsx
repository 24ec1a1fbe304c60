import type { ApiBody, ApiResponse } from '@hearth/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { ApprovalsState } from '../approvals-state.ts';
import type { ChatState } from '../chat-state.ts';
import { EditLastBar } from './edit-last.tsx';
import { Message } from './message.tsx';
import { VoiceControls } from './voice-controls.tsx';

const SLASH_COMMANDS = [
  ['/help', 'list the commands'],
  ['/model <provider> | auto', 'force a provider, or route automatically'],
  ['/think <off|low|medium|high>', 'reasoning effort'],
  ['/privacy on|off', 'send every request to the local model'],
  ['/compact', 'summarise this conversation now'],
  ['/forget <keyword>', 'show matching memories; add confirm to delete them'],
  ['/tag <name>', 'tag this conversation’s memories'],
] as const;

const THINKING = ['', 'off', 'low', 'medium', 'high'] as const;

type Routing = Pick<
  ApiResponse<'/models'>['routing'],
  'forced_provider' | 'thinking' | 'privacy_mode'
>;

/** The conversation, the composer with slash-command hints, and the model toggles. */
export function ChatView(props: { chat: ChatState; approvals?: ApprovalsState }) {
  const { chat } = props;
  const [draft, setDraft] = useState('');
  const [providers, setProviders] = useState<string[]>([]);
  const [routing, setRouting] = useState<Routing>();
  const [toggleError, setToggleError] = useState<string>();
  const [editing, setEditing] = useState(false);
  const log = useRef<HTMLOListElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const submit = () => {
    if (!(editing ? chat.resend(draft) : chat.send(draft))) return;
    setDraft('');
    setEditing(false);
  };

  useEffect(() => {
    api('GET', '/models').then(
      (data) => {
        setProviders(data.providers.filter((p) => p.configured !== false).map((p) => p.provider));
        setRouting(data.routing);
      },
      (e: unknown) => setToggleError((e as Error).message),
    );
  }, []);
  useEffect(() => {
    log.current?.lastElementChild?.scrollIntoView({ block: 'end' });
  }, [chat.messages]);

  const apply = (change: ApiBody<'/settings/model', 'POST'>) => {
    api('POST', '/settings/model', { body: change }).then(
      ({ settings }) => {
        setRouting({
          forced_provider: settings.provider,
          thinking: settings.thinking,
          privacy_mode: settings.privacy_mode,
        });
        setToggleError(undefined);
      },
      (e: unknown) => setToggleError((e as Error).message),
    );
  };
  const hints = draft.startsWith('/')
    ? SLASH_COMMANDS.filter(([command]) => command.startsWith(draft.split(' ')[0] ?? ''))
    : [];

  return (
    <section class="chat" aria-labelledby="chat-title">
      <h2 id="chat-title" class="visually-hidden">
        Chat
      </h2>
      <div class="toggles" role="group" aria-label="Model settings">
        <label>
          Model
          <select
            value={routing?.forced_provider ?? ''}
            onChange={(e) => apply({ provider: e.currentTarget.value || null })}
          >
            <option value="">automatic</option>
            {providers.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Thinking
          <select
            value={routing?.thinking ?? ''}
            onChange={(e) => apply({ thinking: e.currentTarget.value || null })}
          >
            {THINKING.map((level) => (
              <option key={level} value={level}>
                {level || 'default'}
              </option>
            ))}
          </select>
        </label>
        <label class="check">
          <input
            type="checkbox"
            checked={routing?.privacy_mode ?? false}
            onChange={(e) => apply({ privacy_mode: e.currentTarget.checked })}
          />
          Privacy mode
        </label>
        <span class={chat.connected ? 'dot on' : 'dot'} role="status">
          {chat.connected ? 'connected' : 'offline'}
        </span>
        {toggleError ? (
          <span class="error" role="alert">
            {toggleError}
          </span>
        ) : null}
      </div>
      {/* It scrolls (the composer stays in view): the keyboard can reach it. */}
      <ol class="messages" ref={log} aria-live="polite" aria-label="Conversation" tabIndex={0}>
        {chat.messages.map((message) => (
          <Message key={message.id} message={message} approvals={props.approvals} />
        ))}
      </ol>
      <EditLastBar
        messages={chat.messages}
        busy={chat.busy}
        editing={editing}
        onEdit={(text) => {
          setDraft(text);
          setEditing(true);
          input.current?.focus();
        }}
        onCancel={() => {
          setDraft('');
          setEditing(false);
        }}
      />
      <VoiceControls append={chat.append} />
      <form
        class="composer"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <label for="message" class="visually-hidden">
          Message
        </label>
        <textarea
          ref={input}
          id="message"
          rows={2}
          placeholder="Message Hearth — / for commands"
          value={draft}
          onInput={(e) => setDraft(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              submit();
            }
          }}
          aria-describedby={hints.length ? 'slash-hints' : undefined}
        />
        {chat.busy ? (
          <button type="button" class="stop" onClick={chat.stop}>
            Stop
          </button>
        ) : (
          <button type="submit" disabled={!chat.connected || draft.trim() === ''}>
            {editing ? 'Resend' : 'Send'}
          </button>
        )}
        {hints.length ? (
          <ul id="slash-hints" class="hints" aria-label="Slash commands">
            {hints.map(([command, help]) => (
              <li key={command}>
                <button type="button" onClick={() => setDraft(`${command.split(' ')[0]} `)}>
                  <code>{command}</code> {help}
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </form>
    </section>
  );
}
