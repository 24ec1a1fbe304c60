import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../config/load.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import { createFileAudioInput } from './audio/command-input.ts';
import { concatPcm16, encodeWav } from './audio/pcm.ts';
import { createScriptedStt } from './testing/scripted-stt.ts';
import { espeakSpeech16k, hasProgram, missingSpeechTools } from './testing/sox.ts';
import { connectVoice } from './testing/voice-client.ts';
import { featureOffReason } from '../models/optional-packages.ts';

// Real speech engines on a shared, loaded machine: generous bounds.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const missing = missingSpeechTools();
const espeak = hasProgram('espeak-ng');

describe('voice on this machine, as configured (no Whisper weights, no sound card)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
    await gw.gateway.whenReady();
  });
  afterAll(() => gw.close());
  const api = (path: string, init?: RequestInit) => fetch(`${gw.url}/api/v1${path}`, init);
  const post = (path: string, body?: unknown) =>
    api(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('GET /voice/status: the nine booleans, true only when real', async () => {
    const res = await api('/voice/status');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      runtime_available: true,
      continuous_available: false,
      continuous_listening: false,
      ptt_available: false,
      ptt_is_recording: false,
      wake_detector_active: false,
      is_handoff_active: false,
      stt_available: false,
      tts_available: espeak,
    });
  });

  it('GET /voice/config: the [voice] values and why each engine is (un)available', async () => {
    const body = (await (await api('/voice/config')).json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      stt: 'whisper',
      stt_model: 'base',
      stt_device: 'cpu',
      tts_engine: 'auto',
      wake_word: 'hey hearth',
      wake_word_threshold: 0.5,
      wake_word_model: '',
      ptt: 'unavailable',
    });
    const engines = body.engines as Record<
      string,
      { engine: string; available: boolean; detail: string }
    >;
    expect(engines.stt).toMatchObject({ engine: 'whisper', available: false });
    expect(engines.stt!.detail).toContain('hearth voice models pull');
    expect(engines.tts).toMatchObject({ engine: espeak ? 'espeak-ng' : 'none', available: espeak });
    // Silero needs the optional voice feature (ONNX Runtime); without it the energy VAD.
    expect(engines.vad).toMatchObject({
      engine: featureOffReason('voice') === null ? 'silero' : 'energy',
      available: true,
    });
    // No openWakeWord model is set and phrase spotting needs STT: no detector.
    expect(engines.wake).toMatchObject({ engine: 'none', available: false });
    expect(engines.wake!.detail).toMatch(/phrase: phrase spotting needs speech-to-text/);
  });

  it('GET /voice/devices: none here, honestly', async () => {
    const body = (await (await api('/voice/devices')).json()) as Record<string, unknown>;
    expect(body).toEqual({
      input: [],
      output: [],
      active: { input_device: '', output_device: '' },
    });
  });

  it('push-to-talk and continuous listening answer 200 {started: false} with the reason (no microphone, no STT)', async () => {
    for (const [path, body] of [
      ['/voice/ptt/start', undefined],
      ['/voice/continuous/start', undefined],
      ['/voice/continuous/start', { wake: true }],
    ] as const) {
      const res = await post(path, body);
      expect(res.status, path).toBe(200);
      const answer = (await res.json()) as { started: boolean; reason: string };
      expect(answer, path).toEqual({ started: false, reason: expect.any(String) });
      expect(answer.reason, path).toMatch(/^(no host audio input|speech-to-text is unavailable): /);
    }
    // Nothing started: the status says so, and stopping has nothing to stop.
    expect(await (await api('/voice/status')).json()).toMatchObject({
      ptt_is_recording: false,
      continuous_listening: false,
    });
    expect(await (await post('/voice/ptt/stop')).json()).toEqual({
      transcript: '',
      response: '',
      stopped: false,
    });
    expect(await (await post('/voice/continuous/stop')).json()).toEqual({ stopped: false });
  });

  it('/ws/voice says push-to-talk is unavailable and refuses ptt_start with the reason', async () => {
    const client = await connectVoice(gw.url);
    expect(await client.waitFor((f) => f.type === 'state')).toMatchObject({ ptt: 'unavailable' });
    client.send({ type: 'ptt_start' });
    const error = await client.waitFor((f) => f.type === 'error');
    expect(error.detail).toMatch(/speech-to-text is unavailable: .*hearth voice models pull/);
    await client.close();
  });

  describe('POST /settings/voice', () => {
    it('persists stt, stt_model and stt_device to [voice] and says a restart is required', async () => {
      const res = await post('/settings/voice', { stt_model: 'small.en', stt_device: 'cpu' });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        ok: true,
        restart_required: true,
        updated_fields: ['stt_model', 'stt_device'],
      });
      const text = await readFile(join(gw.home, 'config.toml'), 'utf8');
      const config = parseConfig(text, 'config.toml');
      expect(config.voice).toMatchObject({
        stt_model: 'small.en',
        stt_device: 'cpu',
        stt: 'whisper',
      });
      // Not applied until restart.
      expect(((await (await api('/voice/config')).json()) as { stt_model: string }).stt_model).toBe(
        'base',
      );
    });

    it.each([
      ['an empty body', {}],
      ['a key that is not stt, stt_model or stt_device', { tts_engine: 'off' }],
      ['an unknown engine', { stt: 'cloud-stt' }],
      ['a model id that leaves the cache', { stt_model: '../../etc' }],
      ['a model id with a dot-dot segment', { stt_model: 'org/..' }],
      ['control characters', { stt_model: 'base\u0000' }],
      ['an oversized value', { stt_model: 'a'.repeat(500) }],
      ['a wrong type', { stt_device: 3 }],
    ])('refuses %s with 422 and writes nothing', async (_name, body) => {
      const before = await readFile(join(gw.home, 'config.toml'), 'utf8').catch(() => '');
      const res = await post('/settings/voice', body);
      expect(res.status).toBe(422);
      expect(typeof ((await res.json()) as { detail: unknown }).detail).toBe('string');
      expect(await readFile(join(gw.home, 'config.toml'), 'utf8').catch(() => '')).toBe(before);
    });

    it('refuses malformed JSON with 422, as every route does', async () => {
      const res = await api('/settings/voice', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"stt": ',
      });
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({ detail: 'Malformed JSON in request body' });
    });
  });
});

describe('voice behind an API key', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ config: { gateway: { api_key: 'voice-key-123' } } });
    await gw.gateway.whenReady();
  });
  afterAll(() => gw.close());

  it('REST needs the key', async () => {
    expect((await fetch(`${gw.url}/api/v1/voice/status`)).status).toBe(401);
    const ok = await fetch(`${gw.url}/api/v1/voice/status`, {
      headers: { 'X-API-Key': 'voice-key-123' },
    });
    expect(ok.status).toBe(200);
  });

  it('/ws/voice needs the key', async () => {
    await expect(connectVoice(gw.url)).rejects.toThrow(/401/);
    const client = await connectVoice(gw.url, { headers: { 'X-API-Key': 'voice-key-123' } });
    await client.waitFor((f) => f.type === 'state');
    await client.close();
  });
});

describe.skipIf(missing !== undefined)(
  `host audio: a WAV file as the microphone, an STT double${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    let bed: ChatTestBed;
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'hearth-voice-host-'));
      const speech = espeakSpeech16k('Remind me to water the plants.');
      const silence = new Int16Array(16_000);
      const file = join(dir, 'microphone.wav');
      await writeFile(
        file,
        encodeWav({
          samples: concatPcm16([silence, speech, silence, silence]),
          sampleRate: 16_000,
        }),
      );
      bed = await startChatTestBed(undefined, {
        voiceEngines: {
          stt: createScriptedStt(['remind me to water the plants']),
          input: createFileAudioInput(file),
        },
      });
    });
    afterAll(async () => {
      await bed.close();
      await rm(dir, { recursive: true, force: true });
    });

    it('POST /voice/ptt/start records, /voice/ptt/stop returns the transcript and the response', async () => {
      bed.fake.reply({ text: 'I will remind you.' });
      expect((await bed.post('/voice/ptt/start', undefined)).body).toEqual({ started: true });
      expect((await bed.get('/voice/status')).body).toMatchObject({ ptt_is_recording: true });
      expect((await bed.post('/voice/ptt/start', undefined)).body).toEqual({
        started: false,
        reason: 'push-to-talk is already recording',
      });
      // Let sox deliver the file.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const stop = await bed.post('/voice/ptt/stop', undefined);
      expect(stop.status).toBe(200);
      expect(stop.body).toEqual({
        transcript: 'remind me to water the plants',
        response: 'I will remind you.',
        stopped: true,
      });
      expect((await bed.get('/voice/status')).body).toMatchObject({ ptt_is_recording: false });
    });

    it('continuous listening turns each utterance the VAD finds into a turn', async () => {
      bed.fake.reply({ text: 'Done.' });
      const before = bed.fake.requests.length;
      expect((await bed.post('/voice/continuous/start', {})).body).toEqual({ started: true });
      expect((await bed.get('/voice/status')).body).toMatchObject({ continuous_listening: true });
      const deadline = Date.now() + 20_000;
      while (bed.fake.requests.length === before && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(bed.fake.requests.length).toBe(before + 1);
      expect((await bed.post('/voice/continuous/stop', undefined)).body).toEqual({ stopped: true });
      expect((await bed.get('/voice/status')).body).toMatchObject({ continuous_listening: false });
      const metrics = await (await fetch(`${bed.gw.url}/api/v1/metrics`)).text();
      expect(metrics).toMatch(/^voice_vad_segments_total [1-9]/m);
    });

    it('a microphone without speech-to-text starts nothing: 200 {started: false} naming STT', async () => {
      const noStt = await startTestGateway({
        voiceEngines: { input: createFileAudioInput(join(dir, 'microphone.wav')) },
      });
      try {
        await noStt.gateway.whenReady();
        for (const path of ['/voice/ptt/start', '/voice/continuous/start']) {
          const res = await fetch(`${noStt.url}/api/v1${path}`, { method: 'POST' });
          expect(res.status, path).toBe(200);
          expect(await res.json(), path).toEqual({
            started: false,
            reason: expect.stringMatching(/^speech-to-text is unavailable: /),
          });
        }
      } finally {
        await noStt.close();
      }
    });

    it('refuses a body that is not {wake?: boolean}', async () => {
      const res = await bed.post('/voice/continuous/start', { wake: 'yes' });
      expect(res.status).toBe(422);
    });
  },
);
