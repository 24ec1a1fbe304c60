/**
 * Where an openWakeWord-style detector's three ONNX files are, checked with plain `fs` before
 * onnxruntime is imported, so a missing file is reported precisely and costs nothing.
 *
 * `[voice] wake_word_model` is either a name in the model cache — `hey_jarvis` means
 * `{models}/openwakeword/hey_jarvis.onnx` — or a path to the classifier `.onnx` file. The two
 * shared feature models, `melspectrogram.onnx` and `embedding_model.onnx`, sit in the same
 * folder as the classifier. Hearth never ships or downloads them: openWakeWord's pre-trained
 * models are licensed for non-commercial use only, so the user copies them there.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';

/** The cache folder (under the model directory) that holds the files by name. */
export const OPENWAKEWORD_FOLDER = 'openwakeword';
export const MELSPECTROGRAM_FILE = 'melspectrogram.onnx';
export const EMBEDDING_FILE = 'embedding_model.onnx';

export interface OpenWakeWordFiles {
  melspectrogram: string;
  embedding: string;
  classifier: string;
}

export type OpenWakeWordFilesCheck =
  { ok: true; files: OpenWakeWordFiles; word: string } | { ok: false; detail: string };

const NAME = /^[A-Za-z0-9][\w.-]{0,99}$/;

/** The classifier file `[voice] wake_word_model` names, or why the value is not usable. */
export function classifierPath(
  modelDir: string,
  setting: string,
): { ok: true; path: string } | { ok: false; detail: string } {
  const value = setting.trim();
  if (value === '') return { ok: false, detail: '[voice] wake_word_model is not set' };
  if (path.isAbsolute(value)) {
    if (!value.endsWith('.onnx'))
      return { ok: false, detail: `wake_word_model ${JSON.stringify(value)} is not an .onnx file` };
    return { ok: true, path: path.normalize(value) };
  }
  const name = value.endsWith('.onnx') ? value.slice(0, -'.onnx'.length) : value;
  if (!NAME.test(name) || /^\.+$/.test(name))
    return {
      ok: false,
      detail: `wake_word_model ${JSON.stringify(value)} is neither an absolute path to an .onnx file nor a model name`,
    };
  return { ok: true, path: path.join(modelDir, OPENWAKEWORD_FOLDER, `${name}.onnx`) };
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

export async function inspectOpenWakeWordFiles(
  modelDir: string,
  setting: string,
): Promise<OpenWakeWordFilesCheck> {
  const classifier = classifierPath(modelDir, setting);
  if (!classifier.ok) return classifier;
  const folder = path.dirname(classifier.path);
  const files: OpenWakeWordFiles = {
    melspectrogram: path.join(folder, MELSPECTROGRAM_FILE),
    embedding: path.join(folder, EMBEDDING_FILE),
    classifier: classifier.path,
  };
  const missing: string[] = [];
  for (const file of [files.classifier, files.melspectrogram, files.embedding])
    if (!(await isFile(file))) missing.push(file);
  if (missing.length > 0)
    return {
      ok: false,
      detail: `openWakeWord model files are missing: ${missing.join(', ')} (not bundled: their licence is non-commercial; copy them there yourself)`,
    };
  return { ok: true, files, word: path.basename(classifier.path, '.onnx') };
}
