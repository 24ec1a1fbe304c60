import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, ApiError, whenUnauthorized } from './api.ts';
import { useApprovals } from './approvals-state.ts';
import { useChat } from './chat-state.ts';
import { newSessionId, rememberSession, storedSession, useSessions } from './sessions-state.ts';
import { storeKey, storedKey } from './session.ts';
import { LazyView } from './shell/lazy-view.tsx';
import { primaryInput, useShortcuts, type ShortcutActions } from './shell/shortcuts.ts';
import { ShortcutsDialog } from './shell/shortcuts-dialog.tsx';
import { Sidebar } from './shell/sidebar.tsx';
import { setTheme, storedTheme, type Theme } from './theme.ts';
import { KeyDialog } from './views/key-dialog.tsx';
import { viewOf, VIEWS, type ViewProps } from './views/registry.ts';

/** The page: a key check first (when the gateway has one), then the views (views/registry.ts). */
export function App() {
  const [view, setView] = useState(viewOf(location.hash));
  const [needsKey, setNeedsKey] = useState(false);
  const [keyError, setKeyError] = useState<string>();
  const [ready, setReady] = useState(false);
  const [drawer, setDrawer] = useState(false);
  const [help, setHelp] = useState(false);
  const [theme, chooseTheme] = useState<Theme>(storedTheme());

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
    const onHash = () => {
      setView(viewOf(location.hash));
      setDrawer(false);
    };
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, [check]);

  useEffect(() => {
    document.title = `${view.label} · Hearth`;
  }, [view]);

  // The drawer (phone width): its current link takes the focus on opening, the menu button
  // on closing with Esc or a click beside it, once the drawer is drawn closed (focused before,
  // the focus could go with the drawer's link as it is hidden).
  const drawerOpen = useRef(drawer);
  drawerOpen.current = drawer;
  const focusMenuOnClose = useRef(false);
  useEffect(() => {
    if (drawer) document.querySelector<HTMLElement>('#sidebar [aria-current="page"]')?.focus();
    else if (focusMenuOnClose.current) {
      focusMenuOnClose.current = false;
      document.getElementById('menu-button')?.focus();
    }
  }, [drawer]);
  const closeDrawer = useCallback(() => {
    if (!drawerOpen.current) return;
    focusMenuOnClose.current = true;
    setDrawer(false);
  }, []);
  const actions = useMemo<ShortcutActions>(
    () => ({
      go: (target) => (location.hash = `#${target.id}`),
      focusInput: () => {
        const input = primaryInput();
        if (input) return input.focus();
        // A view without a field: the chat's composer.
        location.hash = `#${VIEWS[0]!.id}`;
        setTimeout(() => primaryInput()?.focus(), 50);
      },
      help: () => setHelp(true),
      escape: closeDrawer,
    }),
    [closeDrawer],
  );
  useShortcuts(VIEWS, actions);

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
  const context: ViewProps = {
    chat,
    approvals,
    conversations: {
      sessions,
      current: sessionId,
      onSwitch: switchTo,
      onNew: () => switchTo(newSessionId()),
    },
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
        <button
          type="button"
          id="menu-button"
          class="menu-button plain"
          aria-expanded={drawer}
          aria-controls="sidebar"
          onClick={() => setDrawer(!drawer)}
        >
          <span aria-hidden="true">☰</span> Menu
        </button>
        <h1 class="brand">Hearth</h1>
        <p class="current-view">{view.label}</p>
      </header>
      {drawer ? <div class="backdrop" onClick={closeDrawer} /> : null}
      <Sidebar
        views={VIEWS}
        current={view}
        context={live ? context : undefined}
        open={drawer}
        theme={theme}
        onTheme={(next) => {
          setTheme(next);
          chooseTheme(next);
        }}
        onShortcuts={() => setHelp(true)}
      />
      <main id="main" class="main">
        {live ? (
          <LazyView key={view.id} view={view} context={context} />
        ) : (
          <p role="status">Connecting…</p>
        )}
      </main>
      <ShortcutsDialog open={help} views={VIEWS} onClose={() => setHelp(false)} />
    </div>
  );
}
