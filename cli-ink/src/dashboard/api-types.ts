/**
 * The parts of the gateway's REST answers the dashboard shows (spec: Resources and their
 * fields). The gateway does not export its response types to clients, so these mirror the
 * wire shapes; `read*` functions take whatever arrived and keep only well-typed fields, so an
 * older, newer or hostile gateway cannot crash the view.
 */
export interface GatewayStatus {
  status: string;
  version: string;
  uptime_seconds: number | null;
  init_phase: string;
  init_error: string | null;
  active_sessions: number | null;
  runtime_available: boolean | null;
  host: {
    cpu_percent: number | null;
    memory_rss_bytes: number | null;
    disk_usage_percent: number | null;
    disk_free_bytes: number | null;
  };
  semantic_available: boolean | null;
  backends: Record<string, string>;
}

export interface SessionRow {
  id: string;
  message_count: number;
  last_active: string;
}

export interface PendingApproval {
  id: string;
  tool_name: string;
  command: string;
  session_id: string;
  /** Epoch seconds. */
  created_at: number;
}

export interface ModelUsage {
  model: string;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
}

export interface UsageSummary {
  models: ModelUsage[];
  total_cost_usd: number | null;
}

export interface ChannelRow {
  name: string;
  status: string;
  unread: number;
  messages_total: number;
}

export interface ProviderRow {
  provider: string;
  configured: boolean | null;
  reachable: boolean | null;
}

export interface LogLine {
  time: string;
  level: string;
  msg: string;
  area?: string;
}

type Json = Record<string, unknown>;

const object = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
const array = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown, fallback = ''): string =>
  typeof value === 'string' ? value : fallback;
const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const bool = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);

export function readStatus(body: unknown): GatewayStatus {
  const b = object(body);
  const host = object(b.host);
  const backends = Object.fromEntries(
    Object.entries(object(b.backends)).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
  return {
    status: text(b.status, '?'),
    version: text(b.version, '?'),
    uptime_seconds: num(b.uptime_seconds),
    init_phase: text(b.init_phase, '?'),
    init_error: typeof b.init_error === 'string' ? b.init_error : null,
    active_sessions: num(b.active_sessions),
    runtime_available: bool(b.runtime_available),
    host: {
      cpu_percent: num(host.cpu_percent),
      memory_rss_bytes: num(host.memory_rss_bytes),
      disk_usage_percent: num(host.disk_usage_percent),
      disk_free_bytes: num(host.disk_free_bytes),
    },
    semantic_available: bool(object(b.memory).semantic_available),
    backends,
  };
}

export function readSessions(body: unknown): SessionRow[] {
  return array(object(body).sessions).map((row) => {
    const r = object(row);
    return {
      id: text(r.id, '?'),
      message_count: num(r.message_count) ?? 0,
      last_active: text(r.last_active),
    };
  });
}

export function readPending(body: unknown): PendingApproval[] {
  return array(object(body).pending)
    .map((row) => {
      const r = object(row);
      return {
        id: text(r.id),
        tool_name: text(r.tool_name, '?'),
        command: text(r.command),
        session_id: text(r.session_id),
        created_at: num(r.created_at) ?? 0,
      };
    })
    .filter((row) => row.id !== '');
}

export function readUsage(body: unknown): UsageSummary {
  const b = object(body);
  return {
    models: Object.entries(object(b.models)).map(([model, value]) => {
      const v = object(value);
      return {
        model,
        input_tokens: num(v.input_tokens) ?? 0,
        output_tokens: num(v.output_tokens) ?? 0,
        cost_usd: num(v.cost_usd),
      };
    }),
    total_cost_usd: num(b.total_cost_usd),
  };
}

export function readChannels(body: unknown): ChannelRow[] {
  return array(object(body).channels).map((row) => {
    const r = object(row);
    return {
      name: text(r.name, '?'),
      status: text(r.status, '?'),
      unread: num(r.unread) ?? 0,
      messages_total: num(r.messages_total) ?? 0,
    };
  });
}

export function readProviders(body: unknown): ProviderRow[] {
  return array(object(body).providers).map((row) => {
    const r = object(row);
    return {
      provider: text(r.provider, '?'),
      configured: bool(r.configured),
      reachable: r.live_checked === true ? bool(r.reachable) : null,
    };
  });
}

/** `memory_entries_total` from GET /metrics/snapshot; null when the gateway has none yet. */
export function readMemoryEntries(body: unknown): number | null {
  const values = object(object(object(body).memory_entries_total).values);
  return num(values['']);
}

export function readLogLine(value: unknown): LogLine | undefined {
  const r = object(value);
  if (typeof r.msg !== 'string') return undefined;
  return {
    time: text(r.time),
    level: text(r.level, 'info'),
    msg: r.msg,
    ...(typeof r.area === 'string' ? { area: r.area } : {}),
  };
}
