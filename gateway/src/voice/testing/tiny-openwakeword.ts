/**
 * Test support: TINY openWakeWord-shaped models in the model cache — `openwakeword/` with
 * `melspectrogram.onnx`, `embedding_model.onnx` and `<word>.onnx` — with the real inputs and
 * outputs (audio `[1, samples]` → mel `[1, 1, frames, 32]` with a 512-sample window and a
 * 160-sample hop; mel `[batch, 76, 32, 1]` → embedding `[batch, 1, 1, 96]`; embeddings
 * `[1, 16, 96]` → score `[1, 1]`), so the detector's real loading and inference path runs
 * without the (non-redistributable) published models.
 *
 * The weights make an ENERGY detector, not a word detector: each "mel bin" is the log mean
 * power of its window, the embedding is the window's mean, and the classifier is a sigmoid
 * of the mean of its embeddings around `centre` — loud speech scores near 1, speech 30 dB
 * quieter and silence near 0.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  EMBEDDING_FILE,
  MELSPECTROGRAM_FILE,
  OPENWAKEWORD_FOLDER,
} from '../wake/openwakeword-files.ts';
import { buildOnnxGraph, FLOAT, INT64 } from './onnx-graph.ts';

const WINDOW = 512;
const HOP = 160;
const BINS = 32;
const EMBEDDING_DIM = 96;

export interface TinyOpenWakeWordOptions {
  word?: string;
  /** The mean rescaled mel value (2 = silence, ~3.6 = speech at -20 dBFS) scoring 0.5. */
  centre?: number;
  /** Sigmoid steepness. */
  slope?: number;
  /** Embeddings the classifier reads. */
  window?: number;
}

/** `bins` other than 32 makes a wrongly shaped model (for the detector's checks). */
export function tinyMelspectrogram(bins = BINS): Uint8Array {
  return buildOnnxGraph({
    name: 'tiny_melspectrogram',
    nodes: [
      { op: 'Mul', inputs: ['input', 'input'], outputs: ['power'] },
      { op: 'Reshape', inputs: ['power', 'signal_shape'], outputs: ['signal'] },
      {
        op: 'Conv',
        inputs: ['signal', 'window'],
        outputs: ['framed'],
        intLists: { kernel_shape: [WINDOW], strides: [HOP] },
      },
      { op: 'Add', inputs: ['framed', 'one'], outputs: ['floored'] },
      { op: 'Log', inputs: ['floored'], outputs: ['log'] },
      { op: 'Transpose', inputs: ['log'], outputs: ['frames'], intLists: { perm: [0, 2, 1] } },
      { op: 'Reshape', inputs: ['frames', 'out_shape'], outputs: ['output'] },
    ],
    initializers: [
      { name: 'signal_shape', type: INT64, dims: [3], values: [1, 1, -1] },
      {
        name: 'window',
        type: FLOAT,
        dims: [bins, 1, WINDOW],
        values: new Array<number>(bins * WINDOW).fill(1 / WINDOW),
      },
      { name: 'one', type: FLOAT, dims: [1], values: [1] },
      { name: 'out_shape', type: INT64, dims: [4], values: [1, 1, -1, bins] },
    ],
    inputs: [{ name: 'input', type: FLOAT, dims: [1, 'samples'] }],
    outputs: [{ name: 'output', type: FLOAT, dims: [1, 1, 'frames', bins] }],
  });
}

export function tinyEmbeddingModel(): Uint8Array {
  return buildOnnxGraph({
    name: 'tiny_embedding',
    nodes: [
      {
        op: 'ReduceMean',
        inputs: ['input_1'],
        outputs: ['mean'],
        intLists: { axes: [1, 2, 3] },
        ints: { keepdims: 1 },
      },
      { op: 'Mul', inputs: ['mean', 'spread'], outputs: ['output'] },
    ],
    initializers: [
      {
        name: 'spread',
        type: FLOAT,
        dims: [1, 1, 1, EMBEDDING_DIM],
        values: new Array<number>(EMBEDDING_DIM).fill(1),
      },
    ],
    inputs: [{ name: 'input_1', type: FLOAT, dims: ['batch', 76, BINS, 1] }],
    outputs: [{ name: 'output', type: FLOAT, dims: ['batch', 1, 1, EMBEDDING_DIM] }],
  });
}

export function tinyClassifier(options: {
  centre: number;
  slope: number;
  window: number;
}): Uint8Array {
  return buildOnnxGraph({
    name: 'tiny_wake_word',
    nodes: [
      {
        op: 'ReduceMean',
        inputs: ['x'],
        outputs: ['mean'],
        intLists: { axes: [1, 2] },
        ints: { keepdims: 0 },
      },
      { op: 'Sub', inputs: ['mean', 'centre'], outputs: ['offset'] },
      { op: 'Mul', inputs: ['offset', 'slope'], outputs: ['logit'] },
      { op: 'Sigmoid', inputs: ['logit'], outputs: ['probability'] },
      { op: 'Reshape', inputs: ['probability', 'score_shape'], outputs: ['score'] },
    ],
    initializers: [
      { name: 'centre', type: FLOAT, dims: [1], values: [options.centre] },
      { name: 'slope', type: FLOAT, dims: [1], values: [options.slope] },
      { name: 'score_shape', type: INT64, dims: [2], values: [1, 1] },
    ],
    inputs: [{ name: 'x', type: FLOAT, dims: [1, options.window, EMBEDDING_DIM] }],
    outputs: [{ name: 'score', type: FLOAT, dims: [1, 1] }],
  });
}

/** Writes the three files under `{modelDir}/openwakeword/`; returns the word (the model name). */
export async function writeTinyOpenWakeWord(
  modelDir: string,
  options: TinyOpenWakeWordOptions = {},
): Promise<string> {
  const word = options.word ?? 'hey_tiny';
  const folder = path.join(modelDir, OPENWAKEWORD_FOLDER);
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, MELSPECTROGRAM_FILE), tinyMelspectrogram());
  await writeFile(path.join(folder, EMBEDDING_FILE), tinyEmbeddingModel());
  await writeFile(
    path.join(folder, `${word}.onnx`),
    tinyClassifier({
      centre: options.centre ?? 2.5,
      slope: options.slope ?? 12,
      window: options.window ?? 16,
    }),
  );
  return word;
}
