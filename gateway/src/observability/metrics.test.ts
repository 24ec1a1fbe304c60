import { open, type FileHandle } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';

const SPEC_COUNTERS = [
  'messages_total',
  'messages_sent_total',
  'messages_errors_total',
  'generation_requests_total',
  'generation_errors_total',
  'tokens_total',
  'cost_usd_total',
  'approval_decisions_total',
  'approval_notifications_total',
  'voice_transcriptions_total',
  'voice_synthesis_total',
  'voice_ptt_sessions_total',
  'voice_vad_segments_total',
  'voice_wake_detections_total',
];
const SPEC_GAUGES = [
  'generation_latency_ms',
  'memory_entries_total',
  'process_cpu_percent',
  'process_memory_rss_bytes',
  'host_disk_usage_percent',
  'host_disk_free_bytes',
];

describe('metrics', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
    await gw.gateway.whenReady();
    gw.gateway.metrics.messagesTotal.inc({ channel: 'telegram' }, 3);
    gw.gateway.metrics.tokensTotal.inc({ model: 'claude-sonnet-4', direction: 'input' }, 120);
  });
  afterAll(() => gw.close());

  it('serves every named metric in the Prometheus text format', async () => {
    const res = await fetch(`${gw.url}/api/v1/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    for (const name of SPEC_COUNTERS) expect(text).toContain(`# TYPE ${name} counter`);
    for (const name of SPEC_GAUGES) expect(text).toContain(`# TYPE ${name} gauge`);
    expect(text).toContain('messages_total{channel="telegram"} 3');
    expect(text).toMatch(/process_memory_rss_bytes \d+/);
  });

  it('serves the JSON snapshot keyed by label strings', async () => {
    const res = await fetch(`${gw.url}/api/v1/metrics/snapshot`);
    const snapshot = (await res.json()) as Record<
      string,
      { type: string; description?: string; values: Record<string, number> }
    >;
    for (const name of SPEC_COUNTERS) expect(snapshot[name]?.type).toBe('counter');
    for (const name of SPEC_GAUGES) expect(snapshot[name]?.type).toBe('gauge');
    expect(snapshot.messages_total).toEqual({
      type: 'counter',
      description: 'Messages received, by channel',
      values: { 'channel=telegram': 3 },
    });
    expect(snapshot.tokens_total?.values).toEqual({ 'model=claude-sonnet-4,direction=input': 120 });
    expect(snapshot.process_memory_rss_bytes?.values['']).toBeGreaterThan(0);
    expect(snapshot.generation_latency_seconds).toBeUndefined();
  });
});

/** One gauge's unlabelled value from the Prometheus text. */
function gaugeValue(text: string, name: string): number {
  const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  if (!match?.[1]) throw new Error(`${name} not in the metrics`);
  return Number(match[1]);
}

describe('process metrics of the gateway itself', () => {
  it('shows an event-loop stall in nodejs_eventloop_lag_*_seconds, descriptors in process_open_fds', async () => {
    const gw = await startTestGateway();
    const files: FileHandle[] = [];
    try {
      await gw.gateway.whenReady();
      const scrape = async () => (await fetch(`${gw.url}/api/v1/metrics`)).text();
      const before = await scrape();
      expect(before).toContain('# TYPE nodejs_eventloop_lag_p99_seconds gauge');
      expect(before).toMatch(/^nodejs_active_resources\{type="TCPServerWrap"\} [1-9]/m);
      const fdsBefore = gaugeValue(before, 'process_open_fds');
      expect(gaugeValue(before, 'nodejs_heap_used_bytes')).toBeGreaterThan(0);
      expect(gaugeValue(before, 'nodejs_heap_total_bytes')).toBeGreaterThanOrEqual(
        gaugeValue(before, 'nodejs_heap_used_bytes'),
      );
      expect(gaugeValue(before, 'nodejs_external_memory_bytes')).toBeGreaterThan(0);
      expect(gaugeValue(before, 'nodejs_array_buffers_bytes')).toBeGreaterThan(0);
      expect(gaugeValue(before, 'nodejs_malloced_memory_bytes')).toBeGreaterThan(0);
      // Per space: the reserved sizes add up to the total, old space among them.
      const spaces = [
        ...before.matchAll(/^nodejs_heap_space_size_bytes\{space="(\w+)"\} (\S+)$/gm),
      ];
      expect(spaces.map((m) => m[1])).toContain('old_space');
      expect(before).toMatch(/^nodejs_heap_space_used_bytes\{space="old_space"\} [1-9]/m);
      const spaceSum = spaces.reduce((sum, m) => sum + Number(m[2]), 0);
      expect(Math.abs(spaceSum - gaugeValue(before, 'nodejs_heap_total_bytes'))).toBeLessThan(
        0.2 * spaceSum,
      );
      expect(fdsBefore).toBeGreaterThan(0);

      // The gateway runs in this process: stall its event loop for 300 ms.
      await new Promise<void>((resolve) =>
        setTimeout(() => {
          const end = performance.now() + 300;
          while (performance.now() < end) {
            // busy
          }
          resolve();
        }, 0),
      );
      // 100 more descriptors; the count may also move by a few that the rest of this process
      // opens or closes meanwhile, so the check leaves room for that.
      for (let i = 0; i < 100; i += 1) files.push(await open(import.meta.filename, 'r'));
      const after = await scrape();
      expect(gaugeValue(after, 'nodejs_eventloop_lag_max_seconds')).toBeGreaterThanOrEqual(0.25);
      expect(gaugeValue(after, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0.25);
      expect(gaugeValue(after, 'process_open_fds')).toBeGreaterThanOrEqual(fdsBefore + 90);
      const snapshot = (await (await fetch(`${gw.url}/api/v1/metrics/snapshot`)).json()) as Record<
        string,
        { type: string; values: Record<string, number> }
      >;
      expect(snapshot.nodejs_eventloop_lag_p99_seconds?.type).toBe('gauge');
      expect(snapshot.process_open_fds?.values['']).toBeGreaterThanOrEqual(fdsBefore + 90);
    } finally {
      for (const file of files) await file.close();
      await gw.close();
    }
    // Closed: the monitor is stopped and reports nothing.
    expect(gw.gateway.metrics.processSampler.loopDelay()).toBeNull();
  });
});
