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
