/**
 * The wake-word chain: the first detector that is available now, in order — the openWakeWord
 * ONNX detector when `[voice] wake_word_model` names files that exist, else phrase spotting
 * on speech-to-text, else none. A detector whose models fail when used (availability only
 * checks files) is skipped from then on, and the next one takes over for the same segment;
 * the last one's errors are reported for that segment only.
 */
import { unavailable } from '../../errors.ts';
import type { EngineAvailability, WakeDetector } from '../ports.ts';

export interface WakeChain extends WakeDetector {
  /** Re-checks the detectors (e.g. after models were added); the one now in use. */
  resolve(): Promise<EngineAvailability>;
}

export function createWakeChain(detectors: readonly WakeDetector[]): WakeChain {
  type Choice = { detector: WakeDetector | undefined; availability: EngineAvailability };
  let chosen: Choice | undefined;
  const failed = new Map<WakeDetector, string>();

  async function choose(): Promise<Choice> {
    const reasons: string[] = [];
    for (const detector of detectors) {
      const broken = failed.get(detector);
      if (broken) {
        reasons.push(`${detector.name}: ${broken}`);
        continue;
      }
      const availability = await detector.availability();
      if (availability.available) {
        chosen = { detector, availability };
        return chosen;
      }
      reasons.push(`${detector.name}: ${availability.detail}`);
    }
    chosen = {
      detector: undefined,
      availability: {
        available: false,
        engine: 'none',
        detail: `no wake-word detector is available (${reasons.join('; ') || 'none configured'})`,
      },
    };
    return chosen;
  }

  const current = async (): Promise<Choice> => chosen ?? (await choose());

  return {
    get name() {
      return chosen?.availability.engine ?? 'none';
    },
    resolve: async () => (await choose()).availability,
    async availability() {
      return (await current()).availability;
    },
    async detect(segment, signal) {
      for (;;) {
        const { detector, availability } = await current();
        if (!detector) throw unavailable(availability.detail);
        try {
          return await detector.detect(segment, signal);
        } catch (error) {
          // The last resort's errors (phrase spotting: an STT hiccup) are this segment's only.
          if (signal?.aborted || detector === detectors.at(-1)) throw error;
          failed.set(
            detector,
            `failed when used: ${error instanceof Error ? error.message : String(error)}`,
          );
          await choose();
        }
      }
    },
    async close() {
      await Promise.allSettled(detectors.map((detector) => detector.close()));
    },
  };
}
