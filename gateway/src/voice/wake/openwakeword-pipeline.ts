/**
 * The openWakeWord feature pipeline on onnxruntime-node: loads the three models, primes a
 * state on silence, and scores one 80 ms chunk at a time (see openwakeword-wake.ts for the
 * shapes). A model of the wrong shape or one that fails is reported as a 503 naming it.
 */
import type * as Ort from 'onnxruntime-common';
import { unavailable, type HearthError } from '../../errors.ts';
import { importOptional } from '../../models/optional-packages.ts';
import type { OpenWakeWordFiles } from './openwakeword-files.ts';

export const CHUNK_SAMPLES = 1_280;
export const MEL_CONTEXT_SAMPLES = 480;
export const MEL_BINS = 32;
export const EMBEDDING_WINDOW = 76;
export const EMBEDDING_DIM = 96;
const DEFAULT_CLASSIFIER_WINDOW = 16;
export interface LoadedModels {
  ort: typeof Ort;
  mel: Ort.InferenceSession;
  embedding: Ort.InferenceSession;
  classifier: Ort.InferenceSession;
  /** Embeddings the classifier reads (its input's second dimension). */
  window: number;
  /** The pipeline state after silence. */
  primed: PipelineState;
}

export interface PipelineState {
  /** The last MEL_CONTEXT_SAMPLES of audio, int16-scale. */
  context: Float32Array;
  /** Rescaled mel frames, oldest first (at most EMBEDDING_WINDOW kept). */
  mel: Float32Array[];
  /** Embeddings, oldest first (at most the classifier window kept). */
  features: Float32Array[];
}

export function copyState(state: PipelineState): PipelineState {
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
export async function step(
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

/** Loads the three models and primes a state on silence (which also checks they fit). */
export async function loadModels(files: OpenWakeWordFiles): Promise<LoadedModels> {
  const ort = await importOptional<typeof Ort>('onnxruntime-node', 'voice');
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
