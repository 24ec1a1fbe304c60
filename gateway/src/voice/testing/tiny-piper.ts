/**
 * Test support: a TINY Piper-shaped voice in the model cache — `piper/<voice>.onnx` with the
 * real Piper inputs (`input` int64 [1, N] phoneme ids, `input_lengths` int64 [1], `scales`
 * float [3]) and output (`output` float [1, 1, 1, samples]), plus its `.onnx.json` with a
 * phoneme_id_map — so the Piper adapter's real loading and phonemising path runs without a
 * download. The "voice" is a tone whose pattern comes from the phoneme ids.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildOnnxGraph, FLOAT, INT64 } from './onnx-graph.ts';

/** Samples of audio per phoneme id (0.1 s at 22,050 Hz). */
const SAMPLES_PER_ID = 2_205;

export async function writeTinyPiperVoice(
  modelDir: string,
  voice = 'en_US-tiny-test',
): Promise<string> {
  const folder = path.join(modelDir, 'piper');
  await mkdir(folder, { recursive: true });
  const onnx = buildOnnxGraph({
    name: 'tiny_piper',
    nodes: [
      { op: 'Cast', inputs: ['input'], outputs: ['ids'], ints: { to: FLOAT } },
      { op: 'Mul', inputs: ['ids', 'step'], outputs: ['phase'] },
      { op: 'Sin', inputs: ['phase'], outputs: ['wave'] },
      { op: 'Mul', inputs: ['wave', 'gain'], outputs: ['quiet'] },
      { op: 'Tile', inputs: ['quiet', 'repeats'], outputs: ['long'] },
      { op: 'Reshape', inputs: ['long', 'shape'], outputs: ['output'] },
    ],
    initializers: [
      { name: 'step', type: FLOAT, dims: [1], values: [0.9] },
      { name: 'gain', type: FLOAT, dims: [1], values: [0.5] },
      { name: 'repeats', type: INT64, dims: [2], values: [1, SAMPLES_PER_ID] },
      { name: 'shape', type: INT64, dims: [4], values: [1, 1, 1, -1] },
    ],
    inputs: [
      { name: 'input', type: INT64, dims: [1, 'phonemes'] },
      { name: 'input_lengths', type: INT64, dims: [1] },
      { name: 'scales', type: FLOAT, dims: [3] },
    ],
    outputs: [{ name: 'output', type: FLOAT, dims: [1, 1, 1, 'samples'] }],
  });
  await writeFile(path.join(folder, `${voice}.onnx`), onnx);
  // IPA symbols espeak-ng produces for English, each its own id (^ BOS, $ EOS, _ pad).
  const symbols = ['_', '^', '$', ' ', ...'abdefhijklmnoprstuvwzæðŋɐɑɔəɚɛɜɡɪɹɾʃʊʌʒʔˈˌːθ'];
  await writeFile(
    path.join(folder, `${voice}.onnx.json`),
    JSON.stringify({
      audio: { sample_rate: 22_050 },
      espeak: { voice: 'en-us' },
      inference: { noise_scale: 0.667, length_scale: 1, noise_w: 0.8 },
      num_speakers: 1,
      phoneme_id_map: Object.fromEntries(symbols.map((symbol, index) => [symbol, [index]])),
    }),
  );
  return voice;
}
