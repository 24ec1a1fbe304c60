/**
 * The conformance suite every TextToSpeech adapter passes: it reports availability honestly,
 * and when available it turns a sentence into audible mono PCM16 of a plausible length, keeps
 * working after odd input, and stops when aborted. Test support only.
 */
import { describe, expect, it } from 'vitest';
import { rms } from '../audio/pcm.ts';
import type { TextToSpeech } from '../ports.ts';

export function runTtsConformance(
  name: string,
  make: () => Promise<TextToSpeech> | TextToSpeech,
  options: { skip?: string } = {},
): void {
  const title = options.skip
    ? `${name} TTS conformance (skipped: ${options.skip})`
    : `${name} TTS conformance`;
  describe.skipIf(options.skip !== undefined)(title, () => {
    it('reports itself available, with its engine name', async () => {
      const tts = await make();
      const availability = await tts.availability();
      expect(availability.available).toBe(true);
      expect(availability.engine).toBe(tts.name);
      await tts.close();
    });

    it('synthesises a sentence to audible mono PCM16 between 0.3 s and 10 s long', async () => {
      const tts = await make();
      const audio = await tts.synthesize('Hello from the Hearth gateway.');
      const seconds = audio.samples.length / audio.sampleRate;
      expect(audio.sampleRate).toBeGreaterThanOrEqual(8_000);
      expect(seconds).toBeGreaterThan(0.3);
      expect(seconds).toBeLessThan(10);
      expect(rms(audio.samples)).toBeGreaterThan(0.005);
      await tts.close();
    });

    it('treats text that looks like options or markup as text to read', async () => {
      const tts = await make();
      const audio = await tts.synthesize('--help -v xx <speak> $(id) ; rm -rf /');
      expect(audio.samples.length).toBeGreaterThan(0);
      const again = await tts.synthesize('Still working.');
      expect(rms(again.samples)).toBeGreaterThan(0.005);
      await tts.close();
    });

    it('rejects when aborted', async () => {
      const tts = await make();
      const controller = new AbortController();
      controller.abort();
      await expect(tts.synthesize('This will not be spoken.', controller.signal)).rejects.toThrow();
      await tts.close();
    });
  });
}
