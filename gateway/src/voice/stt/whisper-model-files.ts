/**
 * What a Whisper model needs on disk (the transformers.js layout, as published under
 * `onnx-community/whisper-<size>`), checked with plain `fs` before the library is imported, so
 * a missing model is reported precisely and costs nothing.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';

export const WHISPER_PULL_COMMAND = 'hearth voice models pull';

/** `[voice] stt_model` sizes and the repositories they name; any `org/name` is used as is. */
const SIZES: Record<string, string> = {
  tiny: 'onnx-community/whisper-tiny',
  'tiny.en': 'onnx-community/whisper-tiny.en',
  base: 'onnx-community/whisper-base',
  'base.en': 'onnx-community/whisper-base.en',
  small: 'onnx-community/whisper-small',
  'small.en': 'onnx-community/whisper-small.en',
};

export function whisperModelId(sttModel: string): string {
  return SIZES[sttModel] ?? sttModel;
}

export const WHISPER_VARIANTS = [
  { dtype: 'fp32', files: ['onnx/encoder_model.onnx', 'onnx/decoder_model_merged.onnx'] },
  {
    dtype: 'q8',
    files: ['onnx/encoder_model_quantized.onnx', 'onnx/decoder_model_merged_quantized.onnx'],
  },
] as const;

export type WhisperDtype = (typeof WHISPER_VARIANTS)[number]['dtype'];

export const WHISPER_REQUIRED_FILES = [
  'config.json',
  'generation_config.json',
  'preprocessor_config.json',
  'tokenizer.json',
  'tokenizer_config.json',
] as const;

export type WhisperFolderCheck =
  { ok: true; folder: string; dtype: WhisperDtype } | { ok: false; folder: string; detail: string };

export async function inspectWhisperFolder(
  modelDir: string,
  modelId: string,
): Promise<WhisperFolderCheck> {
  if (!/^[\w.-]+\/[\w.-]+$/.test(modelId) || modelId.split('/').some((part) => /^\.+$/.test(part)))
    return {
      ok: false,
      folder: modelDir,
      detail: `stt_model ${JSON.stringify(modelId)} is neither a Whisper size nor an org/name id`,
    };
  const folder = path.join(modelDir, ...modelId.split('/'));
  const hint = `run \`${WHISPER_PULL_COMMAND}\` to fetch it`;
  if (!(await isDirectory(folder)))
    return {
      ok: false,
      folder,
      detail: `Whisper model ${modelId} not found: folder ${folder} does not exist; ${hint}`,
    };
  const missing: string[] = [];
  for (const file of WHISPER_REQUIRED_FILES)
    if (!(await isFile(path.join(folder, file)))) missing.push(file);
  let dtype: WhisperDtype | undefined;
  for (const variant of WHISPER_VARIANTS) {
    const present = await Promise.all(variant.files.map((file) => isFile(path.join(folder, file))));
    if (present.every(Boolean)) {
      dtype = variant.dtype;
      break;
    }
  }
  if (!dtype)
    missing.push(
      'onnx/encoder_model(_quantized).onnx + onnx/decoder_model_merged(_quantized).onnx',
    );
  if (missing.length > 0 || !dtype)
    return {
      ok: false,
      folder,
      detail: `Whisper model ${modelId} is incomplete in ${folder}: missing ${missing.join(', ')}; ${hint}`,
    };
  return { ok: true, folder, dtype };
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
