/**
 * The conformance suite every VAD adapter passes, on real audio: espeak-ng speech placed in
 * sox-made silence. Test support only.
 */
import { describe, expect, it } from 'vitest';
import { concatPcm16 } from '../audio/pcm.ts';
import type { SpeechSegment, Vad } from '../ports.ts';
import { espeakSpeech16k, soxGenerate } from '../testing/sox.ts';

export interface VadFixtures {
  speech: Int16Array;
  silence: (seconds: number) => Int16Array;
}

export function vadFixtures(): VadFixtures {
  return {
    speech: espeakSpeech16k('Please turn on the kitchen lights.'),
    silence: (seconds) => soxGenerate(['trim', '0', String(seconds)]).samples,
  };
}

async function segmentsOf(vad: Vad, audio: Int16Array, chunk: number): Promise<SpeechSegment[]> {
  const stream = await vad.stream();
  const found: SpeechSegment[] = [];
  for (let offset = 0; offset < audio.length; offset += chunk)
    found.push(...(await stream.push(audio.subarray(offset, offset + chunk))));
  found.push(...stream.flush());
  return found;
}

export function runVadConformance(
  name: string,
  make: () => Vad,
  options: { skip?: string } = {},
): void {
  const title = options.skip
    ? `${name} VAD conformance (skipped: ${options.skip})`
    : `${name} VAD conformance`;
  describe.skipIf(options.skip !== undefined)(title, () => {
    const fixtures = options.skip ? undefined : vadFixtures();
    const f = () => fixtures!;

    it('reports itself available under its name', async () => {
      const vad = make();
      expect(await vad.availability()).toMatchObject({ available: true, engine: vad.name });
      await vad.close();
    });

    it('finds no speech in silence', async () => {
      const vad = make();
      expect(await segmentsOf(vad, f().silence(3), 1600)).toEqual([]);
      await vad.close();
    });

    it('finds one segment around speech placed between two seconds of silence', async () => {
      const vad = make();
      const { speech } = f();
      const audio = concatPcm16([f().silence(2), speech, f().silence(2)]);
      const segments = await segmentsOf(vad, audio, 1600);
      expect(segments).toHaveLength(1);
      const [segment] = segments as [SpeechSegment];
      const speechStart = 2 * 16_000;
      const speechEnd = speechStart + speech.length;
      // The segment covers most of the speech and little of the silence.
      expect(segment.start).toBeGreaterThan(speechStart - 8_000);
      expect(segment.end).toBeLessThan(speechEnd + 16_000);
      expect(
        Math.min(segment.end, speechEnd) - Math.max(segment.start, speechStart),
      ).toBeGreaterThan(speech.length * 0.6);
      await vad.close();
    });

    it('separates two utterances a second and a half apart', async () => {
      const vad = make();
      const { speech } = f();
      const audio = concatPcm16([f().silence(1), speech, f().silence(1.5), speech, f().silence(1)]);
      expect(await segmentsOf(vad, audio, 4000)).toHaveLength(2);
      await vad.close();
    });

    it('gives the same segments however the audio is chunked', async () => {
      const vad = make();
      const audio = concatPcm16([f().silence(1), f().speech, f().silence(1)]);
      const whole = await segmentsOf(vad, audio, audio.length);
      const odd = await segmentsOf(vad, audio, 333);
      expect(odd).toEqual(whole);
      await vad.close();
    });

    it('reports a speech probability per 512-sample frame, high in speech, low in silence', async () => {
      const vad = make();
      const silent = await vad.probabilities(f().silence(1));
      expect(silent).toHaveLength(Math.floor(16_000 / 512));
      expect(Math.max(...silent)).toBeLessThan(0.5);
      const spoken = await vad.probabilities(concatPcm16([f().silence(0.5), f().speech]));
      expect(Math.max(...spoken)).toBeGreaterThan(0.5);
      await vad.close();
    });
  });
}
