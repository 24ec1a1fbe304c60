/**
 * The dashboard's core, with no UI (STYLE 8): polls the gateway's REST API, follows `/ws/logs`,
 * chats over `/ws/chat`, decides approvals, and keeps one `DashboardState` that the Ink view
 * renders. I/O comes in as parameters (client, socket opener, clock, timers) so tests drive it.
 */
import type { ApiBody, ApiResponse, Loose } from '@hearth/client';
import { errorMessage } from '../cli-error.ts';
import { GatewayHttpError, type GatewayClient } from '../gateway-client.ts';
import {
  readChannels,
  readLogLine,
  readMemoryEntries,
  readPending,
  readProviders,
  readSessions,
  readStatus,
  readUsage,
  type GatewayStatus,
} from './api-types.ts';
import {
  initialState,
  MAX_CHAT_LINES,
  MAX_LOG_LINES,
  type ChatLine,
  type DashboardState,
} from './dashboard-state.ts';

/** The few WebSocket members the core uses (the global WebSocket has them). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'close' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

export interface DashboardDeps {
  client: Pick<GatewayClient, 'baseUrl' | 'getJson' | 'sendJson'>;
  /** Opens a WebSocket to a gateway path (`/ws/logs`, `/ws/chat?client_id=…`) with the key. */
  openSocket: (path: string) => Promise<SocketLike>;
  /** This CLI's durable client id: the chat pane's session is the CLI's own. */
  clientId?: string;
  now?: () => number;
  /** Milliseconds between REST refreshes (default 2000) and countdown ticks (default 1000). */
  pollMs?: number;
  tickMs?: number;
  setInterval?: (fn: () => void, ms: number) => { unref?: () => void } | number;
  clearInterval?: (handle: unknown) => void;
}

export interface DashboardCore {
  getState(): DashboardState;
  subscribe(listener: () => void): () => void;
  /** First refresh, the log and chat sockets, the timers. Resolves after the first refresh. */
  start(): Promise<void>;
  stop(): void;
  refresh(): Promise<void>;
  /** Moves the approval selection by `delta` (wraps). */
  select(delta: number): void;
  /**
   * Approves the selected approval (`always`: also allowlists it), or, with `id`, exactly the
   * approval the screen showed, wherever the selection moved meanwhile.
   */
  approveSelected(always: boolean, id?: string): Promise<void>;
  denySelected(id?: string): Promise<void>;
  /** A chat line: a local slash command (/help, /clear) or a message sent over /ws/chat. */
  sendChat(text: string): void;
}

const SOCKET_OPEN = 1;

/** Slash commands the dashboard answers itself; every other one goes to the gateway. */
export const LOCAL_SLASH_HELP = [
  '/help             this list',
  '/clear            empty the chat pane',
  '/model <p>|auto   force a provider, or back to automatic routing (gateway)',
  '/think <level>    off|low|medium|high|xhigh|max (gateway)',
  '/privacy on|off   local runtime only (gateway)',
  '/compact          summarise this session now (gateway)',
  '/forget <word>    preview, then `/forget <word> confirm` (gateway)',
];

/** What `approve … always` did, from the gateway's answer (read tolerantly). */
function alwaysNotice(
  short: string,
  answer: Loose<ApiResponse<'/approvals/{approval_id}/approve', 'POST'>> | undefined,
): string {
  const entry = answer?.allowlist_entry;
  if (entry?.pattern !== undefined)
    return entry.arg_pattern === null || entry.arg_pattern === undefined
      ? `Approved ${short}; ${entry.pattern} allowed from now on, with any arguments.`
      : `Approved ${short}; this exact command allowed from now on.`;
  if (answer?.always_note !== undefined)
    return `Approved ${short} this time only; ${answer.always_note}.`;
  return `Approved ${short}; allowed from now on.`;
}

export function createDashboardCore(deps: DashboardDeps): DashboardCore {
  const now = deps.now ?? Date.now;
  const every = deps.setInterval ?? ((fn, ms) => setInterval(fn, ms));
  const stopTimer = deps.clearInterval ?? ((handle) => clearInterval(handle as NodeJS.Timeout));
  const { client } = deps;
  let state = initialState(client.baseUrl, now());
  const listeners = new Set<() => void>();
  const timers: unknown[] = [];
  const sockets: SocketLike[] = [];
  let chatSocket: SocketLike | undefined;
  let stopped = false;
  let refreshing: Promise<void> | undefined;
  /** What the providers' live checks said (null until they answered). */
  let providersWork: boolean | null = null;

  /** `/status` `model_ready` decides; a gateway without it: the providers' live checks. */
  const needsSetup = (status: GatewayStatus | null): boolean =>
    status?.model_ready ? !status.model_ready.ok : providersWork === false;

  function update(
    patch: Partial<DashboardState> | ((s: DashboardState) => Partial<DashboardState>),
  ) {
    const next = typeof patch === 'function' ? patch(state) : patch;
    state = { ...state, ...next };
    for (const listener of listeners) listener();
  }

  function addChat(line: ChatLine): void {
    update((s) => ({
      chat: { ...s.chat, lines: [...s.chat.lines, line].slice(-MAX_CHAT_LINES) },
    }));
  }

  /** GET a path; a 404 (route not served by this gateway) gives undefined. */
  async function optional(path: string): Promise<unknown> {
    try {
      return await client.getJson(path);
    } catch (error) {
      if (error instanceof GatewayHttpError && (error.status === 404 || error.status === 501))
        return undefined;
      throw error;
    }
  }

  async function refreshOnce(): Promise<void> {
    try {
      const [status, sessions, pending, usage, metrics, channels] = await Promise.all([
        client.getJson('/api/v1/status'),
        client.getJson('/api/v1/sessions'),
        client.getJson('/api/v1/approvals/pending'),
        client.getJson('/api/v1/usage'),
        optional('/api/v1/metrics/snapshot'),
        optional('/api/v1/channels'),
      ]);
      const pendingRows = readPending(pending);
      const gatewayStatus = readStatus(status);
      update((s) => ({
        connection: 'ok',
        problem: null,
        status: gatewayStatus,
        needsSetup: needsSetup(gatewayStatus),
        sessions: readSessions(sessions),
        pending: pendingRows,
        selected: Math.min(s.selected, Math.max(0, pendingRows.length - 1)),
        usage: readUsage(usage),
        memoryEntries: readMemoryEntries(metrics),
        channels: channels === undefined ? null : readChannels(channels),
        now: now(),
      }));
    } catch (error) {
      update({
        connection: error instanceof GatewayHttpError ? 'ok' : 'unreachable',
        problem: errorMessage(error),
        now: now(),
      });
    }
  }

  /**
   * Once at start: does any provider work? A configured provider works unless its live check
   * failed (providers without a stable check count as working). None: the dashboard offers setup.
   */
  async function checkProviders(): Promise<void> {
    try {
      const providers = readProviders(await client.getJson('/api/v1/models?live=true'));
      // Bedrock's `configured` is always null (the AWS SDK chain): it does not count.
      const works = providers.some((p) => p.configured === true && p.reachable !== false);
      providersWork = providers.length === 0 || works;
      update((s) => ({ providers, needsSetup: needsSetup(s.status) }));
    } catch {
      // the status line already says what is wrong with the gateway
    }
  }

  function refresh(): Promise<void> {
    refreshing ??= refreshOnce().finally(() => (refreshing = undefined));
    return refreshing;
  }

  function parse(data: unknown): Record<string, unknown> | undefined {
    try {
      const value: unknown = JSON.parse(typeof data === 'string' ? data : String(data));
      return typeof value === 'object' && value !== null
        ? (value as Record<string, unknown>)
        : undefined;
    } catch {
      return undefined;
    }
  }

  async function followLogs(): Promise<void> {
    try {
      const socket = await deps.openSocket('/ws/logs');
      sockets.push(socket);
      socket.addEventListener('message', (event) => {
        const frame = parse(event.data);
        if (frame?.type === 'log_lines' && Array.isArray(frame.lines)) {
          const lines = frame.lines.map(readLogLine).filter((l) => l !== undefined);
          update({ logs: lines.slice(-MAX_LOG_LINES), logsAvailable: frame.available === true });
        } else if (frame?.type === 'log') {
          const line = readLogLine(frame.line);
          if (line) update((s) => ({ logs: [...s.logs, line].slice(-MAX_LOG_LINES) }));
        }
      });
    } catch {
      update({ logsAvailable: false });
    }
  }

  async function connectChat(): Promise<void> {
    const path = `/ws/chat${deps.clientId ? `?client_id=${encodeURIComponent(deps.clientId)}` : ''}`;
    try {
      const socket = await deps.openSocket(path);
      if (stopped) return socket.close(1000, 'bye');
      chatSocket = socket;
      sockets.push(socket);
      socket.addEventListener('message', (event) => onChatFrame(parse(event.data)));
      socket.addEventListener('close', () => {
        chatSocket = undefined;
        update((s) => ({ chat: { ...s.chat, connected: false, busy: false } }));
      });
      socket.send(JSON.stringify({ type: 'hello' }));
      update((s) => ({ chat: { ...s.chat, connected: true } }));
    } catch (error) {
      addChat({ role: 'error', text: `chat unavailable: ${errorMessage(error)}` });
    }
  }

  function onChatFrame(frame: Record<string, unknown> | undefined): void {
    if (!frame) return;
    if (frame.type === 'hello' && typeof frame.session_id === 'string') {
      const sessionId = frame.session_id;
      update((s) => ({ chat: { ...s.chat, sessionId } }));
    } else if (frame.type === 'message_chunk' && typeof frame.delta === 'string') {
      const delta = frame.delta;
      update((s) => {
        const lines = [...s.chat.lines];
        const last = lines.at(-1);
        if (last?.role === 'agent' && s.chat.busy)
          lines[lines.length - 1] = { ...last, text: last.text + delta };
        else lines.push({ role: 'agent', text: delta });
        return { chat: { ...s.chat, lines: lines.slice(-MAX_CHAT_LINES) } };
      });
    } else if (frame.type === 'message_done') {
      update((s) => ({ chat: { ...s.chat, busy: false } }));
      void refresh();
    } else if (frame.type === 'error') {
      addChat({ role: 'error', text: typeof frame.detail === 'string' ? frame.detail : 'error' });
      update((s) => ({ chat: { ...s.chat, busy: false } }));
    } else if (frame.type === 'approval_request') {
      // The approvals pane shows it with its countdown; fetch it now rather than at the next poll.
      void refresh();
    }
  }

  async function decide(verb: 'approve' | 'deny', always: boolean, id?: string): Promise<void> {
    const target =
      id === undefined ? state.pending[state.selected] : state.pending.find((p) => p.id === id);
    if (!target) return update({ notice: 'Nothing is waiting for approval.' });
    const short = target.id.slice(0, 8);
    try {
      const answer = await client.sendJson(
        'POST',
        `/api/v1/approvals/${encodeURIComponent(target.id)}/${verb}`,
        verb === 'approve'
          ? ({ always } satisfies ApiBody<'/approvals/{approval_id}/approve', 'POST'>)
          : undefined,
      );
      update({
        notice:
          verb === 'deny'
            ? `Denied ${short}.`
            : always
              ? alwaysNotice(
                  short,
                  answer as Loose<ApiResponse<'/approvals/{approval_id}/approve', 'POST'>>,
                )
              : `Approved ${short}.`,
      });
    } catch (error) {
      update({
        notice:
          error instanceof GatewayHttpError && error.status === 404
            ? `${short} is no longer pending (expired or decided elsewhere).`
            : `Could not ${verb} ${short}: ${errorMessage(error)}`,
      });
    }
    await refresh();
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async start() {
      timers.push(
        every(() => void refresh(), deps.pollMs ?? 2_000),
        every(() => update({ now: now() }), deps.tickMs ?? 1_000),
      );
      for (const timer of timers) (timer as { unref?: () => void }).unref?.();
      void followLogs();
      void connectChat();
      void checkProviders();
      await refresh();
    },
    stop() {
      stopped = true;
      for (const timer of timers) stopTimer(timer);
      for (const socket of sockets) if (socket.readyState <= SOCKET_OPEN) socket.close(1000, 'bye');
      listeners.clear();
    },
    refresh,
    select(delta) {
      update((s) => {
        const count = s.pending.length;
        return { selected: count === 0 ? 0 : (((s.selected + delta) % count) + count) % count };
      });
    },
    approveSelected: (always, id) => decide('approve', always, id),
    denySelected: (id) => decide('deny', false, id),
    sendChat(raw) {
      const text = raw.trim();
      if (text === '') return;
      if (text === '/clear') return update((s) => ({ chat: { ...s.chat, lines: [] } }));
      if (text === '/help') {
        return update((s) => ({
          chat: {
            ...s.chat,
            lines: [
              ...s.chat.lines,
              ...LOCAL_SLASH_HELP.map((t) => ({ role: 'note' as const, text: t })),
            ].slice(-MAX_CHAT_LINES),
          },
        }));
      }
      if (!chatSocket || chatSocket.readyState !== SOCKET_OPEN) {
        return addChat({ role: 'error', text: 'chat is not connected to the gateway' });
      }
      if (state.chat.busy)
        return addChat({ role: 'error', text: 'wait for the reply in progress' });
      addChat({ role: 'you', text });
      update((s) => ({ chat: { ...s.chat, busy: true } }));
      chatSocket.send(JSON.stringify({ type: 'message', content: text }));
    },
  };
}
