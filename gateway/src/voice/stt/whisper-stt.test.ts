import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSttConformance } from './stt-conformance.ts';
import { createWhisperStt } from './whisper-stt.ts';
import { inspectWhisperFolder, whisperModelId } from './whisper-model-files.ts';

let modelDir: string;
beforeAll(async () => {
  modelDir = await mkdtemp(join(tmpdir(), 'hearth-whisper-'));
});
afterAll(async () => {
  await rm(modelDir, { recursive: true, force: true });
});

// No Whisper weights exist on this machine (nothing may be downloaded): the adapter must say so.
runSttConformance('whisper without weights', () =>
  createWhisperStt({ modelDir, model: 'base', device: 'cpu' }),
);

describe('Whisper model files', () => {
  it('maps the [voice] stt_model sizes to their repositories and keeps org/name ids', () => {
    expect(whisperModelId('base')).toBe('onnx-community/whisper-base');
    expect(whisperModelId('tiny.en')).toBe('onnx-community/whisper-tiny.en');
    expect(whisperModelId('me/my-whisper')).toBe('me/my-whisper');
  });

  it('without weights, STT is unavailable and names the folder and the pull command', async () => {
    const stt = createWhisperStt({ modelDir, model: 'base', device: 'cpu' });
    const availability = await stt.availability();
    expect(availability).toMatchObject({ available: false, engine: 'whisper' });
    expect(availability.detail).toContain(join(modelDir, 'onnx-community', 'whisper-base'));
    expect(availability.detail).toContain('hearth voice models pull');
    await expect(stt.transcribe(new Int16Array(16_000))).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringContaining('hearth voice models pull') as unknown,
    });
  });

  it('lists exactly the missing files of an incomplete model folder', async () => {
    const folder = join(modelDir, 'partial', 'whisper');
    await mkdir(join(folder, 'onnx'), { recursive: true });
    await writeFile(join(folder, 'config.json'), '{}');
    await writeFile(join(folder, 'onnx', 'encoder_model.onnx'), '');
    const check = await inspectWhisperFolder(modelDir, 'partial/whisper');
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.detail).toContain('generation_config.json');
    expect(check.detail).toContain('decoder_model_merged');
    expect(check.detail).not.toContain('missing config.json');
  });

  it('refuses a stt_model that would leave the model cache', async () => {
    for (const id of ['../etc', '../../x/y', 'a/..', '/abs/path']) {
      const check = await inspectWhisperFolder(modelDir, whisperModelId(id));
      expect(check.ok).toBe(false);
    }
  });
});
