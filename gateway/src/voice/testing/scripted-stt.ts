/**
 * A speech-to-text test double: answers each transcription with the next scripted text (the
 * last one repeats), and "hears" nothing in audio that is silent. It records what it was given,
 * so tests can check the audio that reached STT. Test support only.
 */
import { rms } from '../audio/pcm.ts';
import type { SpeechToText } from '../ports.ts';

export interface ScriptedStt extends SpeechToText {
  readonly heard: Int16Array[];
  /** What the next audible transcription returns (then the script goes on). */
  say(text: string): void;
}

export function createScriptedStt(script: readonly string[]): ScriptedStt {
  const heard: Int16Array[] = [];
  let index = 0;
  let next: string | undefined;
  return {
    say(text) {
      next = text;
    },
    name: 'scripted',
    heard,
    availability: () =>
      Promise.resolve({ available: true, engine: 'scripted', detail: 'test double' }),
    async transcribe(audio, signal) {
      await Promise.resolve();
      signal?.throwIfAborted();
      heard.push(audio);
      if (audio.length === 0 || rms(audio) < 0.003) return { text: '' };
      if (next !== undefined) {
        const text = next;
        next = undefined;
        return { text };
      }
      const text = script[Math.min(index, script.length - 1)] ?? '';
      index += 1;
      return { text };
    },
    close: () => Promise.resolve(),
  };
}
