/**
 * The parts of the gateway's REST answers the dashboard shows, typed by the generated client
 * (`@hearth/client`, from the gateway's OpenAPI document): each row names the wire fields it
 * keeps, so a renamed or retyped field fails the typecheck here. `read*` functions take
 * whatever arrived and keep only well-typed fields (a missing number becomes null), so an
 * older, newer or hostile gateway cannot crash the view.
 */
import type { ApiResponse } from '@hearth/client';
import { untrustedSourcesOf, type UntrustedSource } from '../../../common/text/command-display.ts';

type Status = ApiResponse<'/status'>;
type Session = ApiResponse<'/sessions'>['sessions'][number];
type Pending = ApiResponse<'/approvals/pending'>['pending'][number];
type Usage = ApiResponse<'/usage'>;
type Channel = ApiResponse<'/channels'>['channels'][number];
type Provider = ApiResponse<'/models'>['providers'][number];
type Host = Status['host'];

/** A wire field as the dashboard shows it: null when the gateway did not send it. */
type OrNull<T> = { [K in keyof T]: T[K] | null };

export interface GatewayStatus {
  status: string;
  version: Status['version'];
  uptime_seconds: Status['uptime_seconds'] | null;
  init_phase: string;
  init_error: string | null;
  active_sessions: Status['active_sessions'] | null;
  runtime_available: Status['runtime_available'] | null;
  host: OrNull<
    Pick<Host, 'cpu_percent' | 'memory_rss_bytes' | 'disk_usage_percent' | 'disk_free_bytes'>
  >;
  semantic_available: Status['memory']['semantic_available'] | null;
  backends: Status['backends'];
  /** Can a model answer the next message (null: a gateway from before `model_ready`). */
  model_ready: Pick<Status['model_ready'], 'ok' | 'detail'> | null;
}

export type SessionRow = Pick<Session, 'id' | 'message_count' | 'last_active'>;

export type PendingApproval = Pick<
  Pending,
  'id' | 'tool_name' | 'command' | 'session_id' | 'created_at' | 'expires_at'
> & {
  /** What the turn read before asking (absent or empty for a clean turn; newer gateways). */
  untrusted_sources?: UntrustedSource[];
};

type ModelWire = Usage['models'][string];

export interface ModelUsage {
  model: string;
  input_tokens: ModelWire['input_tokens'];
  output_tokens: ModelWire['output_tokens'];
  cost_usd: ModelWire['cost_usd'] | null;
}

export interface UsageSummary {
  models: ModelUsage[];
  total_cost_usd: Usage['total_cost_usd'] | null;
}

/** `status` stays a string: '?' when the gateway sent none, a newer gateway's new states. */
export type ChannelRow = Pick<Channel, 'name' | 'unread' | 'messages_total'> & { status: string };

export interface ProviderRow {
  provider: string;
  configured: Provider['configured'] | null;
  reachable: Provider['reachable'] | null;
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
/** An answer's object with the wire type's field names, its values not trusted yet. */
const fields = <T>(value: unknown): { [K in keyof T]?: unknown } => object(value);
const array = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown, fallback = ''): string =>
  typeof value === 'string' ? value : fallback;
const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const bool = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);

export function readStatus(body: unknown): GatewayStatus {
  const b = fields<Status>(body);
  const host = fields<Host>(b.host);
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
    semantic_available: bool(fields<Status['memory']>(b.memory).semantic_available),
    backends,
    model_ready: readModelReady(b.model_ready),
  };
}

function readModelReady(value: unknown): GatewayStatus['model_ready'] {
  const ready = fields<Status['model_ready']>(value);
  const ok = bool(ready.ok);
  return ok === null ? null : { ok, detail: text(ready.detail) };
}

export function readSessions(body: unknown): SessionRow[] {
  return array(fields<ApiResponse<'/sessions'>>(body).sessions).map((row) => {
    const r = fields<Session>(row);
    return {
      id: text(r.id, '?'),
      message_count: num(r.message_count) ?? 0,
      last_active: text(r.last_active),
    };
  });
}

export function readPending(body: unknown): PendingApproval[] {
  return array(fields<ApiResponse<'/approvals/pending'>>(body).pending)
    .map((row) => {
      const r = fields<Pending>(row);
      return {
        id: text(r.id),
        tool_name: text(r.tool_name, '?'),
        command: text(r.command),
        session_id: text(r.session_id),
        created_at: num(r.created_at) ?? 0,
        expires_at: num(r.expires_at) ?? 0,
        untrusted_sources: untrustedSourcesOf(r),
      };
    })
    .filter((row) => row.id !== '');
}

export function readUsage(body: unknown): UsageSummary {
  const b = fields<Usage>(body);
  return {
    models: Object.entries(object(b.models)).map(([model, value]) => {
      const v = fields<ModelWire>(value);
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
  return array(fields<ApiResponse<'/channels'>>(body).channels).map((row) => {
    const r = fields<Channel>(row);
    return {
      name: text(r.name, '?'),
      status: text(r.status, '?'),
      unread: num(r.unread) ?? 0,
      messages_total: num(r.messages_total) ?? 0,
    };
  });
}

export function readProviders(body: unknown): ProviderRow[] {
  return array(fields<ApiResponse<'/models'>>(body).providers).map((row) => {
    const r = fields<Provider>(row);
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
