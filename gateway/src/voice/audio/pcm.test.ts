import { describe, expect, it } from 'vitest';
import {
  bytesToPcm16,
  decodeWav,
  encodeWav,
  looksLikeContainer,
  pcm16ToBytes,
  resample,
} from './pcm.ts';

describe('PCM16 and WAV', () => {
  it('round-trips samples through little-endian bytes and a WAV file', () => {
    const samples = Int16Array.from([0, 1, -1, 32767, -32768, 1234]);
    expect(bytesToPcm16(pcm16ToBytes(samples))).toEqual(samples);
    expect(decodeWav(encodeWav({ samples, sampleRate: 16_000 }))).toEqual({
      samples,
      sampleRate: 16_000,
    });
  });

  it('refuses an odd byte count, a non-WAV file, a WAV without data and 8-bit audio', () => {
    expect(() => bytesToPcm16(new Uint8Array(3))).toThrow(/even byte length/);
    expect(() => decodeWav(Buffer.from('hello world, not a wav'))).toThrow(/not a WAV file/);
    const header = encodeWav({ samples: new Int16Array(0), sampleRate: 8_000 }).subarray(0, 36);
    expect(() => decodeWav(header)).toThrow(/no data chunk/);
    const eightBit = encodeWav({ samples: new Int16Array(4), sampleRate: 8_000 });
    eightBit.writeUInt16LE(8, 34);
    expect(() => decodeWav(eightBit)).toThrow(/16-bit PCM/);
  });

  it('mixes a stereo WAV down to mono and resamples to 16 kHz', () => {
    const stereo = encodeWav({
      samples: Int16Array.from([100, 300, 100, 300]),
      sampleRate: 32_000,
    });
    stereo.writeUInt16LE(2, 22);
    const audio = decodeWav(stereo);
    expect(audio.samples).toEqual(Int16Array.from([200, 200]));
    expect(resample({ samples: new Int16Array(32_000), sampleRate: 32_000 }, 16_000)).toHaveLength(
      16_000,
    );
  });

  it('recognises containers sent where raw PCM is expected', () => {
    expect(looksLikeContainer(Buffer.from('RIFF....'))).toBe('WAV');
    expect(looksLikeContainer(Buffer.from('OggS....'))).toBe('Ogg');
    expect(looksLikeContainer(Buffer.from([1, 2, 3, 4]))).toBeUndefined();
  });
});
