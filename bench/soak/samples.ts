/**
 * One reading of the gateway process: RSS and descriptors from /proc (Linux), the event-loop
 * delay, descriptors and active resources from its /metrics, active sessions from /status.
 */
import { fork } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Api } from './traffic.ts';

export interface ProcessReading {
  rss_mb: number;
  /** RssAnon and RssFile + RssShmem of /proc/<pid>/status: the process's own memory, mapped files. */
  rss_anon_mb: number;
  rss_file_mb: number;
  /** `nodejs_heap_used_bytes` and `nodejs_external_memory_bytes`, in MB. */
  heap_used_mb: number | null;
  heap_total_mb: number | null;
  external_mb: number | null;
  /** `nodejs_array_buffers_bytes` (part of external) and `nodejs_malloced_memory_bytes`, MB. */
  array_buffers_mb: number | null;
  malloced_mb: number | null;
  /** `nodejs_heap_space_size_bytes` and `_used_bytes` by V8 space (`old_space`, …), MB. */
  heap_spaces_mb: Record<string, { size: number; used: number }>;
  /** `nodejs_worker_heap_total_bytes` by worker thread, MB (their isolates are not in `heap_*`). */
  worker_heaps_mb: Record<string, number>;
  /** Entries of /proc/<pid>/fd. */
  fds: number;
  /** `process_open_fds` as the gateway reports itself. */
  open_fds_metric: number | null;
  loop_p50_ms: number | null;
  loop_p99_ms: number | null;
  loop_max_ms: number | null;
  /** `nodejs_active_resources`, summed over types, and by type. */
  active_resources: number | null;
  resources_by_type: Record<string, number>;
  active_sessions: number | null;
}

/** Unlabelled values and labelled series of a Prometheus text exposition. */
export function parseMetrics(text: string): Map<string, { labels: string; value: number }[]> {
  const series = new Map<string, { labels: string; value: number }[]>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!match?.[1] || match[3] === undefined) continue;
    const list = series.get(match[1]) ?? [];
    list.push({ labels: match[2] ?? '', value: Number(match[3]) });
    series.set(match[1], list);
  }
  return series;
}

/** VmRSS, RssAnon and RssFile + RssShmem of a process, in MB (from /proc, Linux). */
export async function rssMb(pid: number): Promise<{ total: number; anon: number; file: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) =>
    Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
  const mb = (value: number) => Math.round((value / 1024) * 10) / 10;
  return {
    total: mb(kb('VmRSS')),
    anon: mb(kb('RssAnon')),
    file: mb(kb('RssFile') + kb('RssShmem')),
  };
}

export async function readProcess(pid: number, api: Api): Promise<ProcessReading> {
  const [rss, fdList, metricsText, status] = await Promise.all([
    rssMb(pid),
    readdir(`/proc/${pid}/fd`),
    fetch(`${api.baseUrl}/api/v1/metrics`, { signal: AbortSignal.timeout(30_000) }).then((res) =>
      res.text(),
    ),
    api.call('GET', '/api/v1/status'),
  ]);
  const metrics = parseMetrics(metricsText);
  const one = (name: string) => metrics.get(name)?.find((s) => s.labels === '')?.value ?? null;
  const ms = (seconds: number | null) =>
    seconds === null ? null : Math.round(seconds * 1000 * 100) / 100;
  const byType: Record<string, number> = {};
  for (const { labels, value } of metrics.get('nodejs_active_resources') ?? []) {
    const type = /type="([^"]*)"/.exec(labels)?.[1] ?? '?';
    byType[type] = value;
  }
  const resources = Object.values(byType);
  const workerHeaps: Record<string, number> = {};
  for (const { labels, value } of metrics.get('nodejs_worker_heap_total_bytes') ?? []) {
    const worker = /worker="([^"]*)"/.exec(labels)?.[1] ?? '?';
    workerHeaps[worker] = Math.round((value / 1_048_576) * 10) / 10;
  }
  const mb = (bytes: number | null) =>
    bytes === null ? null : Math.round((bytes / 1_048_576) * 10) / 10;
  const spaces: Record<string, { size: number; used: number }> = {};
  for (const [metric, key] of [
    ['nodejs_heap_space_size_bytes', 'size'],
    ['nodejs_heap_space_used_bytes', 'used'],
  ] as const)
    for (const { labels, value } of metrics.get(metric) ?? []) {
      const space = /space="([^"]*)"/.exec(labels)?.[1] ?? '?';
      spaces[space] ??= { size: 0, used: 0 };
      spaces[space][key] = mb(value)!;
    }
  return {
    rss_mb: rss.total,
    rss_anon_mb: rss.anon,
    rss_file_mb: rss.file,
    heap_used_mb: mb(one('nodejs_heap_used_bytes')),
    heap_total_mb: mb(one('nodejs_heap_total_bytes')),
    external_mb: mb(one('nodejs_external_memory_bytes')),
    array_buffers_mb: mb(one('nodejs_array_buffers_bytes')),
    malloced_mb: mb(one('nodejs_malloced_memory_bytes')),
    heap_spaces_mb: spaces,
    worker_heaps_mb: workerHeaps,
    fds: fdList.length,
    open_fds_metric: one('process_open_fds'),
    loop_p50_ms: ms(one('nodejs_eventloop_lag_p50_seconds')),
    loop_p99_ms: ms(one('nodejs_eventloop_lag_p99_seconds')),
    loop_max_ms: ms(one('nodejs_eventloop_lag_max_seconds')),
    active_resources: resources.length > 0 ? resources.reduce((a, b) => a + b, 0) : null,
    resources_by_type: byType,
    active_sessions:
      typeof status.json.active_sessions === 'number' ? status.json.active_sessions : null,
  };
}

export interface LoopFigures {
  p50: number;
  p99: number;
  max: number;
}

/**
 * The control process (control-loop.ts): its event-loop delay since the previous read; `duty`
 * is the CPU share it spends from then on (the gateway's, as last measured).
 */
export function startControlLoop() {
  const child = fork(fileURLToPath(new URL('./control-loop.ts', import.meta.url)), [], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  return {
    read(duty: number | null): Promise<LoopFigures | null> {
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(null), 10_000);
        child.once('message', (message) => {
          clearTimeout(timer);
          resolve(message as LoopFigures | null);
        });
        child.send({ duty });
      });
    },
    close(): void {
      child.disconnect();
    },
  };
}

/** utime + stime of a process, in seconds (from /proc/<pid>/stat; 100 ticks a second). */
export async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
