/** The STT engine when `[voice] stt` names none (or an unknown one): always unavailable. */
import { unavailable } from '../../errors.ts';
import type { SpeechToText } from '../ports.ts';

export function createNoSpeechToText(reason: string): SpeechToText {
  return {
    name: 'none',
    availability: () => Promise.resolve({ available: false, engine: 'none', detail: reason }),
    transcribe: () => Promise.reject(unavailable(`speech-to-text is unavailable: ${reason}`)),
    close: () => Promise.resolve(),
  };
}
