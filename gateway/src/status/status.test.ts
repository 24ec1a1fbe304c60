import { rename } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  featureOffReason,
  OPTIONAL_FEATURES,
  packageInstalled,
  type OptionalFeature,
} from '../models/optional-packages.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import { hasProgram } from '../voice/testing/sox.ts';

/** No Whisper weights in a fresh state directory: no STT; TTS is espeak-ng where installed. */
const espeak = hasProgram('espeak-ng');

/** A feature is on where this install has its packages (`hearth features add`), else says how. */
function expectedFeature(feature: OptionalFeature): string {
  const missing = OPTIONAL_FEATURES[feature].filter((name) => !packageInstalled(name));
  return missing.length === 0
    ? 'on'
    : `off (hearth features add ${feature}; missing ${missing.join(', ')})`;
}

describe('GET /api/v1/status', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
    await gw.gateway.whenReady();
  });
  afterAll(() => gw.close());

  it('returns every field of the gateway status object with its type', async () => {
    const res = await fetch(`${gw.url}/api/v1/status`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      // Whether a model can answer (README, deviations): depends on a local runtime here.
      model_ready: { ok: expect.any(Boolean), detail: expect.any(String), fix: expect.any(String) },
      status: 'ok',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      uptime_seconds: expect.any(Number),
      active_sessions: 0,
      runtime_available: true,
      init_phase: 'ready',
      init_error: null,
      voice: { stt_available: false, tts_available: espeak, wake_word_active: false },
      host: {
        cpu_percent: expect.any(Number),
        memory_rss_bytes: expect.any(Number),
        disk_usage_percent: expect.any(Number),
        disk_free_bytes: expect.any(Number),
      },
      memory: { semantic_available: null },
      backends: {
        database: 'sqlite',
        keyword_search: 'fts5-trigram',
        short_term: 'in-process',
        vectors: 'in-memory',
        // Optional and absent in a fresh state directory: off, with how to turn it on.
        embedder: 'off (no embedding model; to turn on: hearth memory models pull)',
        // Rule 7: the daily memory job (retention, then archival) and its next run.
        memory_job: expect.stringMatching(
          /^daily at 03:00 local time and at start; next \d{4}-\d\d-\d\dT/,
        ),
        approvals: 'in-process',
        // `[security] untrusted_content` (a warning beside it while the gate is off).
        untrusted_content: 'prompt',
        events: 'in-process',
        executor: 'local',
        isolation: 'process-group',
        // `bubblewrap+permission` where bwrap works, else the permission model alone; and how
        // many skill hosts run (idle ones are stopped).
        skills: expect.stringMatching(/^(bubblewrap\+)?permission; 0 skill hosts running$/),
        // The OS resource limits every skill host runs under (`unavailable: <why>` refuses skills).
        skill_limits:
          'memory 256 MB, cpu 600 s per host, idle cpu 50% for 5 s, 256 open files, files 64 MB, data 256 MB, 64 threads',
        orchestrator: 'router',
        // `[tools] selection`; the ranking says `embedder` once the embedding model has loaded.
        tool_selection: 'relevant (keywords, max 8)',
        voice_stt: 'none',
        voice_tts: espeak ? 'espeak-ng' : 'none',
        // Silero needs the optional voice feature (ONNX Runtime); without it the energy VAD.
        voice_vad: featureOffReason('voice') === null ? 'silero' : 'energy',
        voice_wake: 'none',
        voice_input: expect.stringMatching(/^(arecord|none)$/),
        // The test gateway's logger keeps no tail (gateway/src/logs/logs.test.ts has one).
        logs: 'unavailable (this logger keeps no tail)',
        canvas: 'in-process',
        mcp_server: 'stopped',
        // The caps on external MCP servers and how often each was exceeded.
        mcp_limits:
          '128 tools per server, descriptions 8192 characters, schemas 16384 bytes and 32 levels, ' +
          'messages 4194304 bytes, schema checks 2000 ms; exceeded: none',
        push: 'web-push',
        // `npm run build` (and `npm install`'s prepare step) builds the client.
        web_client: expect.stringMatching(/^(built|not built)/),
      },
      // The optional features: "on" when their packages are installed, else how to add them.
      features: {
        embeddings: expectedFeature('embeddings'),
        voice: expectedFeature('voice'),
        browser: expectedFeature('browser'),
        discord: expectedFeature('discord'),
        slack: expectedFeature('slack'),
        matrix: expectedFeature('matrix'),
      },
    });
  });

  it('measures CPU since the previous read: 0.0 on the first read of a fresh gateway', async () => {
    const fresh = await startTestGateway();
    try {
      const first = (await (await fetch(`${fresh.url}/api/v1/status`)).json()) as {
        host: { cpu_percent: number; memory_rss_bytes: number };
      };
      expect(first.host.cpu_percent).toBe(0);
      expect(first.host.memory_rss_bytes).toBeGreaterThan(10_000_000);
    } finally {
      await fresh.close();
    }
  });

  it('gives null, never 0, for a host figure that cannot be read (the state directory’s disk gone)', async () => {
    const fresh = await startTestGateway();
    const moved = `${fresh.home}-moved`;
    try {
      await fresh.gateway.whenReady();
      await rename(fresh.home, moved);
      const body = (await (await fetch(`${fresh.url}/api/v1/status`)).json()) as {
        host: Record<string, number | null>;
      };
      expect(body.host).toEqual({
        cpu_percent: expect.any(Number),
        memory_rss_bytes: expect.any(Number),
        disk_usage_percent: null,
        disk_free_bytes: null,
      });
    } finally {
      await rename(moved, fresh.home);
      await fresh.close();
    }
  });
});
