import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { concatPcm16 } from './audio/pcm.ts';
import { createScriptedStt } from './testing/scripted-stt.ts';
import { espeakSpeech16k, missingSpeechTools } from './testing/sox.ts';
import { connectVoice } from './testing/voice-client.ts';

// Real speech engines on a shared, loaded machine: generous bounds.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const missing = missingSpeechTools();

describe.skipIf(missing !== undefined)(
  `/ws/voice continuous listening with the wake word${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    let bed: ChatTestBed;
    beforeAll(async () => {
      // Phrase spotting runs on the same STT: the first utterance says the wake word.
      bed = await startChatTestBed(undefined, {
        voiceEngines: {
          stt: createScriptedStt(['hey hearth', 'what is the time', 'and the date']),
        },
      });
    });
    afterAll(() => bed.close());

    it('sleeps until the wake word, then the next utterance is a turn, then sleeps again', async () => {
      const client = await connectVoice(bed.gw.url, { query: '?client_id=hall-speaker' });
      client.send({ type: 'continuous_start', wake: true });
      await client.waitFor((f) => f.type === 'state' && f.state === 'listening' && f.wake === true);
      const status = await bed.get('/voice/status');
      expect(status.body).toMatchObject({ continuous_listening: true, wake_detector_active: true });
      expect((await bed.get('/status')).body.voice).toMatchObject({ wake_word_active: true });

      const silence = new Int16Array(16_000);
      const wake = espeakSpeech16k('Hey Hearth.');
      const question = espeakSpeech16k('What is the time?');
      bed.fake.reply({ text: 'It is noon.' });
      client.sendAudio(concatPcm16([silence, wake, silence, question, silence]));
      const transcripts = [await client.waitFor((f) => f.type === 'transcript', 30_000)];
      expect(transcripts[0]!.text).toBe('what is the time');
      const done = await client.waitFor((f) => f.type === 'response_done', 30_000);
      expect(done.text).toBe('It is noon.');
      expect(bed.fake.requests).toHaveLength(1);

      // Asleep again: the next utterance does not wake it ("and the date" is not the phrase).
      const mark = client.frames.length;
      client.sendAudio(concatPcm16([question, silence, silence]));
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(client.frames.slice(mark).some((f) => f.type === 'transcript')).toBe(false);
      expect(bed.fake.requests).toHaveLength(1);

      client.send({ type: 'continuous_stop' });
      await client.waitFor((f) => f.type === 'state' && f.continuous === false, 10_000, mark);
      const metrics = await (await fetch(`${bed.gw.url}/api/v1/metrics`)).text();
      expect(metrics).toMatch(/^voice_wake_detections_total 1$/m);
      expect(metrics).toMatch(/^voice_vad_segments_total [3-9]/m);
      expect((await bed.get('/voice/status')).body).toMatchObject({
        continuous_listening: false,
        wake_detector_active: false,
      });
      await client.close();
    });

    it('closing the socket stops its listening', async () => {
      const client = await connectVoice(bed.gw.url);
      client.send({ type: 'continuous_start' });
      await client.waitFor((f) => f.type === 'state' && f.state === 'listening');
      expect((await bed.get('/voice/status')).body).toMatchObject({ continuous_listening: true });
      await client.close();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await bed.get('/voice/status')).body).toMatchObject({ continuous_listening: false });
    });

    it('refuses push-to-talk while listening, and a second continuous_start', async () => {
      const client = await connectVoice(bed.gw.url);
      client.send({ type: 'continuous_start' });
      await client.waitFor((f) => f.type === 'state' && f.state === 'listening');
      client.send({ type: 'continuous_start' });
      expect((await client.waitFor((f) => f.type === 'error')).detail).toBe('already listening');
      client.send({ type: 'ptt_start' });
      await client.waitFor(
        (f) => f.type === 'error' && /continuous listening is on/.test(f.detail as string),
      );
      await client.close();
    });
  },
);
