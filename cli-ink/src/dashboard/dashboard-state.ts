import type {
  ChannelRow,
  GatewayStatus,
  LogLine,
  PendingApproval,
  ProviderRow,
  SessionRow,
  UsageSummary,
} from './api-types.ts';

/** One line of the chat pane: what the user typed, the agent's reply (growing), or a note. */
export interface ChatLine {
  role: 'you' | 'agent' | 'note' | 'error';
  text: string;
}

/** Everything the dashboard shows; the UI renders it and nothing else. */
export interface DashboardState {
  url: string;
  /** `connecting` until the first answer; `unreachable` while no gateway answers. */
  connection: 'connecting' | 'ok' | 'unreachable';
  /** Why the last refresh failed (unreachable, 401 …), shown in the header. */
  problem: string | null;
  status: GatewayStatus | null;
  sessions: SessionRow[];
  pending: PendingApproval[];
  /** Index into `pending` that the approve/deny keys act on. */
  selected: number;
  usage: UsageSummary | null;
  memoryEntries: number | null;
  /** null: GET /channels is not served by this gateway ("no channels"). */
  channels: ChannelRow[] | null;
  providers: ProviderRow[];
  /**
   * True when no model can answer (`/status` `model_ready.ok` false; from a gateway without
   * it: no configured provider passed its live check): the dashboard offers `hearth setup`.
   */
  needsSetup: boolean;
  logs: LogLine[];
  logsAvailable: boolean | null;
  chat: { lines: ChatLine[]; busy: boolean; sessionId: string | null; connected: boolean };
  /** The result of the last key action (approved, denied, failed …). */
  notice: string | null;
  /** Epoch milliseconds at the last tick: countdowns are computed against it. */
  now: number;
}

export function initialState(url: string, now: number): DashboardState {
  return {
    url,
    connection: 'connecting',
    problem: null,
    status: null,
    sessions: [],
    pending: [],
    selected: 0,
    usage: null,
    memoryEntries: null,
    channels: null,
    providers: [],
    needsSetup: false,
    logs: [],
    logsAvailable: null,
    chat: { lines: [], busy: false, sessionId: null, connected: false },
    notice: null,
    now,
  };
}

/** Whole seconds left before `approval` expires (its `expires_at`) at `nowMs`; never below 0. */
export function secondsLeft(approval: PendingApproval, nowMs: number): number {
  return Math.max(0, Math.ceil(approval.expires_at - nowMs / 1000));
}

/** Lines the log pane keeps. */
export const MAX_LOG_LINES = 200;
/** Lines the chat pane keeps. */
export const MAX_CHAT_LINES = 200;
