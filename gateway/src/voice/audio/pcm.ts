/**
 * PCM16 helpers: little-endian bytes ↔ samples, float conversion, loudness, and the RIFF/WAVE
 * container (read: PCM16 mono or stereo, any rate; write: PCM16 mono).
 */
import { validationError } from '../../errors.ts';
import type { Pcm16Audio } from '../ports.ts';

/** Samples from little-endian PCM16 bytes (copied, so the buffer may be reused). */
export function bytesToPcm16(bytes: Uint8Array): Int16Array {
  if (bytes.length % 2 !== 0) throw validationError('PCM16 audio must have an even byte length');
  const out = new Int16Array(bytes.length / 2);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let index = 0; index < out.length; index += 1) out[index] = view.getInt16(index * 2, true);
  return out;
}

export function pcm16ToBytes(samples: Int16Array): Buffer {
  const out = Buffer.alloc(samples.length * 2);
  for (let index = 0; index < samples.length; index += 1)
    out.writeInt16LE(samples[index] ?? 0, index * 2);
  return out;
}

export function pcm16ToFloat32(samples: Int16Array): Float32Array {
  const out = new Float32Array(samples.length);
  for (let index = 0; index < samples.length; index += 1)
    out[index] = (samples[index] ?? 0) / 32768;
  return out;
}

export function float32ToPcm16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let index = 0; index < samples.length; index += 1) {
    const value = Math.max(-1, Math.min(1, samples[index] ?? 0));
    out[index] = Math.round(value * 32767);
  }
  return out;
}

/** Root mean square, 0..1 of full scale. */
export function rms(samples: Int16Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const sample of samples) sum += (sample / 32768) ** 2;
  return Math.sqrt(sum / samples.length);
}

export function concatPcm16(parts: readonly Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Whether bytes start like a container (WAV, Ogg, FLAC, MP3, WebM) rather than raw PCM. */
export function looksLikeContainer(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, 4)).toString('latin1');
  if (head === 'RIFF') return 'WAV';
  if (head === 'OggS') return 'Ogg';
  if (head === 'fLaC') return 'FLAC';
  if (head.startsWith('ID3')) return 'MP3';
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3)
    return 'WebM';
  return undefined;
}

/** Reads a PCM16 WAV file (stereo is mixed down to mono). */
export function decodeWav(file: Uint8Array): Pcm16Audio {
  const buffer = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  if (buffer.length < 12 || buffer.toString('latin1', 0, 4) !== 'RIFF')
    throw validationError('not a WAV file (no RIFF header)');
  if (buffer.toString('latin1', 8, 12) !== 'WAVE') throw validationError('not a WAVE file');
  let offset = 12;
  let format: { channels: number; sampleRate: number; bits: number; code: number } | undefined;
  while (offset + 8 <= buffer.length) {
    const id = buffer.toString('latin1', offset, offset + 4);
    const declared = buffer.readUInt32LE(offset + 4);
    const start = offset + 8;
    // Streamed WAVs (espeak-ng --stdout) declare a 0 or oversized data length: read to the end.
    const size = Math.min(declared === 0 ? buffer.length - start : declared, buffer.length - start);
    if (id === 'fmt ') {
      if (size < 16) throw validationError('WAV fmt chunk is too short');
      format = {
        code: buffer.readUInt16LE(start),
        channels: buffer.readUInt16LE(start + 2),
        sampleRate: buffer.readUInt32LE(start + 4),
        bits: buffer.readUInt16LE(start + 14),
      };
    } else if (id === 'data') {
      if (!format) throw validationError('WAV data before fmt');
      if ((format.code !== 1 && format.code !== 0xfffe) || format.bits !== 16)
        throw validationError(
          `WAV must be 16-bit PCM (got format ${format.code}, ${format.bits} bits)`,
        );
      if (format.channels < 1 || format.channels > 8 || format.sampleRate < 1)
        throw validationError('WAV has an invalid channel count or sample rate');
      const interleaved = bytesToPcm16(buffer.subarray(start, start + size - (size % 2)));
      const frames = Math.floor(interleaved.length / format.channels);
      const mono = new Int16Array(frames);
      for (let frame = 0; frame < frames; frame += 1) {
        let sum = 0;
        for (let channel = 0; channel < format.channels; channel += 1)
          sum += interleaved[frame * format.channels + channel] ?? 0;
        mono[frame] = Math.round(sum / format.channels);
      }
      return { samples: mono, sampleRate: format.sampleRate };
    }
    offset = start + size + (size % 2);
  }
  throw validationError('WAV file has no data chunk');
}

/** A PCM16 mono WAV file. */
export function encodeWav(audio: Pcm16Audio): Buffer {
  const data = pcm16ToBytes(audio.samples);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(audio.sampleRate, 24);
  header.writeUInt32LE(audio.sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** Linear-interpolation resampling (for a WAV file at another rate given to `voice listen`). */
export function resample(audio: Pcm16Audio, targetRate: number): Int16Array {
  if (audio.sampleRate === targetRate) return audio.samples;
  const ratio = audio.sampleRate / targetRate;
  const length = Math.floor(audio.samples.length / ratio);
  const out = new Int16Array(length);
  for (let index = 0; index < length; index += 1) {
    const position = index * ratio;
    const left = Math.floor(position);
    const right = Math.min(left + 1, audio.samples.length - 1);
    const weight = position - left;
    out[index] = Math.round(
      (audio.samples[left] ?? 0) * (1 - weight) + (audio.samples[right] ?? 0) * weight,
    );
  }
  return out;
}
