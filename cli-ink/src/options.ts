import { InvalidArgumentError } from 'commander';

/** `--port N`: an integer 0..65535 (0 picks a free port). */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) {
    throw new InvalidArgumentError('expected a port number from 0 to 65535.');
  }
  return port;
}

export const VOICE_MODES = ['ptt', 'continuous', 'wake', 'off'] as const;
export type VoiceMode = (typeof VOICE_MODES)[number];
