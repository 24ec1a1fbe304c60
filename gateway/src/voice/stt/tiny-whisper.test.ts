import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { monitorEgress } from '../../memory/embedder/testing/egress-monitor.ts';
import { startChatTestBed, type ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { espeakSpeech16k, hasProgram } from '../testing/sox.ts';
import { TINY_WHISPER_ID, TINY_WHISPER_TEXT, writeTinyWhisper } from '../testing/tiny-whisper.ts';
import { connectVoice } from '../testing/voice-client.ts';
import { runSttConformance } from './stt-conformance.ts';
import { createWhisperStt } from './whisper-stt.ts';
import { featureOffReason } from '../../models/optional-packages.ts';

// Real speech engines on a shared, loaded machine: generous bounds.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

// Whisper runs on ONNX Runtime: the optional voice feature (`hearth features add voice`).
const voiceOff = featureOffReason('voice') ?? undefined;
const missing =
  voiceOff ??
  (!hasProgram('espeak-ng') || !hasProgram('sox')
    ? 'espeak-ng or sox is not installed'
    : undefined);

let modelDir: string;
beforeAll(async () => {
  modelDir = await mkdtemp(join(tmpdir(), 'hearth-tiny-whisper-'));
  await writeTinyWhisper(modelDir);
});
afterAll(() => rm(modelDir, { recursive: true, force: true }));

// The real Whisper path — cache files, transformers' ASR pipeline, the log-mel features, both
// ONNX sessions, generation, decoding — with a tiny generated model that always says
// "hello hearth" (no real weights can be downloaded here).
runSttConformance(
  'whisper (tiny generated model)',
  () => createWhisperStt({ modelDir, model: TINY_WHISPER_ID, device: 'cpu' }),
  {
    skip: missing,
    speech: () => ({ audio: espeakSpeech16k('Hello, Hearth.'), words: ['hello', 'hearth'] }),
  },
);

describe.skipIf(voiceOff !== undefined)(
  `Whisper loads from the cache only${voiceOff ? ` (skipped: ${voiceOff})` : ''}`,
  () => {
    it('loads and transcribes with zero network egress', async () => {
      const egress = monitorEgress();
      try {
        const stt = createWhisperStt({ modelDir, model: TINY_WHISPER_ID, device: 'cpu' });
        expect(await stt.availability()).toMatchObject({ available: true, engine: 'whisper' });
        expect((await stt.transcribe(new Int16Array(16_000).fill(1_000))).text).toBe(
          TINY_WHISPER_TEXT,
        );
        await stt.close();
      } finally {
        egress.stop();
      }
      expect(egress.events).toEqual([]);
    });
  },
);

describe.skipIf(missing !== undefined)(
  `a gateway whose model cache holds Whisper${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    let bed: ChatTestBed;
    beforeAll(async () => {
      const home = await mkdtemp(join(tmpdir(), 'hearth-whisper-home-'));
      await writeTinyWhisper(join(home, 'models'));
      bed = await startChatTestBed(undefined, {
        home,
        config: { voice: { stt: 'whisper', stt_model: TINY_WHISPER_ID } },
      });
    });
    afterAll(() => bed.close());

    it('reports STT, push-to-talk and the wake detector available, and runs a turn on real STT', async () => {
      expect((await bed.get('/voice/status')).body).toMatchObject({
        stt_available: true,
        ptt_available: true,
        continuous_available: true,
      });
      const status = await bed.get('/status');
      expect(status.body.backends).toMatchObject({ voice_stt: 'whisper', voice_wake: 'phrase' });
      bed.fake.reply({ text: 'Hello to you.' });
      const client = await connectVoice(bed.gw.url);
      client.send({ type: 'ptt_start' });
      client.sendAudio(espeakSpeech16k('Hello, Hearth.'));
      client.send({ type: 'ptt_stop' });
      expect((await client.waitFor((f) => f.type === 'transcript', 60_000)).text).toBe(
        TINY_WHISPER_TEXT,
      );
      expect((await client.waitFor((f) => f.type === 'response_done', 30_000)).text).toBe(
        'Hello to you.',
      );
      await client.close();
    });
  },
);
