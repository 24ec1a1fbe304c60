/**
 * Piper voices (VITS models exported to ONNX) when their files are in the model cache:
 * `{data_dir}/models/piper/<voice>.onnx` with `<voice>.onnx.json` beside it, put there by
 * `hearth voice models pull --tts`. Text becomes IPA phonemes with espeak-ng (as Piper itself
 * does), phonemes become ids through the voice's `phoneme_id_map`, and onnxruntime-node runs
 * the model. Without the files (or espeak-ng for phonemes) the engine is unavailable.
 */
import { access, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type * as Ort from 'onnxruntime-common';
import { z } from 'zod';
import { unavailable } from '../../errors.ts';
import { featureOffReason, importOptional } from '../../models/optional-packages.ts';
import { float32ToPcm16 } from '../audio/pcm.ts';
import { commandWorks, runCommand } from '../audio/run-command.ts';
import type { EngineAvailability, Pcm16Audio, TextToSpeech } from '../ports.ts';
import { MAX_TTS_CHARS } from './espeak-tts.ts';

export const PIPER_FOLDER = 'piper';
export const DEFAULT_PIPER_VOICE = 'en_US-lessac-medium';

const voiceConfig = z.object({
  audio: z.object({ sample_rate: z.number().int().min(8_000).max(96_000) }),
  espeak: z.object({ voice: z.string().regex(/^[\w-]{1,40}$/) }).default({ voice: 'en-us' }),
  inference: z
    .object({ noise_scale: z.number(), length_scale: z.number(), noise_w: z.number() })
    .default({ noise_scale: 0.667, length_scale: 1, noise_w: 0.8 }),
  num_speakers: z.number().int().default(1),
  phoneme_id_map: z.record(z.string(), z.array(z.number().int().min(0))),
});

type VoiceConfig = z.infer<typeof voiceConfig>;

/** A voice's `.onnx.json`, validated (throws on a file that is not one). */
export function parsePiperVoiceConfig(text: string): VoiceConfig {
  return voiceConfig.parse(JSON.parse(text));
}

/** The first voice in the cache (the default one if present), or undefined. */
export async function findPiperVoice(modelDir: string): Promise<string | undefined> {
  let names: string[];
  try {
    names = await readdir(path.join(modelDir, PIPER_FOLDER));
  } catch {
    return undefined;
  }
  const voices = names
    .filter((name) => name.endsWith('.onnx') && names.includes(`${name}.json`))
    .map((name) => name.slice(0, -'.onnx'.length))
    .sort();
  return voices.includes(DEFAULT_PIPER_VOICE) ? DEFAULT_PIPER_VOICE : voices[0];
}

/** Piper's id sequence: BOS, then each phoneme followed by PAD, then EOS. */
export function phonemeIds(phonemes: string, map: VoiceConfig['phoneme_id_map']): number[] {
  const id = (symbol: string) => map[symbol] ?? [];
  const ids = [...id('^'), ...id('_')];
  for (const symbol of phonemes) {
    const known = map[symbol];
    if (!known) continue;
    ids.push(...known, ...id('_'));
  }
  ids.push(...id('$'));
  return ids;
}

export function createPiperTts(options: {
  modelDir: string;
  voice?: string;
  espeakCommand?: string;
}): TextToSpeech {
  const espeak = options.espeakCommand ?? 'espeak-ng';
  let loaded:
    | Promise<{
        ort: typeof Ort;
        session: Ort.InferenceSession;
        config: VoiceConfig;
        voice: string;
      }>
    | undefined;

  async function locate(): Promise<{ voice: string; onnx: string; json: string } | string> {
    const voice = options.voice ?? (await findPiperVoice(options.modelDir));
    if (!voice)
      return `no Piper voice in ${path.join(options.modelDir, PIPER_FOLDER)}; run \`hearth voice models pull --tts\``;
    const onnx = path.join(options.modelDir, PIPER_FOLDER, `${voice}.onnx`);
    return { voice, onnx, json: `${onnx}.json` };
  }

  function load() {
    loaded ??= (async () => {
      const where = await locate();
      if (typeof where === 'string') throw unavailable(where);
      const config = parsePiperVoiceConfig(await readFile(where.json, 'utf8'));
      const ort = await importOptional<typeof Ort>('onnxruntime-node', 'voice');
      const session = await ort.InferenceSession.create(where.onnx, { intraOpNumThreads: 1 });
      return { ort, session, config, voice: where.voice };
    })();
    loaded.catch(() => {
      loaded = undefined;
    });
    return loaded;
  }

  return {
    name: 'piper',
    async availability(): Promise<EngineAvailability> {
      const where = await locate();
      if (typeof where === 'string') return { available: false, engine: 'piper', detail: where };
      const off = featureOffReason('voice');
      if (off !== null) return { available: false, engine: 'piper', detail: off };
      if (!(await commandWorks(espeak, ['--version'])))
        return {
          available: false,
          engine: 'piper',
          detail: 'Piper needs espeak-ng for phonemes; it is not installed',
        };
      // Cheap: the voice's files are there and its config parses; the model loads on first use.
      try {
        parsePiperVoiceConfig(await readFile(where.json, 'utf8'));
        await access(where.onnx);
        return { available: true, engine: 'piper', detail: `Piper voice ${where.voice}` };
      } catch (error) {
        return {
          available: false,
          engine: 'piper',
          detail: `Piper voice ${where.voice} cannot load: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
    },
    async synthesize(text, signal): Promise<Pcm16Audio> {
      signal?.throwIfAborted();
      const { ort, session, config } = await load();
      const phonemes = await runCommand(espeak, ['-q', '--ipa', '-v', config.espeak.voice], {
        input: text.slice(0, MAX_TTS_CHARS),
        signal,
      });
      if (phonemes.code !== 0)
        throw unavailable(`espeak-ng phonemisation failed: ${phonemes.stderr.trim()}`);
      const ids = phonemeIds(
        phonemes.stdout
          .toString('utf8')
          .replace(/\s*\n\s*/g, ' ')
          .trim(),
        config.phoneme_id_map,
      );
      const { noise_scale, length_scale, noise_w } = config.inference;
      const feeds: Record<string, Ort.Tensor> = {
        input: new ort.Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, ids.length]),
        input_lengths: new ort.Tensor('int64', BigInt64Array.from([BigInt(ids.length)]), [1]),
        scales: new ort.Tensor(
          'float32',
          Float32Array.from([noise_scale, length_scale, noise_w]),
          [3],
        ),
      };
      if (config.num_speakers > 1)
        feeds.sid = new ort.Tensor('int64', BigInt64Array.from([0n]), [1]);
      signal?.throwIfAborted();
      const out = await session.run(feeds);
      const audio = (out.output ?? Object.values(out)[0])?.data;
      if (!(audio instanceof Float32Array)) throw unavailable('the Piper model returned no audio');
      return { samples: float32ToPcm16(audio), sampleRate: config.audio.sample_rate };
    },
    async close() {
      const model = await loaded?.catch(() => undefined);
      loaded = undefined;
      await model?.session.release();
    },
  };
}
