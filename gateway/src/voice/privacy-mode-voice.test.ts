/**
 * Rule 12: privacy mode "forces every LLM request to the local runtime … Speech-to-text … [is]
 * unchanged (already local) … It has no effect on the voice pipeline." A push-to-talk turn on
 * /ws/voice with privacy mode on: the same audio reaches speech-to-text, the transcript is
 * answered by the local runtime, and speech comes back as without it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { createScriptedStt, type ScriptedStt } from './testing/scripted-stt.ts';
import { espeakSpeech16k, missingSpeechTools } from './testing/sox.ts';
import { connectVoice } from './testing/voice-client.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const missing = missingSpeechTools();

describe.skipIf(missing !== undefined)(
  `privacy mode and the voice pipeline${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    let bed: ChatTestBed;
    let stt: ScriptedStt;
    beforeAll(async () => {
      stt = createScriptedStt(['is it going to rain']);
      bed = await startChatTestBed(undefined, { voiceEngines: { stt } });
    });
    afterAll(() => bed.close());

    it('a push-to-talk turn is transcribed and spoken as usual; only the model is the local one', async () => {
      expect((await bed.post('/settings/privacy', { enabled: true })).status).toBe(200);
      const status = (await bed.get('/voice/status')).body;
      expect(status).toMatchObject({ stt_available: true, ptt_available: true });

      const speech = espeakSpeech16k('Is it going to rain?');
      bed.fake.reply({ text: 'No rain today.' });
      const client = await connectVoice(bed.gw.url, { query: '?client_id=privacy-voice' });
      await client.waitFor((frame) => frame.type === 'state');
      client.send({ type: 'ptt_start' });
      await client.waitFor((frame) => frame.type === 'state' && frame.state === 'recording');
      client.sendAudio(speech);
      client.send({ type: 'ptt_stop' });

      expect((await client.waitFor((frame) => frame.type === 'transcript')).text).toBe(
        'is it going to rain',
      );
      expect(stt.heard.at(-1)).toEqual(speech);
      expect((await client.waitFor((frame) => frame.type === 'response_done')).text).toBe(
        'No rain today.',
      );
      await client.waitFor((frame) => frame.type === 'tts_audio' && frame.final === true, 30_000);
      // The one model call went to the local runtime.
      expect(bed.fake.requests.map((request) => request.wire)).toEqual(['ollama']);
      await client.close();
    });
  },
);
