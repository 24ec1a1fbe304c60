/**
 * Speech synthesis with espeak-ng (the Debian package; the Docker image installs it). The text
 * goes in on stdin — never as an argument, so no text is read as an option — and the WAV comes
 * back on stdout (`--stdout`), 22,050 Hz mono PCM16.
 */
import { unavailable } from '../../errors.ts';
import { decodeWav } from '../audio/pcm.ts';
import { commandWorks, runCommand } from '../audio/run-command.ts';
import type { EngineAvailability, Pcm16Audio, TextToSpeech } from '../ports.ts';

export interface EspeakOptions {
  /** The program (default `espeak-ng` on PATH). */
  command?: string;
  /** An espeak-ng voice name (default `en`). */
  voice?: string;
  /** Words per minute (espeak-ng's default 175). */
  speed?: number;
}

/** Longest text synthesised in one call, in characters. */
export const MAX_TTS_CHARS = 4_000;

export function createEspeakTts(options: EspeakOptions = {}): TextToSpeech {
  const command = options.command ?? 'espeak-ng';
  const voice = options.voice ?? 'en';
  let checked: Promise<boolean> | undefined;
  const works = () => (checked ??= commandWorks(command, ['--version']));
  return {
    name: 'espeak-ng',
    async availability(): Promise<EngineAvailability> {
      return (await works())
        ? { available: true, engine: 'espeak-ng', detail: `${command} (voice ${voice})` }
        : {
            available: false,
            engine: 'espeak-ng',
            detail: `${command} is not installed (Debian: apt-get install espeak-ng)`,
          };
    },
    async synthesize(text, signal): Promise<Pcm16Audio> {
      if (!(await works())) throw unavailable(`${command} is not installed`);
      const clean = text.slice(0, MAX_TTS_CHARS);
      const args = [
        '--stdout',
        '-v',
        voice,
        ...(options.speed ? ['-s', String(options.speed)] : []),
      ];
      const result = await runCommand(command, args, { input: clean, signal });
      if (result.code !== 0)
        throw unavailable(
          `${command} failed (exit ${String(result.code)}): ${result.stderr.trim()}`,
        );
      return decodeWav(result.stdout);
    },
    close: () => Promise.resolve(),
  };
}
