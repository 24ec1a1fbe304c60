import { initialState, type DashboardState } from '../dashboard-state.ts';

/** Epoch ms the sample state is taken at. */
export const NOW = Date.parse('2026-11-26T06:00:00Z');

/** A dashboard state as a busy gateway would give it (tests of the view). */
export function sampleState(patch: Partial<DashboardState> = {}): DashboardState {
  return {
    ...initialState('http://127.0.0.1:7432', NOW),
    connection: 'ok',
    status: {
      status: 'ok',
      version: '0.1.0',
      uptime_seconds: 3_725,
      init_phase: 'ready',
      init_error: null,
      active_sessions: 2,
      runtime_available: true,
      host: {
        cpu_percent: 3.5,
        memory_rss_bytes: 120 * 1024 * 1024,
        disk_usage_percent: 41.2,
        disk_free_bytes: 20 * 1024 ** 3,
      },
      semantic_available: false,
      backends: {
        database: 'sqlite',
        short_term: 'in-process',
        vectors: 'in-memory',
        logs: 'live tail (last 500 lines)',
      },
      model_ready: { ok: true, detail: 'ready: ollama/llama3.2 on the local runtime' },
    },
    sessions: [
      { id: 'web:alice', message_count: 12, last_active: '2026-11-26T05:59:00.000Z' },
      { id: 'cli:bob', message_count: 3, last_active: '2026-11-26T05:50:00.000Z' },
    ],
    pending: [
      {
        id: 'aaaaaaaa-1111-4111-8111-111111111111',
        tool_name: 'shell',
        command: 'ls -la /tmp',
        session_id: 'web:alice',
        created_at: NOW / 1000 - 33,
        expires_at: NOW / 1000 + 87,
      },
      {
        id: 'bbbbbbbb-2222-4222-8222-222222222222',
        tool_name: 'browser',
        command: 'open https://example.org',
        session_id: 'web:alice',
        created_at: NOW / 1000 - 110,
        expires_at: NOW / 1000 + 10,
      },
    ],
    usage: {
      models: [
        { model: 'gpt-4o', input_tokens: 12_345, output_tokens: 678, cost_usd: 0.0376 },
        { model: 'openrouter/some-model', input_tokens: 10, output_tokens: 5, cost_usd: null },
      ],
      total_cost_usd: 0.0376,
    },
    memoryEntries: 42,
    channels: null,
    logs: [
      {
        time: '2026-11-26T05:59:58.000Z',
        level: 'info',
        msg: 'Hearth listening on http://127.0.0.1:7432',
      },
      {
        time: '2026-11-26T05:59:59.000Z',
        level: 'warn',
        msg: 'primary unreachable',
        area: 'providers',
      },
    ],
    logsAvailable: true,
    chat: {
      lines: [
        { role: 'you', text: 'hello' },
        { role: 'agent', text: 'Hi! How can I help?' },
      ],
      busy: false,
      sessionId: 'web:cli-id',
      connected: true,
    },
    ...patch,
  };
}
