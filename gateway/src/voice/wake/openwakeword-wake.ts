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
import { createRequire } from 'node:module';
import type * as Ort from 'onnxruntime-node';
import { unavailable, type HearthError } from '../../errors.ts';
import type { EngineAvailability, WakeDetection, WakeDetector } from '../ports.ts';
import { inspectOpenWakeWordFiles, type OpenWakeWordFiles } from './openwakeword-files.ts';

export const CHUNK_SAMPLES = 1_280;
export const MEL_CONTEXT_SAMPLES = 480;
export const MEL_BINS = 32;
export const EMBEDDING_WINDOW = 76;
export const EMBEDDING_DIM = 96;
const DEFAULT_CLASSIFIER_WINDOW = 16;
/** Silent chunks scored after a segment (320 ms). */
const TAIL_CHUNKS = 4;

interface LoadedModels {
  ort: typeof Ort;
  mel: Ort.InferenceSession;
  embedding: Ort.InferenceSession;
  classifier: Ort.InferenceSession;
  /** Embeddings the classifier reads (its input's second dimension). */
  window: number;
  /** The pipeline state after silence. */
  primed: PipelineState;
}

interface PipelineState {
  /** The last MEL_CONTEXT_SAMPLES of audio, int16-scale. */
  context: Float32Array;
  /** Rescaled mel frames, oldest first (at most EMBEDDING_WINDOW kept). */
  mel: Float32Array[];
  /** Embeddings, oldest first (at most the classifier window kept). */
  features: Float32Array[];
}

function copyState(state: PipelineState): PipelineState {
  return { context: state.context.slice(), mel: [...state.mel], features: [...state.features] };
}

function fail(step: string, detail: string): HearthError {
  return unavailable(`the openWakeWord ${step} model ${detail}`);
}

/** Runs one model; its errors (a wrong input rank, say) name the model that failed. */
async function run(
  step: string,
  session: Ort.InferenceSession,
  feeds: Ort.InferenceSession.FeedsType,
): Promise<Ort.InferenceSession.OnnxValueMapType> {
  try {
    return await session.run(feeds);
  } catch (error) {
    throw fail(step, `failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The model's first output when it is a float tensor. */
function firstOutput(
  result: Ort.InferenceSession.OnnxValueMapType,
  session: Ort.InferenceSession,
): { dims: readonly number[]; data: Float32Array } | undefined {
  const name = session.outputNames[0];
  const tensor = name === undefined ? undefined : result[name];
  if (!tensor || !(tensor.data instanceof Float32Array)) return undefined;
  return { dims: tensor.dims, data: tensor.data };
}

/** One 80 ms chunk through the three models; returns the classifier's score. */
async function step(
  models: Omit<LoadedModels, 'primed'>,
  state: PipelineState,
  chunk: Float32Array,
): Promise<number> {
  const { ort, mel, embedding, classifier, window } = models;
  const audio = new Float32Array(MEL_CONTEXT_SAMPLES + CHUNK_SAMPLES);
  audio.set(state.context, 0);
  audio.set(chunk, MEL_CONTEXT_SAMPLES);
  state.context = audio.slice(CHUNK_SAMPLES);

  const melOut = firstOutput(
    await run('melspectrogram', mel, {
      [mel.inputNames[0]!]: new ort.Tensor('float32', audio, [1, audio.length]),
    }),
    mel,
  );
  const bins = melOut?.dims.at(-1);
  if (!melOut || bins !== MEL_BINS || melOut.data.length % MEL_BINS !== 0)
    throw fail('melspectrogram', `must return float [1, 1, frames, ${MEL_BINS}]`);
  for (let offset = 0; offset < melOut.data.length; offset += MEL_BINS) {
    const frame = new Float32Array(MEL_BINS);
    for (let bin = 0; bin < MEL_BINS; bin += 1) frame[bin] = melOut.data[offset + bin]! / 10 + 2;
    state.mel.push(frame);
  }
  if (state.mel.length > EMBEDDING_WINDOW) state.mel.splice(0, state.mel.length - EMBEDDING_WINDOW);
  if (state.mel.length < EMBEDDING_WINDOW) return 0;

  const windowed = new Float32Array(EMBEDDING_WINDOW * MEL_BINS);
  state.mel.forEach((frame, index) => windowed.set(frame, index * MEL_BINS));
  const embeddingOut = firstOutput(
    await run('embedding', embedding, {
      [embedding.inputNames[0]!]: new ort.Tensor('float32', windowed, [
        1,
        EMBEDDING_WINDOW,
        MEL_BINS,
        1,
      ]),
    }),
    embedding,
  );
  if (!embeddingOut || embeddingOut.data.length !== EMBEDDING_DIM)
    throw fail('embedding', `must return float [1, 1, 1, ${EMBEDDING_DIM}]`);
  state.features.push(embeddingOut.data.slice());
  if (state.features.length > window) state.features.splice(0, state.features.length - window);
  if (state.features.length < window) return 0;

  const features = new Float32Array(window * EMBEDDING_DIM);
  state.features.forEach((feature, index) => features.set(feature, index * EMBEDDING_DIM));
  const scoreOut = firstOutput(
    await run('wake-word', classifier, {
      [classifier.inputNames[0]!]: new ort.Tensor('float32', features, [1, window, EMBEDDING_DIM]),
    }),
    classifier,
  );
  const score = scoreOut?.data[0];
  if (score === undefined) throw fail('wake-word', 'must return a float score [1, 1]');
  return Number.isFinite(score) ? Math.min(1, Math.max(0, score)) : 0;
}

function classifierWindow(session: Ort.InferenceSession): number {
  const meta = session.inputMetadata[0];
  const dims = meta && meta.isTensor ? meta.shape : [];
  const declared = dims[1];
  if (typeof declared === 'number' && declared > 0 && declared <= 256) return declared;
  return DEFAULT_CLASSIFIER_WINDOW;
}

async function loadModels(files: OpenWakeWordFiles): Promise<LoadedModels> {
  const ort = await import('onnxruntime-node');
  const options = { intraOpNumThreads: 1, interOpNumThreads: 1 };
  const open = async (step: string, file: string) => {
    try {
      return await ort.InferenceSession.create(file, options);
    } catch (error) {
      throw fail(
        step,
        `cannot load (${file}): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  const mel = await open('melspectrogram', files.melspectrogram);
  const embedding = await open('embedding', files.embedding);
  const classifier = await open('wake-word', files.classifier);
  const loaded = { ort, mel, embedding, classifier, window: classifierWindow(classifier) };
  // Prime on silence: enough chunks to fill the mel window and the classifier's embeddings.
  // This also proves the three models fit together before the first real segment.
  const primed: PipelineState = {
    context: new Float32Array(MEL_CONTEXT_SAMPLES),
    mel: [],
    features: [],
  };
  const silence = new Float32Array(CHUNK_SAMPLES);
  const chunks = loaded.window + Math.ceil(EMBEDDING_WINDOW / 8) + 2;
  try {
    for (let index = 0; index < chunks; index += 1) await step(loaded, primed, silence);
    if (primed.features.length < loaded.window)
      throw fail('melspectrogram', 'returned too few frames to fill the embedding window');
  } catch (error) {
    await Promise.allSettled([mel.release(), embedding.release(), classifier.release()]);
    throw error;
  }
  return { ...loaded, primed };
}

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
      try {
        createRequire(import.meta.url).resolve('onnxruntime-node');
      } catch {
        return {
          available: false,
          engine: 'openwakeword',
          detail: 'onnxruntime-node is not installed',
        };
      }
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
