import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { concatPcm16 } from './audio/pcm.ts';
import { createScriptedStt, type ScriptedStt } from './testing/scripted-stt.ts';
import { espeakSpeech16k, missingSpeechTools } from './testing/sox.ts';
import { writeTinyOpenWakeWord } from './testing/tiny-openwakeword.ts';
import { connectVoice } from './testing/voice-client.ts';
import { featureOffReason } from '../models/optional-packages.ts';

// Real VAD and ONNX models on a shared, loaded machine: generous bounds.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

// The ONNX detector needs the optional voice feature (`hearth features add voice`).
const missing = featureOffReason('voice') ?? missingSpeechTools();

describe.skipIf(missing !== undefined)(
  `/ws/voice continuous listening with the openWakeWord ONNX detector (tiny generated models: an energy classifier)${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    let bed: ChatTestBed;
    let stt: ScriptedStt;
    beforeAll(async () => {
      // The models go into the state directory's model cache, as a user would copy them.
      const home = await mkdtemp(join(tmpdir(), 'hearth-oww-home-'));
      const word = await writeTinyOpenWakeWord(join(home, 'models'));
      stt = createScriptedStt(['what is the weather tomorrow']);
      bed = await startChatTestBed(undefined, {
        home,
        config: { voice: { wake_word_model: word, wake_word_threshold: 0.5 } },
        voiceEngines: { stt },
      });
    });
    afterAll(() => bed.close());

    it('/status shows the ONNX detector as the wake-word engine', async () => {
      const status = await bed.get('/status');
      expect(status.body.backends).toMatchObject({ voice_wake: 'openwakeword' });
    });

    it('quiet speech does not wake it; loud speech does, without STT, and the NEXT utterance is the turn', async () => {
      const client = await connectVoice(bed.gw.url, { query: '?client_id=oww-speaker' });
      client.send({ type: 'continuous_start', wake: true });
      await client.waitFor((f) => f.type === 'state' && f.state === 'listening' && f.wake === true);
      expect((await bed.get('/voice/status')).body).toMatchObject({ wake_detector_active: true });

      const silence = new Int16Array(16_000);
      const wake = espeakSpeech16k('Hey Hearth.');
      const whisper = wake.map((value) => Math.round(value / 31.6));
      const question = espeakSpeech16k(
        'What is the weather going to be like tomorrow in the hills?',
      );
      expect(question.length).toBeGreaterThan(2.5 * 16_000);
      const counter = async (name: string): Promise<number> => {
        const text = await (await fetch(`${bed.gw.url}/api/v1/metrics`)).text();
        return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
      };
      const until = async (check: () => Promise<boolean>) => {
        for (let tries = 0; tries < 600 && !(await check()); tries += 1)
          await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await check()).toBe(true);
      };

      // Quiet speech: the VAD finds it, the detector scores it below the threshold.
      client.sendAudio(concatPcm16([silence, whisper, silence]));
      await until(async () => (await counter('voice_vad_segments_total')) >= 1);
      expect(await counter('voice_wake_detections_total')).toBe(0);

      // Loud speech wakes it; nothing is transcribed for that.
      client.sendAudio(concatPcm16([wake, silence]));
      await until(async () => (await counter('voice_wake_detections_total')) === 1);
      expect(stt.heard).toHaveLength(0);

      // The next utterance is the turn.
      bed.fake.reply({ text: 'Sunny.' });
      client.sendAudio(concatPcm16([question, silence]));
      const transcript = await client.waitFor((f) => f.type === 'transcript', 60_000);
      expect(transcript.text).toBe('what is the weather tomorrow');
      const done = await client.waitFor((f) => f.type === 'response_done', 60_000);
      expect(done.text).toBe('Sunny.');
      expect(stt.heard).toHaveLength(1);
      expect(stt.heard[0]!.length).toBeGreaterThan(2 * 16_000);
      expect(bed.fake.requests).toHaveLength(1);

      // Asleep again: the next loud utterance only wakes it (a second detection), it is no turn.
      const mark = client.frames.length;
      client.sendAudio(concatPcm16([question, silence]));
      await until(async () => (await counter('voice_wake_detections_total')) === 2);
      client.send({ type: 'continuous_stop' });
      await client.waitFor((f) => f.type === 'state' && f.continuous === false, 10_000, mark);
      expect(client.frames.slice(mark).some((f) => f.type === 'transcript')).toBe(false);
      expect(stt.heard).toHaveLength(1);
      expect(bed.fake.requests).toHaveLength(1);
      await client.close();
    });
  },
);
