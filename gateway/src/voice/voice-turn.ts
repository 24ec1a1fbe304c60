/**
 * One spoken turn: the utterance's audio → STT → the chat turn service (the same pipeline as
 * every chat entry point, channel `voice`, slash commands included) → the reply streamed as
 * text → each completed sentence synthesised while the rest of the reply is still arriving.
 * Everything the user should see or hear goes to a `VoiceTurnSink` (a socket, or the host).
 */
import type { Logger } from 'pino';
import type { Metrics } from '../observability/metrics.ts';
import type { Pcm16Audio, SpeechToText, TextToSpeech } from './ports.ts';
import { createSentenceSplitter } from './sentences.ts';

/** The chat turn service as voice uses it (agent/pipeline.ts `runTurn`). */
export type RunTurn = (input: {
  sessionId: string;
  message: string;
  channel: 'voice';
  signal?: AbortSignal;
  onText?: (delta: string) => void | Promise<void>;
}) => Promise<{ reply: string; sessionId: string }>;

export type VoicePhase =
  'idle' | 'recording' | 'listening' | 'transcribing' | 'responding' | 'speaking';

export interface VoiceTurnSink {
  phase(phase: VoicePhase): void | Promise<void>;
  transcript(text: string): void | Promise<void>;
  responseChunk(text: string): void | Promise<void>;
  responseDone(reply: string, sessionId: string): void | Promise<void>;
  /** One synthesised sentence; `final` on the last audio of the reply. */
  audio(audio: Pcm16Audio, info: { sentence: string; final: boolean }): void | Promise<void>;
}

export interface VoiceTurnDeps {
  stt: SpeechToText;
  tts: TextToSpeech;
  /** Whether TTS is usable now (checked once per turn by the caller). */
  speak: boolean;
  runTurn: RunTurn;
  metrics: Metrics;
  logger: Logger;
}

export interface VoiceTurnResult {
  transcript: string;
  response: string;
  sessionId: string;
}

/** Transcribes, runs the turn and speaks the reply; an empty transcript runs no turn. */
export async function runVoiceTurn(
  deps: VoiceTurnDeps,
  input: { audio: Int16Array; sessionId: string; signal?: AbortSignal },
  sink: VoiceTurnSink,
): Promise<VoiceTurnResult> {
  await sink.phase('transcribing');
  const { text } = await deps.stt.transcribe(input.audio, input.signal);
  deps.metrics.voiceTranscriptionsTotal.inc();
  const transcript = text.trim();
  await sink.transcript(transcript);
  if (transcript === '') return { transcript, response: '', sessionId: input.sessionId };
  return respond(deps, { ...input, message: transcript }, sink);
}

/** Runs a turn for text already transcribed (continuous mode's wake + utterance). */
export async function respond(
  deps: VoiceTurnDeps,
  input: { message: string; sessionId: string; signal?: AbortSignal },
  sink: VoiceTurnSink,
): Promise<VoiceTurnResult> {
  await sink.phase('responding');
  const splitter = createSentenceSplitter();
  // Sentences are synthesised one after another, in order, while the reply streams on; each is
  // sent as soon as it is ready. The last audio of the reply carries `final`.
  let speech: Promise<void> = Promise.resolve();
  let spoken = 0;
  let speechFailed = false;
  const speak = (sentence: string, final: boolean) => {
    if (!deps.speak || speechFailed) return;
    speech = speech.then(async () => {
      if (speechFailed || input.signal?.aborted) return;
      try {
        const audio = await deps.tts.synthesize(sentence, input.signal);
        deps.metrics.voiceSynthesisTotal.inc();
        spoken += 1;
        await sink.audio(audio, { sentence, final });
      } catch (error) {
        speechFailed = true;
        deps.logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'speech synthesis failed; the reply stays text',
        );
      }
    });
  };
  let streamed = false;
  const result = await deps.runTurn({
    sessionId: input.sessionId,
    message: input.message,
    channel: 'voice',
    signal: input.signal,
    onText: async (delta) => {
      streamed = true;
      await sink.responseChunk(delta);
      for (const sentence of splitter.push(delta)) speak(sentence, false);
    },
  });
  // A reply that did not stream is shown and spoken whole.
  if (!streamed && result.reply !== '') {
    await sink.responseChunk(result.reply);
    for (const sentence of splitter.push(result.reply)) speak(sentence, false);
  }
  const rest = splitter.end();
  rest.forEach((sentence, index) => speak(sentence, index === rest.length - 1));
  await sink.responseDone(result.reply, result.sessionId);
  if (deps.speak) {
    await sink.phase('speaking');
    await speech;
    // The last sentence was already sent while streaming: an empty frame ends the audio.
    if (rest.length === 0 && spoken > 0 && !speechFailed)
      await sink.audio(
        { samples: new Int16Array(0), sampleRate: 0 },
        { sentence: '', final: true },
      );
  }
  return { transcript: input.message, response: result.reply, sessionId: result.sessionId };
}
