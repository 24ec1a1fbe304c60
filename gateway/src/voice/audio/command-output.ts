/**
 * Host audio out through `aplay` (ALSA), when alsa-utils is installed and a playback device
 * exists: the host's replies in `hearth start --voice-mode`.
 */
import { runCommand } from './run-command.ts';
import { listAudioDevices } from './devices.ts';
import type { Pcm16Audio } from '../ports.ts';
import { pcm16ToBytes } from './pcm.ts';

export interface AudioOutput {
  available(): Promise<boolean>;
  play(audio: Pcm16Audio, signal?: AbortSignal): Promise<void>;
}

export function createAplayOutput(): AudioOutput {
  return {
    available: async () => (await listAudioDevices()).output.length > 0,
    async play(audio, signal) {
      await runCommand(
        'aplay',
        ['-q', '-t', 'raw', '-f', 'S16_LE', '-r', String(audio.sampleRate), '-c', '1'],
        { input: pcm16ToBytes(audio.samples), signal, timeoutMs: 120_000 },
      );
    },
  };
}
