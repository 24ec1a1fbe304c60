import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findPiperVoice, phonemeIds, createPiperTts } from './piper-tts.ts';
import { runTtsConformance } from './tts-conformance.ts';
import { writeTinyPiperVoice } from '../testing/tiny-piper.ts';
import { hasProgram, soxStat } from '../testing/sox.ts';
import { featureOffReason } from '../../models/optional-packages.ts';

// Real speech engines on a shared, loaded machine: generous bounds.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const missing = !hasProgram('espeak-ng')
  ? 'espeak-ng is not installed (Piper phonemises with it)'
  : !hasProgram('sox')
    ? 'sox is not installed'
    : undefined;
/** Without the optional voice feature (`hearth features add voice`) there is no ONNX Runtime. */
const voiceOff = featureOffReason('voice') ?? undefined;
const skippedVoice = voiceOff ? ` (skipped: ${voiceOff})` : '';

let modelDir: string;
beforeAll(async () => {
  modelDir = await mkdtemp(join(tmpdir(), 'hearth-piper-'));
  await writeTinyPiperVoice(modelDir);
});
afterAll(() => rm(modelDir, { recursive: true, force: true }));

// The real loading path (files in the cache → onnxruntime-node → espeak-ng phonemes → ids)
// with a tiny generated voice: nothing is downloaded.
runTtsConformance('piper (tiny generated voice)', () => createPiperTts({ modelDir }), {
  skip: voiceOff ?? missing,
});

describe('Piper voices', () => {
  it('finds the voice in the cache, and reports none without the files', async () => {
    expect(await findPiperVoice(modelDir)).toBe('en_US-tiny-test');
    const empty = await mkdtemp(join(tmpdir(), 'hearth-piper-empty-'));
    const tts = createPiperTts({ modelDir: empty });
    const availability = await tts.availability();
    expect(availability).toMatchObject({ available: false, engine: 'piper' });
    expect(availability.detail).toContain('hearth voice models pull --tts');
    await rm(empty, { recursive: true, force: true });
  });

  it('maps phonemes to ids as Piper does: BOS, each phoneme then PAD, EOS; unknown symbols dropped', () => {
    const map = { _: [0], '^': [1], $: [2], a: [5], b: [6] };
    expect(phonemeIds('ab?', map)).toEqual([1, 0, 5, 0, 6, 0, 2]);
  });

  it.skipIf(voiceOff !== undefined)(
    `a voice whose config is not Piper JSON is unavailable with the reason${skippedVoice}`,
    async () => {
      const broken = await mkdtemp(join(tmpdir(), 'hearth-piper-broken-'));
      await writeTinyPiperVoice(broken, 'bad');
      await writeFile(join(broken, 'piper', 'bad.onnx.json'), '{"audio": "nope"}');
      const availability = await createPiperTts({ modelDir: broken }).availability();
      expect(availability).toMatchObject({ available: false, engine: 'piper' });
      expect(availability.detail).toMatch(/cannot load/);
      await rm(broken, { recursive: true, force: true });
    },
  );

  it('a corrupt model file fails synthesis with 503, not a crash', async () => {
    const broken = await mkdtemp(join(tmpdir(), 'hearth-piper-corrupt-'));
    await writeTinyPiperVoice(broken, 'bad');
    await writeFile(join(broken, 'piper', 'bad.onnx'), 'not a model');
    await expect(createPiperTts({ modelDir: broken }).synthesize('Hello.')).rejects.toThrow();
    await rm(broken, { recursive: true, force: true });
  });

  it.skipIf((voiceOff ?? missing) !== undefined)(
    `longer text makes longer audio (the ids drive the model)${(voiceOff ?? missing) ? ` (skipped: ${voiceOff ?? missing})` : ''}`,
    async () => {
      const tts = createPiperTts({ modelDir });
      const short = soxStat(await tts.synthesize('Hi.'));
      const long = soxStat(await tts.synthesize('Hello, this is a much longer sentence to speak.'));
      expect(long.seconds).toBeGreaterThan(short.seconds * 2);
      await tts.close();
    },
  );
});
