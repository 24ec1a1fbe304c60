/**
 * `hearth voice models pull [--tts]`: the ONLY code that downloads voice weights (never at run
 * time). Whisper comes through transformers' own hub client with remote access granted for
 * this call only (transformers-runtime.ts); a Piper voice is two files fetched over HTTPS. Both
 * land in a staging folder inside the model cache and replace the cached copy only once
 * complete, so an interrupted pull leaves the previous model untouched.
 */
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { unavailable } from '../errors.ts';
import {
  importTransformers,
  withTransformersEnv,
  type FetchFunction,
} from '../models/transformers-runtime.ts';
import { DEFAULT_PIPER_VOICE, PIPER_FOLDER, parsePiperVoiceConfig } from './tts/piper-tts.ts';
import { inspectWhisperFolder, whisperModelId } from './stt/whisper-model-files.ts';

export const DEFAULT_VOICE_HUB = 'https://huggingface.co/';
/** Largest file a Piper pull accepts (the biggest published voices are ~120 MB). */
const MAX_PIPER_BYTES = 300 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 30 * 60_000;

export interface PullOptions {
  modelDir: string;
  remoteHost?: string;
  fetch?: FetchFunction;
  timeoutMs?: number;
  logger: Logger;
}

async function replace(staged: string, target: string): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  await rm(target, { recursive: true, force: true });
  await rename(staged, target);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Downloads Whisper (`[voice] stt_model`) into `{modelDir}/<org>/<name>/` and proves it loads. */
export async function pullWhisperModel(
  options: PullOptions & { model: string; dtype?: 'fp32' | 'q8' },
): Promise<{ modelId: string; folder: string }> {
  const modelId = whisperModelId(options.model);
  const host = options.remoteHost ?? DEFAULT_VOICE_HUB;
  const signal = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const baseFetch: FetchFunction = options.fetch ?? ((input, init) => fetch(input, init));
  await mkdir(options.modelDir, { recursive: true });
  const staging = await mkdtemp(path.join(options.modelDir, '.pull-'));
  try {
    const transformers = await importTransformers('voice');
    await withTransformersEnv(
      transformers,
      {
        modelDir: staging,
        remote: { host, fetch: (input, init) => baseFetch(input, { ...init, signal }) },
      },
      async () => {
        const pipe = await transformers.pipeline('automatic-speech-recognition', modelId, {
          dtype: options.dtype ?? 'fp32',
          device: 'cpu',
          local_files_only: false,
          cache_dir: staging,
        });
        await pipe.dispose();
      },
    );
    const check = await inspectWhisperFolder(staging, modelId);
    if (!check.ok) throw new Error(check.detail);
    const folder = path.join(options.modelDir, ...modelId.split('/'));
    await replace(check.folder, folder);
    options.logger.info({ modelId, folder }, 'Whisper model pulled');
    return { modelId, folder };
  } catch (error) {
    throw unavailable(`could not pull ${modelId} from ${host}: ${describe(error)}`, error);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** `en_US-lessac-medium` → `en/en_US/lessac/medium/en_US-lessac-medium` (the piper-voices layout). */
export function piperVoicePath(voice: string): string {
  const match = /^([a-z]{2,3})_([A-Z]{2})-([\w]+)-(x_low|low|medium|high)$/.exec(voice);
  if (!match)
    throw unavailable(
      `${JSON.stringify(voice)} is not a Piper voice name like ${DEFAULT_PIPER_VOICE}`,
    );
  const [, language, region, name, quality] = match;
  return `${language}/${language}_${region}/${name}/${quality}/${voice}`;
}

async function download(fetcher: FetchFunction, url: string, signal: AbortSignal): Promise<Buffer> {
  const response = await fetcher(url, { signal, redirect: 'follow' });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_PIPER_BYTES) throw new Error(`${url} is larger than ${MAX_PIPER_BYTES} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += (chunk as Uint8Array).length;
    if (size > MAX_PIPER_BYTES) throw new Error(`${url} is larger than ${MAX_PIPER_BYTES} bytes`);
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks);
}

/** Downloads a Piper voice (`.onnx` + `.onnx.json`) into `{modelDir}/piper/`. */
export async function pullPiperVoice(
  options: PullOptions & { voice?: string },
): Promise<{ voice: string; files: string[] }> {
  const voice = options.voice ?? DEFAULT_PIPER_VOICE;
  const host = (options.remoteHost ?? DEFAULT_VOICE_HUB).replace(/\/?$/, '/');
  const base = `${host}rhasspy/piper-voices/resolve/main/${piperVoicePath(voice)}`;
  const signal = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const fetcher: FetchFunction = options.fetch ?? ((input, init) => fetch(input, init));
  const folder = path.join(options.modelDir, PIPER_FOLDER);
  await mkdir(folder, { recursive: true });
  const staging = await mkdtemp(path.join(options.modelDir, '.pull-'));
  try {
    const json = await download(fetcher, `${base}.onnx.json`, signal);
    parsePiperVoiceConfig(json.toString('utf8'));
    const onnx = await download(fetcher, `${base}.onnx`, signal);
    await writeFile(path.join(staging, `${voice}.onnx.json`), json);
    await writeFile(path.join(staging, `${voice}.onnx`), onnx);
    const files = [`${voice}.onnx`, `${voice}.onnx.json`].map((file) => path.join(folder, file));
    for (const file of files) await replace(path.join(staging, path.basename(file)), file);
    await readFile(files[0]!);
    options.logger.info({ voice, folder }, 'Piper voice pulled');
    return { voice, files };
  } catch (error) {
    throw unavailable(
      `could not pull Piper voice ${voice} from ${host}: ${describe(error)}`,
      error,
    );
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
