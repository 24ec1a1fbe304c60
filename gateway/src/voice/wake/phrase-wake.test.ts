import { describe, expect, it } from 'vitest';
import { createNoSpeechToText } from '../stt/none-stt.ts';
import type { SpeechToText } from '../ports.ts';
import { espeakSpeech16k, hasProgram } from '../testing/sox.ts';
import { createPhraseWake, phraseScore } from './phrase-wake.ts';
import { runWakeConformance } from './wake-conformance.ts';

const missing =
  !hasProgram('espeak-ng') || !hasProgram('sox') ? 'espeak-ng or sox is not installed' : undefined;

/** An STT double that knows which clip is which: the wake clip says the phrase. */
function clipStt(clips: Map<Int16Array, string>): SpeechToText {
  return {
    name: 'clips',
    availability: () =>
      Promise.resolve({ available: true, engine: 'clips', detail: 'test double' }),
    transcribe: (audio) => Promise.resolve({ text: clips.get(audio) ?? '' }),
    close: () => Promise.resolve(),
  };
}

const fixtures = missing
  ? undefined
  : {
      wake: espeakSpeech16k('Hey Hearth.'),
      other: espeakSpeech16k('What time is it?'),
      silence: new Int16Array(16_000),
    };
const stt = fixtures
  ? clipStt(
      new Map([
        [fixtures.wake, 'Hey, Hearth!'],
        [fixtures.other, 'What time is it?'],
      ]),
    )
  : createNoSpeechToText('no fixtures');

runWakeConformance(
  'phrase spotting',
  () => createPhraseWake({ stt, phrase: 'hey hearth', threshold: 0.75 }),
  () => fixtures!,
  { skip: missing },
);

describe('phrase scoring', () => {
  it('matches the phrase inside a longer transcript, with punctuation and case ignored', () => {
    expect(phraseScore('hey hearth', 'Okay. Hey, HEARTH! what is on today')).toBe(1);
  });

  it('tolerates a near miss of the recogniser and rejects other words', () => {
    expect(phraseScore('hey hearth', 'hay hearth')).toBeGreaterThan(0.8);
    expect(phraseScore('hey hearth', 'the weather')).toBeLessThan(0.6);
    expect(phraseScore('hey hearth', '')).toBe(0);
  });

  it('without STT the detector is unavailable and says why', async () => {
    const wake = createPhraseWake({
      stt: createNoSpeechToText('no Whisper weights'),
      phrase: 'hey hearth',
      threshold: 0.5,
    });
    const availability = await wake.availability();
    expect(availability).toMatchObject({ available: false, engine: 'phrase' });
    expect(availability.detail).toContain('no Whisper weights');
  });
});
