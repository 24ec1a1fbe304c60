/**
 * `hearth memory models pull`: the ONLY code path that downloads an embedding model (the
 * other is the Docker image build, which runs this same function). Downloads go through
 * transformers' own hub client into a staging folder inside the model cache, are loaded and
 * run once there, and only then replace `<modelDir>/<org>/<name>/` (config.json,
 * tokenizer.json, tokenizer_config.json, onnx/...), so a failed or interrupted pull leaves
 * the previous model untouched, and a pull always fetches fresh files (it repairs a
 * corrupt model rather than finding it "already cached").
 *
 * Remote access is granted for this call only (transformers-runtime.ts) and every request
 * is bounded: a stall (no response, or no bytes, for `stallTimeoutMs`) or the overall
 * `timeoutMs` aborts the pull with a readable error instead of hanging.
 */
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../observability/logger.ts';
import { unavailable } from '../../errors.ts';
import {
  DEFAULT_EMBEDDING_MODEL_ID,
  inspectModelFolder,
  modelFolder,
  type ModelDtype,
} from './model-files.ts';
import {
  importTransformers,
  withTransformersEnv,
  type FetchFunction,
  type TransformersModule,
} from '../../models/transformers-runtime.ts';

export const DEFAULT_MODEL_HUB = 'https://huggingface.co/';

/** Progress for a progress bar: per file, and the total across files. */
export type PullProgress =
  | { status: 'file-start'; file: string }
  | { status: 'file-progress'; file: string; loaded: number; total: number; percent: number }
  | { status: 'file-done'; file: string }
  | { status: 'total'; loaded: number; total: number; percent: number };

export interface PullEmbeddingModelOptions {
  /** The model cache root: `{data_dir}/models`. */
  modelDir: string;
  modelId?: string;
  /** Which weights to fetch: fp32 `onnx/model.onnx` (default) or 8-bit `onnx/model_quantized.onnx`. */
  dtype?: ModelDtype;
  onProgress?: (progress: PullProgress) => void;
  logger: Logger;
  /** The hub (or a mirror of it) to download from. */
  remoteHost?: string;
  fetch?: FetchFunction;
  /** Abort when nothing arrives (no response headers, no body bytes) for this long. */
  stallTimeoutMs?: number;
  /** Abort when the whole pull takes longer than this. */
  timeoutMs?: number;
  importLibrary?: () => Promise<TransformersModule>;
}

export interface PulledModel {
  modelId: string;
  folder: string;
  dtype: ModelDtype;
  dimensions: number;
  elapsedMs: number;
}

const DEFAULT_STALL_TIMEOUT_MS = 30_000;
const DEFAULT_TIMEOUT_MS = 30 * 60_000;

export async function pullEmbeddingModel(options: PullEmbeddingModelOptions): Promise<PulledModel> {
  const modelId = options.modelId ?? DEFAULT_EMBEDDING_MODEL_ID;
  const dtype = options.dtype ?? 'fp32';
  const host = options.remoteHost ?? DEFAULT_MODEL_HUB;
  const stallTimeoutMs = options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const baseFetch: FetchFunction = options.fetch ?? ((input, init) => fetch(input, init));
  const logger = options.logger.child({ component: 'model-pull', model: modelId });
  const folder = modelFolder(options.modelDir, modelId);
  const started = performance.now();

  const abort = new AbortController();
  const aborted = new Promise<never>((_, reject) => {
    abort.signal.addEventListener('abort', () => reject(abort.signal.reason as Error), {
      once: true,
    });
  });
  aborted.catch(() => undefined);
  const overall = setTimeout(
    () =>
      abort.abort(
        new Error(`pull of ${modelId} from ${host} did not finish within ${formatMs(timeoutMs)}`),
      ),
    timeoutMs,
  );
  let stall: NodeJS.Timeout | undefined;
  const kick = () => {
    clearTimeout(stall);
    stall = setTimeout(
      () =>
        abort.abort(
          new Error(
            `no data from ${host} for ${formatMs(stallTimeoutMs)} while pulling ${modelId}`,
          ),
        ),
      stallTimeoutMs,
    );
  };

  const boundedFetch: FetchFunction = async (input, init) => {
    kick();
    const signals = init?.signal ? [abort.signal, init.signal] : [abort.signal];
    try {
      return await baseFetch(input, { ...init, signal: AbortSignal.any(signals) });
    } finally {
      kick();
    }
  };

  const progressCallback = (info: unknown) => {
    kick();
    const progress = mapProgress(info);
    if (progress) options.onProgress?.(progress);
  };

  logger.info({ host, dtype, folder }, 'pulling embedding model');
  kick();
  let staging: string | null = null;
  try {
    await mkdir(options.modelDir, { recursive: true });
    staging = await mkdtemp(path.join(options.modelDir, '.pull-'));
    const stagingDir = staging;
    const transformers = await (options.importLibrary ?? importTransformers)();
    const dimensions = await withTransformersEnv(
      transformers,
      { modelDir: stagingDir, remote: { fetch: boundedFetch, host } },
      () =>
        Promise.race([
          aborted,
          (async () => {
            const extractor = await transformers.pipeline('feature-extraction', modelId, {
              dtype,
              device: 'cpu',
              local_files_only: false,
              cache_dir: stagingDir,
              progress_callback: progressCallback,
            });
            try {
              // Prove what landed on disk actually runs.
              const output = await extractor(['hearth'], { pooling: 'mean', normalize: true });
              return output.dims[1] ?? 0;
            } finally {
              await extractor.dispose();
            }
          })(),
        ]),
    );
    const check = await inspectModelFolder(stagingDir, modelId);
    if (!check.ok) throw new Error(check.detail);
    await replaceFolder(check.folder, folder);
    const elapsedMs = Math.round(performance.now() - started);
    logger.info(
      { dtype: check.dtype, dimensions, elapsed_ms: elapsedMs },
      'embedding model pulled',
    );
    return { modelId, folder, dtype, dimensions, elapsedMs };
  } catch (error) {
    const message = describePullError(error, abort.signal, host, modelId);
    logger.warn({ err: error }, message);
    throw unavailable(message, error);
  } finally {
    clearTimeout(overall);
    clearTimeout(stall);
    abort.abort(new Error('pull finished'));
    if (staging) await rm(staging, { recursive: true, force: true });
  }
}

/** Moves `staged` to `target`, replacing what is there; restores the old folder on failure. */
async function replaceFolder(staged: string, target: string): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const backup = `${target}.previous-${process.pid}-${Date.now()}`;
  const hadPrevious = await rename(target, backup).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
  try {
    await rename(staged, target);
  } catch (error) {
    if (hadPrevious) await rename(backup, target);
    throw error;
  }
  if (hadPrevious) await rm(backup, { recursive: true, force: true });
}

function mapProgress(info: unknown): PullProgress | null {
  if (typeof info !== 'object' || info === null) return null;
  const record = info as Record<string, unknown>;
  const file = typeof record.file === 'string' ? record.file : '';
  const loaded = typeof record.loaded === 'number' ? record.loaded : 0;
  const total = typeof record.total === 'number' ? record.total : 0;
  const percent = typeof record.progress === 'number' ? record.progress : 0;
  switch (record.status) {
    case 'initiate':
      return { status: 'file-start', file };
    case 'progress':
      return { status: 'file-progress', file, loaded, total, percent };
    case 'done':
      return { status: 'file-done', file };
    case 'progress_total':
      return { status: 'total', loaded, total, percent };
    default:
      return null;
  }
}

function describePullError(
  error: unknown,
  signal: AbortSignal,
  host: string,
  modelId: string,
): string {
  const prefix = `could not pull embedding model ${modelId} from ${host}`;
  if (
    signal.aborted &&
    signal.reason instanceof Error &&
    signal.reason.message !== 'pull finished'
  ) {
    return `${prefix}: ${signal.reason.message}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  const code = networkCode(error);
  if (code) {
    return `${prefix}: the host is unreachable (${code}); check the network connection, or pull on a machine that has one and copy the folder into the model cache`;
  }
  const root = rootCause(error);
  return root && root !== message ? `${prefix}: ${message} (${root})` : `${prefix}: ${message}`;
}

/** The message of the innermost `cause`, e.g. "bad port" under undici's "fetch failed". */
function rootCause(error: unknown): string | null {
  let current: unknown = error;
  let message: string | null = null;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    message = current.message;
    current = current.cause;
  }
  return message;
}

/** The system error code (ENOTFOUND, ECONNREFUSED, ...) somewhere in the cause chain. */
function networkCode(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const record = current as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof record.code === 'string' && /^E[A-Z]+$/.test(record.code)) return record.code;
    if (Array.isArray(record.errors) && record.errors.length > 0) {
      current = record.errors[0];
      continue;
    }
    current = record.cause;
  }
  return null;
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
