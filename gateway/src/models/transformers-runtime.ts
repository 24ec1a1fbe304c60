/**
 * The one place Hearth touches `@huggingface/transformers`' module-level state.
 *
 * - The library is imported lazily (`importTransformers`): importing it costs ~130 ms and
 *   ~45 MB RSS (it loads onnxruntime-node's native binding), which the gateway's start-up
 *   and idle footprint must not pay. Nothing else in the gateway imports it statically.
 * - `env` is a process-wide global of that library. Hearth OWNS it: no other code may set
 *   it. Every model load (the embedder's, Whisper's, the pull commands') runs inside
 *   `withTransformersEnv`, which serialises loads, points `env` at the model cache for the
 *   duration, and afterwards puts it back in the locked-down state: remote models off and a
 *   `fetch` that refuses, so nothing the library does outside an explicit pull can reach
 *   the network.
 */
import { importOptional, type OptionalFeature } from './optional-packages.ts';

/**
 * The slice of `@huggingface/transformers` Hearth uses, typed here because the package is an
 * optional feature (optional-packages.ts): the type check must not need it installed.
 */
export interface TransformersModule {
  env: TransformersEnv;
  LogLevel: { ERROR: number };
  pipeline(
    task: 'feature-extraction',
    model: string,
    options: PipelineOptions,
  ): Promise<FeatureExtractionPipeline>;
  pipeline(
    task: 'automatic-speech-recognition',
    model: string,
    options: PipelineOptions,
  ): Promise<SpeechRecognitionPipeline>;
}

export interface TransformersEnv {
  logLevel: number;
  allowLocalModels: boolean;
  allowRemoteModels: boolean;
  useFS: boolean;
  useFSCache: boolean;
  useBrowserCache: boolean;
  useCustomCache: boolean;
  useWasmCache: boolean;
  localModelPath: string;
  cacheDir: string | null;
  remoteHost: string;
  fetch: FetchFunction;
}

export interface PipelineOptions {
  dtype: string;
  device: string;
  local_files_only: boolean;
  cache_dir: string;
  progress_callback?: (progress: never) => void;
}

/** Texts → one pooled embedding per text, `dims` [texts, width]. */
export type FeatureExtractionPipeline = ((
  texts: string[],
  options: { pooling: 'mean'; normalize: boolean },
) => Promise<{ data: unknown; dims: number[] }>) & { dispose(): Promise<void> };

/** 16 kHz mono samples → text (one result, or one per chunk). */
export type SpeechRecognitionPipeline = ((
  audio: Float32Array,
  options: Record<string, unknown>,
) => Promise<{ text: string } | { text: string }[]>) & { dispose(): Promise<void> };

let transformersModule: Promise<TransformersModule> | null = null;

/**
 * Imports the library on first use; later calls share the same import. When it is not
 * installed, a 503 naming the feature that brings it (`hearth features add <feature>`).
 */
export function importTransformers(
  feature: OptionalFeature = 'embeddings',
): Promise<TransformersModule> {
  transformersModule ??= importOptional<TransformersModule>(
    '@huggingface/transformers',
    feature,
  ).then(
    (module) => {
      lockDown(module);
      return module;
    },
    (error: unknown) => {
      transformersModule = null;
      throw error;
    },
  );
  return transformersModule;
}

export type FetchFunction = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface TransformersEnvSettings {
  /** The model cache root (`{data_dir}/models`): local models are read from, and pulls written to, `<modelDir>/<org>/<name>/`. */
  modelDir: string;
  /** Null: no network at all (the default). A function: remote downloads allowed, through it. */
  remote: { fetch: FetchFunction; host: string } | null;
}

let lockTail: Promise<void> = Promise.resolve();

/**
 * Runs `task` with transformers' `env` set from `settings`, one task at a time per process
 * (env is global, and a load reads it across many awaits).
 */
export async function withTransformersEnv<T>(
  transformers: TransformersModule,
  settings: TransformersEnvSettings,
  task: () => Promise<T>,
): Promise<T> {
  const previous = lockTail;
  const turn = Promise.withResolvers<void>();
  lockTail = turn.promise;
  await previous;
  try {
    applySettings(transformers, settings);
    return await task();
  } finally {
    lockDown(transformers);
    turn.resolve();
  }
}

/** A `fetch` for transformers that always refuses: used whenever no pull is running. */
export const refuseNetwork: FetchFunction = (input) =>
  Promise.reject(
    new Error(
      `network access refused: Hearth loads models from the local cache only (requested ${String(input)}); ` +
        'run `hearth memory models pull` to download one',
    ),
  );

function applySettings(transformers: TransformersModule, settings: TransformersEnvSettings): void {
  const { env, LogLevel } = transformers;
  // Warnings go to console inside the library; Hearth reports failures through its logger.
  env.logLevel = LogLevel.ERROR;
  env.allowLocalModels = true;
  env.useFS = true;
  env.localModelPath = settings.modelDir;
  // Downloads land in the same tree the local loader reads: <modelDir>/<org>/<name>/<file>.
  env.useFSCache = true;
  env.cacheDir = settings.modelDir;
  env.useBrowserCache = false;
  env.useCustomCache = false;
  env.useWasmCache = false;
  if (settings.remote) {
    env.allowRemoteModels = true;
    env.remoteHost = settings.remote.host;
    env.fetch = settings.remote.fetch;
  } else {
    env.allowRemoteModels = false;
    env.fetch = refuseNetwork;
  }
}

function lockDown(transformers: TransformersModule): void {
  transformers.env.allowRemoteModels = false;
  transformers.env.fetch = refuseNetwork;
}
