import type { GatewayStatus as WireStatus, Loose } from '@hearth/client';

/**
 * GET /api/v1/status as the generated client types it, every field optional so an older or
 * newer gateway still prints.
 */
type GatewayStatus = Loose<WireStatus>;

/** A readable summary of a status object, one `label  value` line each. */
export function formatStatus(body: unknown, url: string): string {
  const status = (body && typeof body === 'object' ? body : {}) as GatewayStatus;
  const rows: [string, string][] = [
    ['model', formatModelReady(status.model_ready)],
    ['status', `${status.status ?? '?'} (phase: ${status.init_phase ?? '?'})`],
    ['version', status.version ?? '?'],
    ['uptime', status.uptime_seconds === undefined ? '?' : formatDuration(status.uptime_seconds)],
    ['sessions', `${status.active_sessions ?? '?'} active`],
    ['host', formatHost(status.host)],
    ['backends', formatBackends(status.backends)],
  ];
  // Optional features (a gateway from before they existed sends none).
  if (status.features) rows.push(['features', formatBackends(status.features)]);
  if (status.init_error) rows.splice(1, 0, ['error', status.init_error]);
  const width = Math.max(...rows.map(([label]) => label.length));
  return [
    `Hearth at ${url}`,
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
  ].join('\n');
}

/** The first line: can a model answer, and if not, the next step. */
function formatModelReady(ready: GatewayStatus['model_ready']): string {
  if (!ready) return '?';
  return ready.ok
    ? (ready.detail ?? 'ready')
    : `NOT READY — ${ready.detail ?? ''}. ${ready.fix ?? ''}`;
}

function formatHost(host: GatewayStatus['host']): string {
  if (!host) return '?';
  const parts = [
    `cpu ${host.cpu_percent == null ? '?' : `${host.cpu_percent.toFixed(1)}%`}`,
    `rss ${host.memory_rss_bytes == null ? '?' : formatBytes(host.memory_rss_bytes)}`,
    `disk ${host.disk_usage_percent == null ? '?' : `${host.disk_usage_percent.toFixed(1)}%`} used`,
  ];
  if (host.disk_free_bytes != null) parts.push(`${formatBytes(host.disk_free_bytes)} free`);
  return parts.join(', ');
}

function formatBackends(backends: GatewayStatus['backends']): string {
  const entries = Object.entries(backends ?? {});
  return entries.length === 0
    ? 'none yet'
    : entries.map(([part, kind]) => `${part}: ${kind}`).join(', ');
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const total = Math.floor(seconds);
  const d = Math.floor(total / 86_400);
  const h = Math.floor((total % 86_400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const parts =
    d > 0 ? [`${d}d`, `${h}h`, `${m}m`] : h > 0 ? [`${h}h`, `${m}m`, `${s}s`] : [`${m}m`, `${s}s`];
  return parts.join(' ');
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit] ?? 'B'}`;
}
