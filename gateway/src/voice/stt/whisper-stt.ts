/**
 * Whisper speech-to-text run in-process by `@huggingface/transformers` on onnxruntime-node
 * (already the embedder's library). Weights load ONLY from the model cache
 * (`{data_dir}/models/<org>/<name>/`), put there by `hearth voice models pull`; nothing is
 * downloaded at run time (transformers-runtime.ts refuses the network outside a pull).
 * Without weights the engine is unavailable and says which files are missing.
 */
import { unavailable } from '../../errors.ts';
import {
  importTransformers,
  withTransformersEnv,
  type TransformersModule,
} from '../../models/transformers-runtime.ts';
import { pcm16ToFloat32 } from '../audio/pcm.ts';
import type { EngineAvailability, SpeechToText, Transcript } from '../ports.ts';
import { inspectWhisperFolder, whisperModelId, type WhisperDtype } from './whisper-model-files.ts';

export interface WhisperSttOptions {
  /** `{data_dir}/models`. */
  modelDir: string;
  /** `[voice] stt_model`: a size (`base`) or an `org/name` id. */
  model: string;
  /** `[voice] stt_device` (`cpu`). */
  device: string;
  /** Spoken language hint (`english`); Whisper detects it when absent. */
  language?: string;
  importLibrary?: () => Promise<TransformersModule>;
}

type Recognizer = ((
  audio: Float32Array,
  options: Record<string, unknown>,
) => Promise<{ text: string } | { text: string }[]>) & { dispose(): Promise<void> };

/** Longest audio transcribed in one call (Whisper's window is 30 s; longer is chunked). */
export const MAX_STT_SECONDS = 120;

export function createWhisperStt(options: WhisperSttOptions): SpeechToText {
  const modelId = whisperModelId(options.model);
  const importLibrary = options.importLibrary ?? (() => importTransformers('voice'));
  let recognizer: Promise<Recognizer> | undefined;
  let tail: Promise<unknown> = Promise.resolve();

  async function load(): Promise<Recognizer> {
    const check = await inspectWhisperFolder(options.modelDir, modelId);
    if (!check.ok) throw unavailable(check.detail);
    const transformers = await importLibrary();
    return withTransformersEnv(transformers, { modelDir: options.modelDir, remote: null }, () =>
      loadPipeline(transformers, modelId, options, check.dtype),
    );
  }

  function ready(): Promise<Recognizer> {
    recognizer ??= load();
    recognizer.catch(() => {
      recognizer = undefined;
    });
    return recognizer;
  }

  return {
    name: 'whisper',
    async availability(): Promise<EngineAvailability> {
      const check = await inspectWhisperFolder(options.modelDir, modelId);
      return check.ok
        ? {
            available: true,
            engine: 'whisper',
            detail: `Whisper ${modelId} (${check.dtype}, ${options.device}) from ${check.folder}`,
          }
        : { available: false, engine: 'whisper', detail: check.detail };
    },
    async transcribe(audio, signal): Promise<Transcript> {
      signal?.throwIfAborted();
      const model = await ready();
      const run = tail.then(async () => {
        signal?.throwIfAborted();
        const samples = pcm16ToFloat32(audio.subarray(0, MAX_STT_SECONDS * 16_000));
        const output = await model(samples, {
          chunk_length_s: 30,
          stride_length_s: 5,
          ...(options.language ? { language: options.language, task: 'transcribe' } : {}),
        });
        const text = Array.isArray(output)
          ? output.map((part) => part.text).join(' ')
          : output.text;
        return { text: text.trim() };
      });
      tail = run.catch(() => undefined);
      return run;
    },
    async close() {
      const loaded = await recognizer?.catch(() => undefined);
      recognizer = undefined;
      await loaded?.dispose();
    },
  };
}

async function loadPipeline(
  transformers: TransformersModule,
  modelId: string,
  options: WhisperSttOptions,
  dtype: WhisperDtype,
): Promise<Recognizer> {
  const pipe = await transformers.pipeline('automatic-speech-recognition', modelId, {
    dtype,
    device: options.device,
    local_files_only: true,
    cache_dir: options.modelDir,
  });
  return pipe;
}
