/**
 * The production embedder: a small sentence-embedding model (all-MiniLM-L6-v2 class, 384
 * dimensions) run in-process by `@huggingface/transformers` on onnxruntime-node, loaded
 * from the model cache under the state directory (`{data_dir}/models/<org>/<name>/`).
 *
 * - Local only: loads never download (see transformers-runtime.ts); no text or embedding
 *   leaves the process. Downloads happen only in `pullEmbeddingModel` (the explicit
 *   `hearth memory models pull` command) or at Docker image build.
 * - Lazy: constructing it or reading `state` loads nothing; the first `embed` call loads the
 *   model (concurrent first calls share one load) and the library itself.
 * - A failed load makes `state` 'unavailable' with a `detail` naming the missing file or
 *   folder and the pull command; `embed` then rejects at once, and the load is retried at
 *   most once per `retryAfterMs` (or on `reload()`), never on every turn. The memory
 *   service skips semantic search for the turn when `embed` rejects.
 */
import type { Logger } from '../../observability/logger.ts';
import { unavailable } from '../../errors.ts';
import type { Embedder, EmbedderState } from './port.ts';
import {
  DEFAULT_EMBEDDING_DIMENSIONS,
  DEFAULT_EMBEDDING_MODEL_ID,
  PULL_COMMAND,
  inspectModelFolder,
  type ModelDtype,
} from './model-files.ts';
import {
  importTransformers,
  withTransformersEnv,
  type TransformersModule,
} from '../../models/transformers-runtime.ts';
import { featureOffReason } from '../../models/optional-packages.ts';

export interface TransformersEmbedderOptions {
  /** The model cache root: `{data_dir}/models`. */
  modelDir: string;
  modelId?: string;
  /** The width the caller expects; the loaded model's real output width wins (logged if different). */
  dimensions?: number;
  logger: Logger;
  /** Texts per inference run; larger inputs are split. */
  maxBatchSize?: number;
  /** After a failed load, `embed` rejects without retrying until this long has passed. */
  retryAfterMs?: number;
  /** Epoch milliseconds; injectable for tests. */
  now?: () => number;
  /** How the library is imported (lazily, once); injectable so tests can count loads. */
  importLibrary?: () => Promise<TransformersModule>;
}

export interface TransformersEmbedder extends Embedder {
  readonly modelId: string;
  /** Drops the loaded model (if any) and loads it again now, e.g. after a pull; the resulting state. */
  reload(): Promise<EmbedderState>;
  /** Releases the ONNX session; a later `embed` loads again. */
  close(): Promise<void>;
}

/** The slice of transformers' feature-extraction pipeline Hearth uses. */
interface FeatureExtractor {
  (
    texts: string[],
    options: { pooling: 'mean'; normalize: boolean },
  ): Promise<{ data: unknown; dims: number[] }>;
  dispose(): Promise<void>;
}

const DEFAULT_RETRY_AFTER_MS = 5 * 60_000;
const DEFAULT_MAX_BATCH_SIZE = 32;

export function createTransformersEmbedder(
  options: TransformersEmbedderOptions,
): TransformersEmbedder {
  const modelId = options.modelId ?? DEFAULT_EMBEDDING_MODEL_ID;
  const expectedDimensions = options.dimensions ?? DEFAULT_EMBEDDING_DIMENSIONS;
  const maxBatchSize = Math.max(1, options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE);
  const retryAfterMs = options.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS;
  const now = options.now ?? Date.now;
  const importLibrary = options.importLibrary ?? importTransformers;
  const logger = options.logger.child({ component: 'embedder', model: modelId });

  let state: EmbedderState = 'unknown';
  let detail: string | null = null;
  let dimensions = expectedDimensions;
  let extractor: FeatureExtractor | null = null;
  let loading: Promise<void> | null = null;
  let failedAt = 0;
  // Inference runs one batch at a time: the model already uses every core.
  let inferenceTail: Promise<unknown> = Promise.resolve();

  async function runBatch(model: FeatureExtractor, texts: string[]): Promise<Float32Array[]> {
    const output = await model(texts, { pooling: 'mean', normalize: true });
    const width = output.dims[1];
    if (!(output.data instanceof Float32Array) || output.dims.length !== 2 || width === undefined) {
      throw new Error(`unexpected embedding output of shape [${output.dims.join(', ')}]`);
    }
    const data = output.data;
    return texts.map((_, row) => data.slice(row * width, (row + 1) * width));
  }

  async function load(): Promise<void> {
    const started = performance.now();
    const off = featureOffReason('embeddings');
    if (off !== null) {
      markUnavailable(off);
      return;
    }
    const check = await inspectModelFolder(options.modelDir, modelId);
    if (!check.ok) {
      markUnavailable(check.detail);
      return;
    }
    try {
      const transformers = await importLibrary();
      const model = await withTransformersEnv(
        transformers,
        { modelDir: options.modelDir, remote: null },
        () => loadPipeline(transformers, modelId, options.modelDir, check.dtype),
      );
      // One probe proves the session runs and tells the real output width.
      const [probe] = await runBatch(model, ['hearth']).catch(async (error: unknown) => {
        await model.dispose().catch(() => undefined);
        throw error;
      });
      if (!probe) throw new Error('the model returned no embedding');
      if (probe.length !== expectedDimensions) {
        logger.warn(
          { expected: expectedDimensions, actual: probe.length },
          'embedding model width differs from the expected dimensions; using the model width',
        );
      }
      dimensions = probe.length;
      extractor = model;
      state = 'available';
      detail = null;
      logger.info(
        { dtype: check.dtype, dimensions, load_ms: Math.round(performance.now() - started) },
        'embedding model loaded',
      );
    } catch (error) {
      markUnavailable(
        `embedding model ${modelId} failed to load from ${check.folder}: ${errorMessage(error)}; ` +
          `run \`${PULL_COMMAND}\` to fetch it again`,
      );
    }
  }

  function markUnavailable(reason: string): void {
    state = 'unavailable';
    detail = reason;
    failedAt = now();
    extractor = null;
    logger.warn({ detail: reason }, 'embedding model unavailable; semantic search is skipped');
  }

  function startLoad(): Promise<void> {
    loading ??= load().finally(() => {
      loading = null;
    });
    return loading;
  }

  async function ready(): Promise<FeatureExtractor> {
    if (extractor) return extractor;
    if (loading) {
      await loading;
    } else if (state !== 'unavailable' || now() - failedAt >= retryAfterMs) {
      await startLoad();
    }
    if (!extractor) {
      throw unavailable(detail ?? `embedding model ${modelId} is unavailable`);
    }
    return extractor;
  }

  async function disposeModel(): Promise<void> {
    const model = extractor;
    extractor = null;
    if (model) {
      await inferenceTail.catch(() => undefined);
      await model.dispose();
    }
  }

  return {
    modelId,
    get state() {
      return state;
    },
    get detail() {
      return detail;
    },
    get dimensions() {
      return dimensions;
    },

    async embed(texts) {
      if (texts.length === 0) return [];
      const model = await ready();
      const run = inferenceTail.then(async () => {
        const vectors: Float32Array[] = [];
        for (let start = 0; start < texts.length; start += maxBatchSize) {
          vectors.push(...(await runBatch(model, texts.slice(start, start + maxBatchSize))));
        }
        return vectors;
      });
      inferenceTail = run.catch(() => undefined);
      try {
        return await run;
      } catch (error) {
        logger.warn({ err: error }, 'embedding failed');
        throw unavailable(`embedding failed: ${errorMessage(error)}`, error);
      }
    },

    async reload() {
      if (loading) await loading;
      await disposeModel();
      await startLoad();
      return state;
    },

    async close() {
      if (loading) await loading;
      await disposeModel();
      state = 'unknown';
      detail = null;
    },
  };
}

async function loadPipeline(
  transformers: TransformersModule,
  modelId: string,
  modelDir: string,
  dtype: ModelDtype,
): Promise<FeatureExtractor> {
  const pipe = await transformers.pipeline('feature-extraction', modelId, {
    dtype,
    device: 'cpu',
    local_files_only: true,
    cache_dir: modelDir,
  });
  return pipe;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
