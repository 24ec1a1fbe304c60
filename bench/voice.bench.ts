/**
 * Voice figures (node bench/voice.bench.ts):
 *
 * - VAD real-time factor: processing time / audio time, Silero (packaged ONNX, one thread) and
 *   the energy fallback, over 60 s of espeak-ng speech and sox silence.
 * - Wake-word detector real-time factor: the openWakeWord pipeline (mel → embedding →
 *   classifier per 80 ms chunk) over the same 60 s, with the TINY generated models of the tests
 *   (an energy classifier: this measures the pipeline's own overhead, not the published models'
 *   compute); with the user's files in {HEARTH_MODELS}/openwakeword/ and BENCH_WAKE_WORD set,
 *   those are measured too.
 * - espeak-ng synthesis time per sentence: BENCH_SENTENCES (10) sentences, one process each.
 * - First audio byte after the reply's first sentence: a real gateway (the chat test bed) with
 *   an STT double; the fake LLM streams a three-sentence reply in word chunks 40 ms apart. The
 *   clock starts when the `response_chunk` that completes the first sentence arrives on
 *   /ws/voice and stops at the first `tts_audio` frame. BENCH_RUNS (10) turns after a warm-up.
 * - STT real-time factor: Whisper weights cannot be downloaded on this machine (no model hub);
 *   with weights in {HEARTH_MODELS}/onnx-community/whisper-<size>/ it is measured, else reported
 *   as not measured with the reason.
 */
import { concatPcm16 } from '../gateway/src/voice/audio/pcm.ts';
import { createWhisperStt } from '../gateway/src/voice/stt/whisper-stt.ts';
import { startChatTestBed } from '../gateway/src/testing/gateway/chat-gateway.ts';
import { createScriptedStt } from '../gateway/src/voice/testing/scripted-stt.ts';
import { espeakSpeech16k, soxGenerate } from '../gateway/src/voice/testing/sox.ts';
import { connectVoice } from '../gateway/src/voice/testing/voice-client.ts';
import { createEspeakTts } from '../gateway/src/voice/tts/espeak-tts.ts';
import { createEnergyVad } from '../gateway/src/voice/vad/energy-vad.ts';
import { createSileroVad } from '../gateway/src/voice/vad/silero-vad.ts';
import { writeTinyOpenWakeWord } from '../gateway/src/voice/testing/tiny-openwakeword.ts';
import { createOpenWakeWord } from '../gateway/src/voice/wake/openwakeword-wake.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Vad } from '../gateway/src/voice/ports.ts';
import { percentile } from './process.ts';

const report = (line: string) => void process.stdout.write(`${line}\n`);

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const SENTENCES = Number(process.env.BENCH_SENTENCES ?? 10);

const speech = espeakSpeech16k(
  'Please turn on the kitchen lights and set a timer for ten minutes.',
);
const silence = soxGenerate(['trim', '0', '2']).samples;
const parts: Int16Array[] = [];
while (parts.reduce((sum, part) => sum + part.length, 0) < 60 * 16_000) parts.push(speech, silence);
const minute = concatPcm16(parts).subarray(0, 60 * 16_000);

async function vadFactor(vad: Vad): Promise<{ factor: number; segments: number }> {
  const warm = await vad.stream();
  await warm.push(minute.subarray(0, 16_000));
  const stream = await vad.stream();
  const started = performance.now();
  let segments = 0;
  for (let offset = 0; offset < minute.length; offset += 1_600)
    segments += (await stream.push(minute.subarray(offset, offset + 1_600))).length;
  segments += stream.flush().length;
  const seconds = (performance.now() - started) / 1000;
  await vad.close();
  return { factor: seconds / 60, segments };
}

const silero = await vadFactor(createSileroVad());
const energy = await vadFactor(createEnergyVad());
report(
  `VAD real-time factor over 60 s of audio: Silero ${silero.factor.toFixed(4)} (${silero.segments} segments), energy ${energy.factor.toFixed(4)} (${energy.segments} segments)`,
);

async function wakeFactor(modelDir: string, model: string): Promise<number> {
  const wake = createOpenWakeWord({ modelDir, model, threshold: 0.5 });
  await wake.detect(minute.subarray(0, 16_000)); // loads the models and primes on silence
  const started = performance.now();
  await wake.detect(minute);
  const factor = (performance.now() - started) / 1000 / 60;
  await wake.close();
  return factor;
}

const tinyDir = await mkdtemp(join(tmpdir(), 'hearth-bench-oww-'));
const tinyWord = await writeTinyOpenWakeWord(tinyDir);
report(
  `wake-word detector real-time factor over 60 s (openWakeWord pipeline, TINY generated test models, one thread): ${(await wakeFactor(tinyDir, tinyWord)).toFixed(4)}`,
);
await rm(tinyDir, { recursive: true, force: true });
const userWord = process.env.BENCH_WAKE_WORD;
const userModels = process.env.HEARTH_MODELS ?? `${process.env.HOME ?? ''}/.hearth/models`;
if (userWord) {
  report(
    `wake-word detector real-time factor over 60 s (openWakeWord "${userWord}" from ${userModels}): ${(await wakeFactor(userModels, userWord)).toFixed(4)}`,
  );
} else {
  report(
    'wake-word detector real-time factor with published openWakeWord models: not measured (they are not redistributable and not on this machine; set BENCH_WAKE_WORD with the files in {HEARTH_MODELS}/openwakeword/)',
  );
}

const tts = createEspeakTts();
await tts.synthesize('Warm up.');
const synthesis: number[] = [];
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
for (let index = 0; index < SENTENCES; index += 1) {
  const started = performance.now();
  await tts.synthesize(`This is sentence number ${index + 1}, spoken by the local speech engine.`);
  synthesis.push(performance.now() - started);
}
report(
  `espeak-ng synthesis per sentence (${SENTENCES} sentences): p50 ${percentile(sorted(synthesis), 50).toFixed(1)} ms, p95 ${percentile(sorted(synthesis), 95).toFixed(1)} ms`,
);

const bed = await startChatTestBed(undefined, {
  voiceEngines: { stt: createScriptedStt(['tell me about the weather']) },
});
const reply = 'The sky is clear this morning. Rain comes in the evening. Take an umbrella.';
const words = reply.split(/(?<= )/);
const firstAudio: number[] = [];
for (let run = 0; run < RUNS + 1; run += 1) {
  bed.fake.reply({ chunks: words, chunkDelayMs: 40 });
  const client = await connectVoice(bed.gw.url);
  await client.waitFor((frame) => frame.type === 'state');
  let text = '';
  let sentenceAt = 0;
  let audioAt = 0;
  client.socket.on('message', (data: Buffer) => {
    const frame = JSON.parse(data.toString('utf8')) as { type: string; text?: string };
    if (frame.type === 'response_chunk' && sentenceAt === 0) {
      text += frame.text ?? '';
      if (/\.\s/.test(text)) sentenceAt = performance.now();
    } else if (frame.type === 'tts_audio' && audioAt === 0) audioAt = performance.now();
  });
  client.send({ type: 'ptt_start' });
  client.sendAudio(speech);
  client.send({ type: 'ptt_stop' });
  await client.waitFor((frame) => frame.type === 'tts_audio' && frame.final === true, 60_000);
  if (run > 0) firstAudio.push(audioAt - sentenceAt);
  await client.close();
}
await bed.close();
report(
  `first audio byte after the reply's first sentence (${RUNS} turns): p50 ${percentile(sorted(firstAudio), 50).toFixed(1)} ms, p95 ${percentile(sorted(firstAudio), 95).toFixed(1)} ms, max ${Math.max(...firstAudio).toFixed(1)} ms`,
);

const modelDir = process.env.HEARTH_MODELS ?? `${process.env.HOME ?? ''}/.hearth/models`;
const stt = createWhisperStt({
  modelDir,
  model: process.env.BENCH_WHISPER ?? 'base',
  device: 'cpu',
});
const availability = await stt.availability();
if (!availability.available) {
  report(`STT real-time factor: not measured: ${availability.detail}`);
} else {
  await stt.transcribe(speech);
  const started = performance.now();
  const { text } = await stt.transcribe(minute.subarray(0, 30 * 16_000));
  const factor = (performance.now() - started) / 1000 / 30;
  report(`STT real-time factor (Whisper, 30 s): ${factor.toFixed(3)} — "${text.slice(0, 60)}…"`);
  await stt.close();
}
