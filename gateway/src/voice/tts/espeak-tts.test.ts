import { describe, expect, it } from 'vitest';
import { missingSpeechTools, soxStat } from '../testing/sox.ts';
import { createEspeakTts } from './espeak-tts.ts';
import { runTtsConformance } from './tts-conformance.ts';

const missing = missingSpeechTools();

runTtsConformance('espeak-ng', () => createEspeakTts(), { skip: missing });

describe.skipIf(missing !== undefined)(
  `espeak-ng synthesis measured by sox${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    it('a sentence becomes 22,050 Hz audio whose length and loudness sox confirms', async () => {
      const audio = await createEspeakTts().synthesize('The kettle is on and the fire is lit.');
      expect(audio.sampleRate).toBe(22_050);
      const stat = soxStat(audio);
      expect(stat.seconds).toBeGreaterThan(1);
      expect(stat.seconds).toBeLessThan(6);
      expect(stat.rmsAmplitude).toBeGreaterThan(0.01);
    });
  },
);

describe('espeak-ng when the program is missing', () => {
  it('reports itself unavailable with the install hint, and synthesis answers 503', async () => {
    const tts = createEspeakTts({ command: '/nonexistent/espeak-ng' });
    const availability = await tts.availability();
    expect(availability).toMatchObject({ available: false, engine: 'espeak-ng' });
    expect(availability.detail).toContain('apt-get install espeak-ng');
    await expect(tts.synthesize('hello')).rejects.toMatchObject({ code: 'unavailable' });
  });
});
