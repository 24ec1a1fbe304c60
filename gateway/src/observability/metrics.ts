import { Counter, Gauge, Histogram, Registry } from './prom-client.ts';
import type { HostStats } from './host-stats.ts';
import {
  createProcessSampler,
  type LoopDelayFigures,
  type ProcessSampler,
  type WorkerHeap,
} from './process-sampler.ts';

/**
 * Every metric the specification names, registered up front on a registry owned by one
 * gateway (no global registry). Areas receive this object and increment what they own.
 * Label values come from fixed sets (`channelLabel`, `modelLabel`), never from a request.
 */
export function createMetrics(
  hostStats: HostStats,
  processSampler: ProcessSampler = createProcessSampler(),
) {
  const registry = new Registry();
  const registers = [registry];
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Counter<L>({ name, help, labelNames, registers });

  const hostGauge = (
    name: string,
    help: string,
    read: () => Promise<number | null> | number | null,
  ) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const value = await read();
        if (value === null) this.reset();
        else this.set(value);
      },
    });

  const loopGauge = (name: string, help: string, pick: (figures: LoopDelayFigures) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const figures = processSampler.loopDelay();
        if (figures === null) this.reset();
        else this.set(pick(figures));
      },
    });

  const workerHeapGauge = (name: string, help: string, pick: (heap: WorkerHeap) => number) =>
    new Gauge<'worker'>({
      name,
      help,
      labelNames: ['worker'],
      registers,
      async collect() {
        this.reset();
        for (const [worker, heap] of await processSampler.workerHeaps())
          this.set({ worker }, pick(heap));
      },
    });

  const heapSpaceGauge = (
    name: string,
    help: string,
    pick: (space: ReturnType<ProcessSampler['heapSpaces']>[number]) => number,
  ) =>
    new Gauge<'space'>({
      name,
      help,
      labelNames: ['space'],
      registers,
      collect() {
        this.reset();
        for (const space of processSampler.heapSpaces())
          this.set({ space: space.space_name }, pick(space));
      },
    });

  return {
    registry,
    /** The event-loop monitor behind the `nodejs_eventloop_lag_*` gauges (started by the status area). */
    processSampler,
    messagesTotal: counter('messages_total', 'Messages received, by channel', ['channel']),
    messagesSentTotal: counter('messages_sent_total', 'Replies sent, by channel', ['channel']),
    messagesErrorsTotal: counter('messages_errors_total', 'Messages that failed, by channel', [
      'channel',
    ]),
    generationRequestsTotal: counter(
      'generation_requests_total',
      'LLM generation requests, by model',
      ['model'],
    ),
    generationErrorsTotal: counter('generation_errors_total', 'LLM generation failures, by model', [
      'model',
    ]),
    generationLatencyMs: new Gauge<'model'>({
      name: 'generation_latency_ms',
      help: 'Latency of the most recent LLM generation in milliseconds, by model',
      labelNames: ['model'],
      registers,
    }),
    generationLatencySeconds: new Histogram<'model'>({
      name: 'generation_latency_seconds',
      help: 'Distribution of LLM generation latency in seconds, by model',
      labelNames: ['model'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    }),
    tokensTotal: counter('tokens_total', 'Tokens used, by model and direction', [
      'model',
      'direction',
    ]),
    webSearchesTotal: counter(
      'web_searches_total',
      'Searches run by the provider itself (native web search), by provider',
      ['provider'],
    ),
    costUsdTotal: counter('cost_usd_total', 'Estimated cost in USD, by provider and model', [
      'provider',
      'model',
    ]),
    wsClosedSlowTotal: counter(
      'ws_closed_slow_total',
      'WebSockets closed (1013) because the client stopped reading its frames',
    ),
    sessionTurnsRefusedTotal: counter(
      'session_turns_refused_total',
      'Turns refused (409) because their session already had the most turns running or waiting',
    ),
    wsConnectionsRefusedTotal: counter(
      'ws_connections_refused_total',
      'WebSocket upgrades refused (503) because the most sockets allowed were already open',
    ),
    wsFramesRejectedTotal: counter(
      'ws_frames_rejected_total',
      'Chat frames refused because too many were already waiting on the socket',
    ),
    // Sources and limits are names fixed in the code (`skill_host`/`answer_line`, …).
    extensionInputRefusedTotal: counter(
      'extension_input_refused_total',
      'Input from a skill host, the skill sidecar, a push service or a channel far end (telegram, discord) refused over a size or count cap, by source and limit',
      ['source', 'limit'],
    ),
    // Reasons are fixed in the code: `item_bytes` (refused), `store_bytes` (evicted).
    shortTermItemsDroppedTotal: counter(
      'short_term_items_dropped_total',
      'Short-term cache items refused over the per-item byte cap or evicted over the store byte cap, by reason',
      ['reason'],
    ),
    memoryEntriesTotal: new Gauge({
      name: 'memory_entries_total',
      help: 'Entries in the long-term memory store',
      registers,
    }),
    approvalDecisionsTotal: counter('approval_decisions_total', 'Approval gate decisions', [
      'decision',
    ]),
    approvalNotificationsTotal: counter('approval_notifications_total', 'Approval notifications', [
      'outcome',
    ]),
    // Node names are registered by the owner (at most MAX_NODES); a removed node's series go.
    orchestratorRequestsTotal: counter(
      'orchestrator_requests_total',
      'Tasks routed to an orchestrator node, by node',
      ['node'],
    ),
    orchestratorErrorsTotal: counter(
      'orchestrator_errors_total',
      'Routed generations that failed, by node',
      ['node'],
    ),
    orchestratorTokensTotal: counter(
      'orchestrator_tokens_total',
      'Tokens used by routed generations, by node and direction',
      ['node', 'direction'],
    ),
    orchestratorNoMatchTotal: counter(
      'orchestrator_no_match_total',
      'Tasks no orchestrator node matched',
    ),
    voiceTranscriptionsTotal: counter(
      'voice_transcriptions_total',
      'Speech-to-text transcriptions',
    ),
    voiceSynthesisTotal: counter('voice_synthesis_total', 'Text-to-speech syntheses'),
    voicePttSessionsTotal: counter('voice_ptt_sessions_total', 'Push-to-talk recordings'),
    voiceVadSegmentsTotal: counter(
      'voice_vad_segments_total',
      'Speech segments found by voice activity detection',
    ),
    voiceWakeDetectionsTotal: counter('voice_wake_detections_total', 'Wake-word detections'),
    processCpuPercent: hostGauge(
      'process_cpu_percent',
      'Process CPU since the previous scrape, percent',
      hostStats.cpuPercent,
    ),
    processMemoryRssBytes: hostGauge(
      'process_memory_rss_bytes',
      'Process resident set size in bytes',
      hostStats.rss,
    ),
    hostDiskUsagePercent: hostGauge(
      'host_disk_usage_percent',
      'Disk usage of the state directory filesystem, percent',
      async () => (await hostStats.disk()).disk_usage_percent,
    ),
    hostDiskFreeBytes: hostGauge(
      'host_disk_free_bytes',
      'Free bytes on the state directory filesystem',
      async () => (await hostStats.disk()).disk_free_bytes,
    ),
    eventLoopLagP50Seconds: loopGauge(
      'nodejs_eventloop_lag_p50_seconds',
      'Event-loop delay beyond the 10 ms timer resolution, median over the last full minute, seconds',
      (figures) => figures.p50,
    ),
    eventLoopLagP99Seconds: loopGauge(
      'nodejs_eventloop_lag_p99_seconds',
      'Event-loop delay beyond the 10 ms timer resolution, 99th percentile over the last full minute, seconds',
      (figures) => figures.p99,
    ),
    eventLoopLagMaxSeconds: loopGauge(
      'nodejs_eventloop_lag_max_seconds',
      'Event-loop delay beyond the 10 ms timer resolution, longest over the last full minute, seconds',
      (figures) => figures.max,
    ),
    processOpenFds: hostGauge(
      'process_open_fds',
      'Open file descriptors of the gateway process',
      () => processSampler.openFds(),
    ),
    heapUsedBytes: hostGauge(
      'nodejs_heap_used_bytes',
      'V8 heap in use by the gateway process, bytes',
      () => processSampler.memory()?.heapUsed ?? null,
    ),
    heapTotalBytes: hostGauge(
      'nodejs_heap_total_bytes',
      'V8 heap reserved by the gateway process, bytes',
      () => processSampler.memory()?.heapTotal ?? null,
    ),
    externalMemoryBytes: hostGauge(
      'nodejs_external_memory_bytes',
      'Memory outside the V8 heap held by JavaScript objects (buffers included), bytes',
      () => processSampler.memory()?.external ?? null,
    ),
    arrayBuffersBytes: hostGauge(
      'nodejs_array_buffers_bytes',
      'Memory of ArrayBuffers and Buffers of the gateway process (part of external memory), bytes',
      () => processSampler.memory()?.arrayBuffers ?? null,
    ),
    mallocedMemoryBytes: hostGauge(
      'nodejs_malloced_memory_bytes',
      'Memory V8 holds through malloc beside its heap pages, bytes',
      () => processSampler.mallocedMemory(),
    ),
    heapSpaceSizeBytes: heapSpaceGauge(
      'nodejs_heap_space_size_bytes',
      'V8 heap reserved by the gateway process, bytes, by space (their sum is nodejs_heap_total_bytes)',
      (space) => space.space_size,
    ),
    heapSpaceUsedBytes: heapSpaceGauge(
      'nodejs_heap_space_used_bytes',
      'V8 heap in use by the gateway process, bytes, by space',
      (space) => space.space_used_size,
    ),
    workerHeapUsedBytes: workerHeapGauge(
      'nodejs_worker_heap_used_bytes',
      'V8 heap in use by a worker thread of the gateway, bytes, by worker',
      (heap) => heap.used,
    ),
    workerHeapTotalBytes: workerHeapGauge(
      'nodejs_worker_heap_total_bytes',
      'V8 heap reserved by a worker thread of the gateway, bytes, by worker',
      (heap) => heap.total,
    ),
    activeResources: new Gauge<'type'>({
      name: 'nodejs_active_resources',
      help: 'Node resources keeping the event loop alive (sockets, timers, child processes), by type',
      labelNames: ['type'],
      registers,
      collect() {
        this.reset();
        for (const [type, count] of processSampler.activeResources()) this.set({ type }, count);
      },
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

export interface MetricSnapshotEntry {
  type: 'counter' | 'gauge';
  description?: string;
  values: Record<string, number>;
}

/**
 * The JSON snapshot of the specification: metric name → {type, description, values}, where
 * `values` maps `k=v,k2=v2` label strings ('' when unlabelled) to numbers. Counters and gauges
 * only; histograms appear in the Prometheus text.
 */
export async function metricsSnapshot(
  registry: Registry,
): Promise<Record<string, MetricSnapshotEntry>> {
  const snapshot: Record<string, MetricSnapshotEntry> = {};
  for (const metric of await registry.getMetricsAsJSON()) {
    const type = String(metric.type);
    if (type !== 'counter' && type !== 'gauge') continue;
    const values: Record<string, number> = {};
    for (const { labels, value } of metric.values) {
      const key = Object.entries(labels)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(',');
      values[key] = value;
    }
    snapshot[metric.name] = { type, ...(metric.help ? { description: metric.help } : {}), values };
  }
  return snapshot;
}
