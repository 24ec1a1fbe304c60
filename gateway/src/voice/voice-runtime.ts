/**
 * Builds the voice engines from `[voice]` and checks which are usable, once at start-up (and
 * again on `refresh`, e.g. after a models pull). Every choice is a fallback chain whose result
 * shows in `/api/v1/status` backends:
 *   STT   whisper (weights in the cache) → none
 *   VAD   silero (packaged ONNX) → energy
 *   TTS   piper (voice files in the cache) → espeak-ng (installed) → none; tts_engine = on/off
 *   wake  openWakeWord ONNX (wake_word_model files present) → phrase spotting on STT → none
 *   input arecord (a capture device) → none
 */
import type { Logger } from 'pino';
import type { HearthConfig } from '../config/schema.ts';
import { createArecordInput } from './audio/command-input.ts';
import type {
  AudioInput,
  EngineAvailability,
  SpeechToText,
  TextToSpeech,
  Vad,
  VoiceEngines,
  WakeDetector,
} from './ports.ts';
import { createNoSpeechToText } from './stt/none-stt.ts';
import { createWhisperStt } from './stt/whisper-stt.ts';
import { createEspeakTts } from './tts/espeak-tts.ts';
import { createPiperTts } from './tts/piper-tts.ts';
import { createTtsChain, ttsSwitchedOn } from './tts/tts-chain.ts';
import { createEnergyVad } from './vad/energy-vad.ts';
import { createSileroVad } from './vad/silero-vad.ts';
import { createOpenWakeWord } from './wake/openwakeword-wake.ts';
import { createPhraseWake } from './wake/phrase-wake.ts';
import { createWakeChain, type WakeChain } from './wake/wake-chain.ts';

export type VoiceConfig = HearthConfig['voice'];

export type EnginePart = 'input' | 'vad' | 'stt' | 'tts' | 'wake';

export interface VoiceRuntime {
  engines: VoiceEngines;
  availability: Record<EnginePart, EngineAvailability>;
  refresh(): Promise<void>;
  close(): Promise<void>;
}

/** Engines a caller supplies instead of the configured ones (tests, `hearth voice listen`). */
export type VoiceEngineOverrides = Partial<VoiceEngines>;

function configuredStt(config: VoiceConfig, modelDir: string): SpeechToText {
  const engine = config.stt.trim().toLowerCase();
  if (engine === 'whisper')
    return createWhisperStt({ modelDir, model: config.stt_model, device: config.stt_device });
  if (['', 'none', 'off', 'false', 'disabled'].includes(engine))
    return createNoSpeechToText('speech-to-text is switched off ([voice] stt)');
  return createNoSpeechToText(
    `[voice] stt = ${JSON.stringify(config.stt)} is not an engine Hearth has (use "whisper")`,
  );
}

function configuredWake(config: VoiceConfig, modelDir: string, stt: SpeechToText): WakeChain {
  const threshold = config.wake_word_threshold;
  const phrase = createPhraseWake({ stt, phrase: config.wake_word, threshold });
  if (config.wake_word_model.trim() === '') return createWakeChain([phrase]);
  return createWakeChain([
    createOpenWakeWord({ modelDir, model: config.wake_word_model, threshold }),
    phrase,
  ]);
}

async function firstAvailableVad(candidates: readonly Vad[]): Promise<Vad> {
  for (const vad of candidates) if ((await vad.availability()).available) return vad;
  return candidates.at(-1) ?? createEnergyVad();
}

export async function buildVoiceRuntime(options: {
  config: VoiceConfig;
  modelDir: string;
  overrides?: VoiceEngineOverrides;
  logger: Logger;
}): Promise<VoiceRuntime> {
  const { config, modelDir, overrides = {} } = options;
  const stt = overrides.stt ?? configuredStt(config, modelDir);
  const tts: TextToSpeech & { resolve?: () => Promise<EngineAvailability> } =
    overrides.tts ??
    createTtsChain({
      engines: [createPiperTts({ modelDir }), createEspeakTts()],
      enabled: ttsSwitchedOn(config.tts_engine),
    });
  const vad = overrides.vad ?? (await firstAvailableVad([createSileroVad(), createEnergyVad()]));
  const wake: WakeDetector & Partial<Pick<WakeChain, 'resolve'>> =
    overrides.wake ?? configuredWake(config, modelDir, stt);
  const input: AudioInput = overrides.input ?? createArecordInput();
  const engines: VoiceEngines = { input, vad, stt, tts, wake };

  const availability = {} as Record<EnginePart, EngineAvailability>;
  async function refresh(): Promise<void> {
    if (tts.resolve) await tts.resolve();
    if (wake.resolve) await wake.resolve();
    const parts: EnginePart[] = ['input', 'vad', 'stt', 'tts', 'wake'];
    const checked = await Promise.all(parts.map((part) => engines[part].availability()));
    parts.forEach((part, index) => {
      availability[part] = checked[index]!;
    });
    options.logger.info(
      Object.fromEntries(
        parts.map((part) => [
          part,
          `${availability[part].engine}${availability[part].available ? '' : ' (unavailable)'}`,
        ]),
      ),
      'voice engines',
    );
  }
  await refresh();
  return {
    engines,
    availability,
    refresh,
    async close() {
      await Promise.allSettled([stt.close(), tts.close(), vad.close(), wake.close()]);
    },
  };
}
