/**
 * Wake-word detection with openWakeWord-style ONNX models on onnxruntime-node (the files are
 * the user's: see openwakeword-files.ts). The pipeline, as openWakeWord describes it:
 *
 *   16 kHz PCM16 → 80 ms chunks (1,280 samples)
 *   → melspectrogram.onnx: each chunk with the 480 samples before it, as int16-scale floats
 *     `[1, 1760]` → `[1, 1, frames, 32]`, rescaled `mel / 10 + 2`
 *   → embedding_model.onnx: the last 76 mel frames `[1, 76, 32, 1]` → one 96-dim embedding
 *     `[1, 1, 1, 96]` per chunk (a window sliding 8 mel frames a chunk)
 *   → `<word>.onnx`: the last N embeddings `[1, N, 96]` (N from the model's input, 16 for
 *     the published words) → a score `[1, 1]`; a score ≥ `wake_word_threshold` is a wake.
 *
 * The port hands over VAD-gated segments, so each segment runs on a state primed with
 * silence (as if the stream had been quiet before it, computed once), followed by a short
 * silent tail so a word at the very end is scored; the segment's score is its best chunk's.
 * The runtime is imported lazily, on the first detection; `availability` only checks files.
 */
import { unavailable } from '../../errors.ts';
import { featureOffReason } from '../../models/optional-packages.ts';
import type { EngineAvailability, WakeDetection, WakeDetector } from '../ports.ts';
import { inspectOpenWakeWordFiles } from './openwakeword-files.ts';
import {
  CHUNK_SAMPLES,
  copyState,
  loadModels,
  step,
  type LoadedModels,
} from './openwakeword-pipeline.ts';

/** Silent chunks scored after a segment (320 ms). */
const TAIL_CHUNKS = 4;

export interface OpenWakeWordOptions {
  /** The model cache root (`{data_dir}/models`). */
  modelDir: string;
  /** `[voice] wake_word_model`: a name in `{models}/openwakeword/` or a classifier path. */
  model: string;
  threshold: number;
}

export function createOpenWakeWord(options: OpenWakeWordOptions): WakeDetector {
  let models: Promise<LoadedModels> | undefined;

  function load(): Promise<LoadedModels> {
    models ??= (async () => {
      const check = await inspectOpenWakeWordFiles(options.modelDir, options.model);
      if (!check.ok) throw unavailable(check.detail);
      return loadModels(check.files);
    })();
    models.catch(() => {
      models = undefined;
    });
    return models;
  }

  return {
    name: 'openwakeword',
    async availability(): Promise<EngineAvailability> {
      const check = await inspectOpenWakeWordFiles(options.modelDir, options.model);
      if (!check.ok) return { available: false, engine: 'openwakeword', detail: check.detail };
      const off = featureOffReason('voice');
      if (off !== null) return { available: false, engine: 'openwakeword', detail: off };
      return {
        available: true,
        engine: 'openwakeword',
        detail: `openWakeWord "${check.word}" (threshold ${options.threshold}) from ${check.files.classifier}`,
      };
    },
    async detect(segment, signal): Promise<WakeDetection> {
      const loaded = await load();
      const state = copyState(loaded.primed);
      const chunks = Math.ceil(segment.length / CHUNK_SAMPLES) + TAIL_CHUNKS;
      let best = 0;
      for (let index = 0; index < chunks; index += 1) {
        signal?.throwIfAborted();
        const chunk = new Float32Array(CHUNK_SAMPLES);
        const from = index * CHUNK_SAMPLES;
        if (from < segment.length)
          chunk.set(segment.subarray(from, Math.min(segment.length, from + CHUNK_SAMPLES)));
        best = Math.max(best, await step(loaded, state, chunk));
      }
      return { detected: best >= options.threshold, score: best };
    },
    async close() {
      const loaded = await models?.catch(() => undefined);
      models = undefined;
      if (loaded)
        await Promise.allSettled([
          loaded.mel.release(),
          loaded.embedding.release(),
          loaded.classifier.release(),
        ]);
    },
  };
}
