/**
 * What a sentence-embedding model needs on disk, checked with plain `fs` before the
 * library is imported, so a missing model is reported precisely (which file or folder,
 * and the command that fetches it) and costs nothing.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';

export const DEFAULT_EMBEDDING_MODEL_ID = 'Xenova/all-MiniLM-L6-v2';
export const DEFAULT_EMBEDDING_DIMENSIONS = 384;
export const PULL_COMMAND = 'hearth memory models pull';

/** The ONNX weights we load, best first: full precision, then 8-bit quantised. */
export const MODEL_VARIANTS = [
  { dtype: 'fp32', file: 'onnx/model.onnx' },
  { dtype: 'q8', file: 'onnx/model_quantized.onnx' },
] as const;

export type ModelDtype = (typeof MODEL_VARIANTS)[number]['dtype'];

export const REQUIRED_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json'] as const;

export type ModelFolderCheck =
  | { ok: true; folder: string; dtype: ModelDtype; onnxFile: string }
  | { ok: false; folder: string; detail: string };

/** `<modelDir>/<org>/<name>`. */
export function modelFolder(modelDir: string, modelId: string): string {
  return path.join(modelDir, ...modelId.split('/'));
}

export async function inspectModelFolder(
  modelDir: string,
  modelId: string,
): Promise<ModelFolderCheck> {
  const folder = modelFolder(modelDir, modelId);
  const fetchHint = `run \`${PULL_COMMAND}\` to fetch it`;
  if (!(await isDirectory(folder))) {
    return {
      ok: false,
      folder,
      detail: `embedding model ${modelId} not found: folder ${folder} does not exist; ${fetchHint}`,
    };
  }
  const missing: string[] = [];
  for (const file of REQUIRED_FILES) {
    if (!(await isFile(path.join(folder, file)))) missing.push(path.join(folder, file));
  }
  let variant: (typeof MODEL_VARIANTS)[number] | undefined;
  for (const candidate of MODEL_VARIANTS) {
    if (await isFile(path.join(folder, candidate.file))) {
      variant = candidate;
      break;
    }
  }
  if (!variant) {
    missing.push(MODEL_VARIANTS.map((candidate) => path.join(folder, candidate.file)).join(' or '));
  }
  if (missing.length > 0 || !variant) {
    return {
      ok: false,
      folder,
      detail: `embedding model ${modelId} is incomplete: missing ${missing.join(', ')}; ${fetchHint}`,
    };
  }
  return { ok: true, folder, dtype: variant.dtype, onnxFile: path.join(folder, variant.file) };
}

async function isDirectory(target: string): Promise<boolean> {
  try {
    return (await stat(target)).isDirectory();
  } catch {
    return false;
  }
}

async function isFile(target: string): Promise<boolean> {
  try {
    return (await stat(target)).isFile();
  } catch {
    return false;
  }
}
