import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bytesToPcm16, concatPcm16, pcm16ToBytes } from './audio/pcm.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { createScriptedStt, type ScriptedStt } from './testing/scripted-stt.ts';
import { espeakSpeech16k, missingSpeechTools, soxStat } from './testing/sox.ts';
import { connectVoice, type VoiceFrame } from './testing/voice-client.ts';

// Real speech engines on a shared, loaded machine: generous bounds.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const missing = missingSpeechTools();

function ttsAudioOf(frames: VoiceFrame[]): { samples: Int16Array; sampleRate: number } {
  const audio = frames.filter((frame) => frame.type === 'tts_audio');
  return {
    samples: concatPcm16(
      audio.map((frame) => bytesToPcm16(Buffer.from(frame.data as string, 'base64'))),
    ),
    sampleRate: audio[0]?.sample_rate as number,
  };
}

describe.skipIf(missing !== undefined)(
  `/ws/voice push-to-talk turn: STT double, espeak-ng speech back${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    let bed: ChatTestBed;
    let stt: ScriptedStt;
    let speech: Int16Array;
    beforeAll(async () => {
      stt = createScriptedStt(['what should I cook tonight']);
      bed = await startChatTestBed(undefined, { voiceEngines: { stt } });
      speech = espeakSpeech16k('What should I cook tonight?');
    });
    afterAll(() => bed.close());
    afterEach(() => bed.fake.reset());

    it('records, transcribes, answers through the chat turn and streams real audio frames back', async () => {
      bed.fake.reply({ text: 'Try a mushroom risotto. It takes thirty minutes.' });
      const client = await connectVoice(bed.gw.url, { query: '?client_id=kitchen-tablet' });
      const first = await client.waitFor((frame) => frame.type === 'state');
      expect(first).toMatchObject({ state: 'idle', ptt: 'ready', continuous: false });

      client.send({ type: 'ptt_start' });
      await client.waitFor((frame) => frame.type === 'state' && frame.state === 'recording');
      client.sendAudio(speech);
      client.send({ type: 'ptt_stop' });

      const transcript = await client.waitFor((frame) => frame.type === 'transcript');
      expect(transcript.text).toBe('what should I cook tonight');
      const done = await client.waitFor((frame) => frame.type === 'response_done');
      expect(done.text).toBe('Try a mushroom risotto. It takes thirty minutes.');
      // The client id is the durable memory identity, as on /ws.
      expect(done.session_id).toMatch(/^web-[0-9a-f]{16}$/);
      await client.waitFor((frame) => frame.type === 'tts_audio' && frame.final === true, 30_000);
      await client.waitFor(
        (frame) => frame.type === 'state' && frame.state === 'idle',
        10_000,
        client.frames.indexOf(done),
      );

      // Every sample sent reached STT, in order.
      expect(stt.heard.at(-1)).toEqual(speech);
      // The chat turn saw the transcript as the user's message.
      expect(JSON.stringify(bed.fake.requests.at(-1)?.body)).toContain(
        'what should I cook tonight',
      );

      const chunks = client.frames
        .filter((frame) => frame.type === 'response_chunk')
        .map((frame) => frame.text);
      expect(chunks.join('')).toBe(done.text);

      // The audio frames are real speech: sox measures their length and loudness.
      const audio = ttsAudioOf(client.frames);
      expect(audio.sampleRate).toBe(22_050);
      const stat = soxStat(audio);
      expect(stat.seconds).toBeGreaterThan(2);
      expect(stat.seconds).toBeLessThan(12);
      expect(stat.rmsAmplitude).toBeGreaterThan(0.01);
      // Two sentences, synthesised one by one; the last frame is marked final.
      const sentences = new Set(
        client.frames.filter((f) => f.type === 'tts_audio' && f.data !== '').map((f) => f.sentence),
      );
      expect([...sentences]).toEqual(['Try a mushroom risotto.', 'It takes thirty minutes.']);
      const ttsFrames = client.frames.filter((frame) => frame.type === 'tts_audio');
      expect(ttsFrames.filter((frame) => frame.final === true)).toHaveLength(1);
      expect(ttsFrames.at(-1)?.final).toBe(true);
      await client.close();
    });

    it('counts the transcription, the syntheses and the push-to-talk session in /metrics', async () => {
      const metrics = await (await fetch(`${bed.gw.url}/api/v1/metrics`)).text();
      expect(metrics).toMatch(/^voice_transcriptions_total [1-9]/m);
      expect(metrics).toMatch(/^voice_synthesis_total [1-9]/m);
      expect(metrics).toMatch(/^voice_ptt_sessions_total [1-9]/m);
      expect(metrics).toMatch(/^messages_total\{channel="voice"\} [1-9]/m);
    });

    it('runs slash commands like any chat channel (no model call)', async () => {
      const client = await connectVoice(bed.gw.url);
      const before = bed.fake.requests.length;
      stt.say('/privacy');
      client.send({ type: 'ptt_start' });
      client.sendAudio(speech.subarray(0, 16_000));
      client.send({ type: 'ptt_stop' });
      const done = await client.waitFor((frame) => frame.type === 'response_done');
      expect(done.text).toMatch(/privacy/i);
      expect(bed.fake.requests.length).toBe(before);
      // The command's answer is spoken too.
      await client.waitFor((frame) => frame.type === 'tts_audio' && frame.final === true, 30_000);
      await client.close();
    });

    it('hears nothing in silence: an empty transcript and no turn', async () => {
      const client = await connectVoice(bed.gw.url);
      const before = bed.fake.requests.length;
      client.send({ type: 'ptt_start' });
      client.sendAudio(new Int16Array(16_000));
      client.send({ type: 'ptt_stop' });
      const transcript = await client.waitFor((frame) => frame.type === 'transcript');
      expect(transcript.text).toBe('');
      await client.waitFor(
        (frame) => frame.type === 'state' && frame.state === 'idle',
        10_000,
        client.frames.indexOf(transcript),
      );
      expect(bed.fake.requests.length).toBe(before);
      await client.close();
    });

    describe('bad frames get an error frame and the socket stays open', () => {
      const cases: [string, unknown][] = [
        ['malformed JSON', '{"type": "audio", '],
        ['a JSON value that is not a frame', '[1,2,3]'],
        ['an unknown frame type', { type: 'shout' }],
        ['audio at the wrong sample rate', { type: 'audio', data: 'AAAA', sample_rate: 44_100 }],
        [
          'audio that is not base64',
          { type: 'audio', data: '%%%not base64%%%', sample_rate: 16_000 },
        ],
        [
          'audio with an odd byte count',
          { type: 'audio', data: Buffer.from([1, 2, 3]).toString('base64') },
        ],
        [
          'a WAV file instead of raw PCM',
          {
            type: 'audio',
            data: Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(40)]).toString('base64'),
          },
        ],
        [
          'an oversized audio frame',
          { type: 'audio', data: pcm16ToBytes(new Int16Array(40_000)).toString('base64') },
        ],
        ['audio data that is not a string', { type: 'audio', data: 12 }],
        [
          'audio outside a recording',
          { type: 'audio', data: pcm16ToBytes(new Int16Array(160)).toString('base64') },
        ],
        ['ptt_stop while not recording', { type: 'ptt_stop' }],
        ['a non-boolean wake flag', { type: 'continuous_start', wake: 'yes' }],
      ];
      it.each(cases)('%s', async (_name, frame) => {
        const client = await connectVoice(bed.gw.url);
        await client.waitFor((f) => f.type === 'state');
        client.send(frame);
        const error = await client.waitFor((f) => f.type === 'error');
        expect(typeof error.detail).toBe('string');
        expect((error.detail as string).length).toBeGreaterThan(5);
        client.send({ type: 'ping' });
        await client.waitFor((f) => f.type === 'pong');
        await client.close();
      });

      it('a binary frame', async () => {
        const client = await connectVoice(bed.gw.url);
        client.socket.send(pcm16ToBytes(new Int16Array(160)));
        const error = await client.waitFor((f) => f.type === 'error');
        expect(error.detail).toMatch(/binary frames are not accepted/);
        client.send({ type: 'ping' });
        await client.waitFor((f) => f.type === 'pong');
        await client.close();
      });

      it('a 1.5 MiB frame gets an error frame, the socket stays and the next frame works', async () => {
        const client = await connectVoice(bed.gw.url);
        await client.waitFor((f) => f.type === 'state');
        client.send({ type: 'ptt_start' });
        await client.waitFor((f) => f.type === 'state' && f.state === 'recording');
        // 48 s of audio in ONE frame: above the router's 1 MiB default, below the voice cap.
        const huge = pcm16ToBytes(new Int16Array(786_432).fill(1_000)).toString('base64');
        expect(huge.length).toBeGreaterThan(1.5 * 1_048_576);
        client.send({ type: 'audio', data: huge, sample_rate: 16_000 });
        const error = await client.waitFor((f) => f.type === 'error', 30_000);
        expect(error.detail).toMatch(/frame too large \(\d+ bytes\).*limited to 131072 bytes/);
        expect(client.socket.readyState).toBe(client.socket.OPEN);
        // Nothing of it was recorded; a valid frame afterwards is, and the turn runs.
        client.sendAudio(speech);
        bed.fake.reply({ text: 'Soup.' });
        client.send({ type: 'ptt_stop' });
        const done = await client.waitFor((f) => f.type === 'response_done', 60_000);
        expect(done.text).toBe('Soup.');
        expect(stt.heard.at(-1)!.length).toBe(speech.length);
        await client.close();
      });

      it('a 20 MiB frame still closes the socket with 1009 (the hard cap protects memory)', async () => {
        const client = await connectVoice(bed.gw.url);
        await client.waitFor((f) => f.type === 'state');
        const closed = new Promise<number>((resolve) =>
          client.socket.once('close', (code: number) => resolve(code)),
        );
        client.socket.on('error', () => undefined);
        client.send(JSON.stringify({ type: 'audio', data: 'A'.repeat(20 * 1_048_576) }));
        expect(await closed).toBe(1009);
        // The gateway is fine: a new socket works.
        const next = await connectVoice(bed.gw.url);
        next.send({ type: 'ping' });
        await next.waitFor((f) => f.type === 'pong');
        await next.close();
      });

      it('a recording longer than the limit keeps what it had and still answers', async () => {
        const client = await connectVoice(bed.gw.url);
        client.send({ type: 'ptt_start' });
        // 61 s of audio in 2 s frames: the last frames are refused.
        const second = new Int16Array(16_000).fill(2_000);
        for (let index = 0; index < 61; index += 1) client.sendAudio(second, 16_000);
        const error = await client.waitFor((f) => f.type === 'error', 30_000);
        expect(error.detail).toMatch(/limited to 60 s/);
        bed.fake.reply({ text: 'Noted.' });
        client.send({ type: 'ptt_stop' });
        const done = await client.waitFor((f) => f.type === 'response_done', 30_000);
        expect(done.text).toBe('Noted.');
        expect(stt.heard.at(-1)?.length).toBe(60 * 16_000);
        await client.close();
      });
    });

    it('passes the shared origin check: a foreign browser Origin is closed with 1008', async () => {
      const client = await connectVoice(bed.gw.url, {
        headers: { Origin: 'https://evil.example' },
      });
      const code = await new Promise<number>((resolve) =>
        client.socket.once('close', (c: number) => resolve(c)),
      );
      expect(code).toBe(1008);
    });

    it('passes the shared Host check: a rebinding Host is refused before the handshake', async () => {
      await expect(
        connectVoice(bed.gw.url, { headers: { Host: 'attacker.example' } }),
      ).rejects.toThrow(/403/);
    });

    it('reports the voice status: STT and TTS real, nothing recording', async () => {
      const status = await bed.get('/voice/status');
      expect(status.body).toEqual({
        runtime_available: true,
        continuous_available: true,
        continuous_listening: false,
        ptt_available: true,
        ptt_is_recording: false,
        wake_detector_active: false,
        is_handoff_active: false,
        stt_available: true,
        tts_available: true,
      });
      const gateway = await bed.get('/status');
      expect(gateway.body.voice).toEqual({
        stt_available: true,
        tts_available: true,
        wake_word_active: false,
      });
    });
  },
);
