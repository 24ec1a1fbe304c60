import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError, whenUnauthorized } from './api.ts';
import { useApprovals } from './approvals-state.ts';
import { useChat } from './chat-state.ts';
import { newSessionId, rememberSession, storedSession, useSessions } from './sessions-state.ts';
import { storeKey, storedKey } from './session.ts';
import { ApprovalsView } from './views/approvals.tsx';
import { CanvasView } from './views/canvas.tsx';
import { ChatView } from './views/chat.tsx';
import { ConversationsLayout } from './views/sessions.tsx';
import { KeyDialog } from './views/key-dialog.tsx';
import { MemoryView } from './views/memory.tsx';
import { SettingsView } from './views/settings.tsx';
import { SetupView } from './views/setup.tsx';
import { StatusView } from './views/status.tsx';

const VIEWS = ['chat', 'approvals', 'canvas', 'status', 'memory', 'settings', 'setup'] as const;
type View = (typeof VIEWS)[number];

function viewOf(hash: string): View {
  const name = hash.replace(/^#\/?/, '');
  return (VIEWS as readonly string[]).includes(name) ? (name as View) : 'chat';
}

/** The page: a key check first (when the gateway has one), then the views behind tabs. */
export function App() {
  const [view, setView] = useState<View>(viewOf(location.hash));
  const [needsKey, setNeedsKey] = useState(false);
  const [keyError, setKeyError] = useState<string>();
  const [ready, setReady] = useState(false);

  const check = useCallback(async () => {
    try {
      const status = await api('GET', '/status');
      setNeedsKey(false);
      setReady(true);
      // First run: no model can answer and no view was asked for — open the set-up page.
      if (!status.model_ready.ok && location.hash.replace(/^#\/?/, '') === '') {
        location.hash = '#setup';
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        if (storedKey()) setKeyError('That key was not accepted.');
        storeKey(undefined);
        setNeedsKey(true);
      } else setReady(true);
    }
  }, []);

  useEffect(() => {
    whenUnauthorized(() => setNeedsKey(true));
    void check();
    const onHash = () => setView(viewOf(location.hash));
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, [check]);

  const live = ready && !needsKey;
  const approvals = useApprovals(live);
  const [sessionId, setSessionId] = useState(storedSession);
  // The first reply of this browser's own session names it: remembered from then on.
  const named = useCallback((id: string) => {
    setSessionId((current) => {
      if (current !== '') return current;
      rememberSession(id);
      return id;
    });
  }, []);
  const chat = useChat(live, approvals.refresh, sessionId, named);
  const sessions = useSessions(live, chat.turns);
  const switchTo = (id: string) => {
    if (chat.busy) chat.stop();
    rememberSession(id);
    setSessionId(id);
  };

  if (needsKey) {
    return (
      <KeyDialog
        error={keyError}
        onKey={(key) => {
          storeKey(key);
          setKeyError(undefined);
          void check();
        }}
      />
    );
  }
  return (
    <div class="shell">
      <header class="top">
        <h1 class="brand">Hearth</h1>
        <nav aria-label="Views">
          <ul class="tabs">
            {VIEWS.map((name) => (
              <li key={name}>
                <a
                  href={`#${name}`}
                  aria-current={view === name ? 'page' : undefined}
                  class={view === name ? 'tab active' : 'tab'}
                >
                  {name[0]?.toUpperCase()}
                  {name.slice(1)}
                  {name === 'approvals' && approvals.pending.length > 0 ? (
                    <span class="badge" aria-label={`${approvals.pending.length} pending`}>
                      {approvals.pending.length}
                    </span>
                  ) : null}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" class="main">
        {!live ? (
          <p role="status">Connecting…</p>
        ) : view === 'chat' ? (
          <ConversationsLayout
            sessions={sessions}
            current={sessionId}
            onSwitch={switchTo}
            onNew={() => switchTo(newSessionId())}
          >
            <ChatView chat={chat} />
          </ConversationsLayout>
        ) : view === 'approvals' ? (
          <ApprovalsView approvals={approvals} />
        ) : view === 'canvas' ? (
          <CanvasView />
        ) : view === 'status' ? (
          <StatusView />
        ) : view === 'memory' ? (
          <MemoryView />
        ) : view === 'setup' ? (
          <SetupView />
        ) : (
          <SettingsView />
        )}
      </main>
    </div>
  );
}
