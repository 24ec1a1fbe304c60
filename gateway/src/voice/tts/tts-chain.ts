/**
 * The synthesis chain: the first engine that is available now, in order — Piper voices when
 * their model files are in the cache, else espeak-ng when installed, else none. `[voice]
 * tts_engine` only switches TTS on or off (`off`, `none`, `false`, `disabled` switch it off);
 * any other value keeps the whole chain, it never pins an engine.
 */
import { unavailable } from '../../errors.ts';
import type { EngineAvailability, TextToSpeech } from '../ports.ts';

const OFF_VALUES = new Set(['off', 'none', 'false', 'disabled', '0']);

export function ttsSwitchedOn(ttsEngine: string): boolean {
  return !OFF_VALUES.has(ttsEngine.trim().toLowerCase());
}

export interface TtsChain extends TextToSpeech {
  /** Re-checks the engines (e.g. after a models pull); the one now in use. */
  resolve(): Promise<EngineAvailability>;
}

export function createTtsChain(options: {
  engines: readonly TextToSpeech[];
  enabled: boolean;
}): TtsChain {
  type Choice = { engine: TextToSpeech | undefined; availability: EngineAvailability };
  let chosen: Choice | undefined;
  /** Engines whose model failed when used (availability only checks files): skipped after. */
  const failed = new Map<TextToSpeech, string>();

  async function resolve(): Promise<EngineAvailability> {
    return (await choose()).availability;
  }

  async function choose(): Promise<Choice> {
    if (!options.enabled) {
      chosen = {
        engine: undefined,
        availability: {
          available: false,
          engine: 'none',
          detail: 'text-to-speech is switched off ([voice] tts_engine)',
        },
      };
      return chosen;
    }
    const reasons: string[] = [];
    for (const engine of options.engines) {
      const broken = failed.get(engine);
      if (broken) {
        reasons.push(`${engine.name}: ${broken}`);
        continue;
      }
      const availability = await engine.availability();
      if (availability.available) {
        chosen = { engine, availability };
        return chosen;
      }
      reasons.push(`${engine.name}: ${availability.detail}`);
    }
    chosen = {
      engine: undefined,
      availability: {
        available: false,
        engine: 'none',
        detail: `no text-to-speech engine is available (${reasons.join('; ') || 'none configured'})`,
      },
    };
    return chosen;
  }

  const current = async (): Promise<Choice> => chosen ?? (await choose());

  return {
    get name() {
      return chosen?.availability.engine ?? 'none';
    },
    resolve,
    async availability() {
      return (await current()).availability;
    },
    async synthesize(text, signal) {
      for (;;) {
        const { engine, availability } = await current();
        if (!engine) throw unavailable(availability.detail);
        try {
          return await engine.synthesize(text, signal);
        } catch (error) {
          if (signal?.aborted) throw error;
          // The engine's files were there but it does not work: fall to the next one.
          failed.set(
            engine,
            `failed when used: ${error instanceof Error ? error.message : String(error)}`,
          );
          await choose();
        }
      }
    },
    async close() {
      for (const engine of options.engines) await engine.close();
    },
  };
}
