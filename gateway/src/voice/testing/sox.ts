/**
 * Test support: the real sox, to make audio (silence, noise) and to measure it (`sox … -n stat`:
 * length in seconds, RMS amplitude) independently of Hearth's own PCM code.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeWav, encodeWav } from '../audio/pcm.ts';
import type { Pcm16Audio } from '../ports.ts';

export function hasProgram(name: string): boolean {
  try {
    execFileSync(name, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Why the speech tests cannot run here (espeak-ng speaks, sox measures), or undefined. */
export function missingSpeechTools(): string | undefined {
  if (!hasProgram('espeak-ng')) return 'espeak-ng is not installed';
  if (!hasProgram('sox')) return 'sox is not installed';
  return undefined;
}

export interface SoxStat {
  seconds: number;
  rmsAmplitude: number;
  maxAmplitude: number;
}

/** `sox <wav> -n stat` on the audio, written as a WAV file. */
export function soxStat(audio: Pcm16Audio | Buffer): SoxStat {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-sox-'));
  try {
    const file = join(dir, 'audio.wav');
    writeFileSync(file, Buffer.isBuffer(audio) ? audio : encodeWav(audio));
    // `stat` reports on stderr.
    const result = spawnSync('sox', [file, '-n', 'stat'], { encoding: 'utf8' });
    return parseStat(`${result.stdout}\n${result.stderr}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function parseStat(text: string): SoxStat {
  const value = (label: string) => {
    const match = new RegExp(`^${label}:\\s+(-?[\\d.]+)`, 'm').exec(text);
    if (!match?.[1]) throw new Error(`sox stat has no ${label}: ${text}`);
    return Number(match[1]);
  };
  return {
    seconds: value('Length \\(seconds\\)'),
    rmsAmplitude: value('RMS\\s+amplitude'),
    maxAmplitude: value('Maximum amplitude'),
  };
}

/** Runs sox with the given arguments, writing a 16 kHz mono WAV; returns its samples. */
export function soxGenerate(args: readonly string[], rate = 16_000): Pcm16Audio {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-sox-'));
  try {
    const file = join(dir, 'out.wav');
    execFileSync('sox', ['-n', '-r', String(rate), '-c', '1', '-b', '16', file, ...args], {
      stdio: 'pipe',
    });
    return decodeWav(readFileSync(file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Converts audio to 16 kHz mono PCM16 with sox (a real resampler, not Hearth's). */
export function soxTo16k(audio: Pcm16Audio): Int16Array {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-sox-'));
  try {
    const input = join(dir, 'in.wav');
    const output = join(dir, 'out.wav');
    writeFileSync(input, encodeWav(audio));
    execFileSync('sox', [input, '-r', '16000', '-c', '1', '-b', '16', output], { stdio: 'pipe' });
    return decodeWav(readFileSync(output)).samples;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** espeak-ng speech at 16 kHz mono (through sox), for VAD and pipeline tests. */
export function espeakSpeech16k(text: string): Int16Array {
  const wav = execFileSync('espeak-ng', ['--stdout', '-v', 'en'], { input: text, stdio: 'pipe' });
  return soxTo16k(decodeWav(wav));
}
