/**
 * The conformance suite every SpeechToText adapter passes. An available engine turns speech
 * into text, silence into nothing, and honours abort; an unavailable one says why and rejects
 * every transcription with 503. Test support only.
 */
import { describe, expect, it } from 'vitest';
import type { SpeechToText } from '../ports.ts';

export interface SttConformanceOptions {
  /** 16 kHz speech and words expected in its transcript (lower-case). */
  speech?: () => { audio: Int16Array; words: string[] };
  skip?: string;
}

export function runSttConformance(
  name: string,
  make: () => SpeechToText,
  options: SttConformanceOptions = {},
): void {
  const title = options.skip
    ? `${name} STT conformance (skipped: ${options.skip})`
    : `${name} STT conformance`;
  describe.skipIf(options.skip !== undefined)(title, () => {
    it('reports availability with its engine name and a reason', async () => {
      const stt = make();
      const availability = await stt.availability();
      expect(availability.engine).toBe(stt.name);
      expect(availability.detail.length).toBeGreaterThan(0);
      await stt.close();
    });

    it('when available, transcribes speech to text containing the spoken words', async () => {
      const stt = make();
      if (!(await stt.availability()).available || !options.speech) {
        await expect(stt.transcribe(new Int16Array(16_000))).rejects.toMatchObject({
          code: 'unavailable',
        });
        return;
      }
      const { audio, words } = options.speech();
      const { text } = await stt.transcribe(audio);
      for (const word of words) expect(text.toLowerCase()).toContain(word);
      await stt.close();
    });

    it('when available, hears nothing in silence; when not, rejects with 503', async () => {
      const stt = make();
      const silence = new Int16Array(16_000);
      if (!(await stt.availability()).available) {
        await expect(stt.transcribe(silence)).rejects.toMatchObject({ code: 'unavailable' });
        return;
      }
      const { text } = await stt.transcribe(silence);
      expect(text.replace(/[^\p{L}]/gu, '').length).toBeLessThan(12);
      await stt.close();
    });

    it('rejects an aborted transcription', async () => {
      const stt = make();
      const controller = new AbortController();
      controller.abort();
      await expect(stt.transcribe(new Int16Array(1600), controller.signal)).rejects.toThrow();
      await stt.close();
    });
  });
}
