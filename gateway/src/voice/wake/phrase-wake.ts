/**
 * Wake-word detection by phrase spotting: the VAD-gated segment is transcribed by the STT
 * engine and the transcript is searched for `[voice] wake_word`. The score is the best
 * similarity (1 − normalised edit distance) between the phrase and any run of as many words in
 * the transcript, so "hey hearth" still matches "hey, Hearth!" or "hay hearth";
 * `wake_word_threshold` is the score needed. Needs STT: without it, it is unavailable.
 */
import type { EngineAvailability, SpeechToText, WakeDetection, WakeDetector } from '../ports.ts';

export function normaliseWords(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let row = 1; row <= a.length; row += 1) {
    const current = [row];
    for (let column = 1; column <= b.length; column += 1) {
      const cost = a[row - 1] === b[column - 1] ? 0 : 1;
      current[column] = Math.min(
        (previous[column] ?? 0) + 1,
        (current[column - 1] ?? 0) + 1,
        (previous[column - 1] ?? 0) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** How well the transcript contains the phrase, 0..1. */
export function phraseScore(phrase: string, transcript: string): number {
  const wanted = normaliseWords(phrase);
  const words = normaliseWords(transcript);
  if (wanted.length === 0 || words.length === 0) return 0;
  const target = wanted.join(' ');
  let best = 0;
  for (let size = Math.max(1, wanted.length - 1); size <= wanted.length + 1; size += 1) {
    for (let start = 0; start + size <= words.length; start += 1) {
      const candidate = words.slice(start, start + size).join(' ');
      const score = 1 - editDistance(target, candidate) / Math.max(target.length, candidate.length);
      best = Math.max(best, score);
    }
  }
  if (words.length < wanted.length - 1) {
    const candidate = words.join(' ');
    best = Math.max(
      best,
      1 - editDistance(target, candidate) / Math.max(target.length, candidate.length),
    );
  }
  return best;
}

export function createPhraseWake(options: {
  stt: SpeechToText;
  phrase: string;
  threshold: number;
}): WakeDetector & { lastTranscript(): string } {
  let last = '';
  return {
    name: 'phrase',
    lastTranscript: () => last,
    async availability(): Promise<EngineAvailability> {
      if (normaliseWords(options.phrase).length === 0)
        return { available: false, engine: 'phrase', detail: '[voice] wake_word is empty' };
      const stt = await options.stt.availability();
      return stt.available
        ? {
            available: true,
            engine: 'phrase',
            detail: `phrase spotting of "${options.phrase}" (threshold ${options.threshold}) on ${stt.engine}`,
          }
        : {
            available: false,
            engine: 'phrase',
            detail: `phrase spotting needs speech-to-text: ${stt.detail}`,
          };
    },
    async detect(segment, signal): Promise<WakeDetection> {
      const { text } = await options.stt.transcribe(segment, signal);
      last = text;
      const score = phraseScore(options.phrase, text);
      return { detected: score >= options.threshold, score };
    },
    close: () => Promise.resolve(),
  };
}
