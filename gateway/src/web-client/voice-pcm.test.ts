import { describe, expect, it } from 'vitest';
import {
  base64ToPcm16,
  createFramer,
  createResampler,
  floatToPcm16,
  pcm16ToBase64,
  pcm16ToFloat,
  rmsOf,
} from '../../../web/src/voice/pcm.ts';
import { decodeAudioFrame, MAX_AUDIO_FRAME_BYTES } from '../voice/voice-socket.ts';
import { pcm16ToBytes } from '../voice/audio/pcm.ts';

function sine(hz: number, rate: number, seconds: number, amplitude = 0.8): Float32Array {
  return Float32Array.from(
    { length: Math.round(rate * seconds) },
    (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / rate),
  );
}

/** Resamples in chunks of the given sizes (cycled) and joins the output. */
function resampleInChunks(input: Float32Array, from: number, to: number, sizes: number[]) {
  const resampler = createResampler(from, to);
  const parts: number[] = [];
  for (let offset = 0, i = 0; offset < input.length; i += 1) {
    const size = sizes[i % sizes.length]!;
    parts.push(...resampler.push(input.subarray(offset, offset + size)));
    offset += size;
  }
  return Float32Array.from(parts);
}

/** The amplitude of `hz` in `samples` (a single-bin DFT), 1 for a full-scale sine. */
function amplitudeAt(samples: Float32Array, hz: number, rate: number): number {
  let re = 0;
  let im = 0;
  samples.forEach((value, i) => {
    re += value * Math.cos((2 * Math.PI * hz * i) / rate);
    im -= value * Math.sin((2 * Math.PI * hz * i) / rate);
  });
  return (2 * Math.hypot(re, im)) / samples.length;
}

describe('the web client’s voice audio: PCM16 for /ws/voice', () => {
  it('converts float samples to PCM16, clipping beyond full scale, and back', () => {
    const pcm = floatToPcm16(Float32Array.from([0, 1, -1, 0.5, -0.5, 2, -3, Number.NaN]));
    expect([...pcm]).toEqual([0, 32_767, -32_768, 16_384, -16_384, 32_767, -32_768, 0]);
    const back = pcm16ToFloat(pcm);
    expect(back[1]).toBeCloseTo(1, 4);
    expect(back[2]).toBe(-1);
    expect(back[3]).toBeCloseTo(0.5, 4);
  });

  it('encodes little-endian base64 the gateway decodes to the same samples', () => {
    const samples = Int16Array.from({ length: 1_600 }, (_, i) => ((i * 7919) % 65_536) - 32_768);
    const data = pcm16ToBase64(samples);
    expect(data).toBe(pcm16ToBytes(samples).toString('base64'));
    const decoded = decodeAudioFrame({ type: 'audio', data, sample_rate: 16_000 });
    expect(decoded).toEqual(samples);
    expect(base64ToPcm16(data)).toEqual(samples);
    // A frame as large as the gateway takes still encodes in one piece.
    const largest = new Int16Array(MAX_AUDIO_FRAME_BYTES / 2).fill(-2);
    expect(decodeAudioFrame({ type: 'audio', data: pcm16ToBase64(largest) })).toEqual(largest);
  });

  it('refuses what is not base64 PCM16 (bad characters, an odd byte count)', () => {
    expect(base64ToPcm16('not base64!')).toBeUndefined();
    expect(base64ToPcm16(btoa('abc'))).toBeUndefined();
    expect(base64ToPcm16('')).toEqual(new Int16Array(0));
  });

  it.each([48_000, 44_100, 16_000, 8_000])(
    'resamples a 440 Hz tone from %i Hz to 16 kHz: the length, pitch and loudness hold',
    (rate) => {
      const out = createResampler(rate, 16_000).push(sine(440, rate, 1));
      // Short by at most the kernel’s half width (its delay, under a millisecond).
      expect(out.length).toBeGreaterThan(16_000 - 40);
      expect(out.length).toBeLessThanOrEqual(16_000);
      const middle = out.subarray(1_000, 15_000);
      expect(amplitudeAt(middle, 440, 16_000)).toBeCloseTo(0.8, 1);
      expect(rmsOf(middle)).toBeCloseTo(0.8 / Math.SQRT2, 1);
    },
  );

  it('keeps speech frequencies and removes what would alias (48 kHz → 16 kHz)', () => {
    const speech = createResampler(48_000, 16_000).push(sine(3_000, 48_000, 0.5));
    expect(rmsOf(speech.subarray(200))).toBeGreaterThan(0.5);
    // 10 kHz cannot exist at 16 kHz: without a filter it would fold to 6 kHz at full level.
    const high = createResampler(48_000, 16_000).push(sine(10_000, 48_000, 0.5));
    expect(rmsOf(high.subarray(200))).toBeLessThan(0.01);
  });

  it('gives the same samples however the stream is cut into chunks', () => {
    const input = sine(523, 48_000, 0.5);
    const whole = createResampler(48_000, 16_000).push(input);
    const cut = resampleInChunks(input, 48_000, 16_000, [128, 1, 2048, 77, 3]);
    expect(cut.length).toBe(whole.length);
    for (let i = 0; i < whole.length; i += 1) expect(cut[i]).toBeCloseTo(whole[i]!, 6);
    const odd = resampleInChunks(sine(523, 44_100, 0.5), 44_100, 16_000, [128, 2048, 5]);
    expect(odd.length).toBeGreaterThan(8_000 - 40);
  });

  it('refuses a rate that is not a positive number', () => {
    expect(() => createResampler(0, 16_000)).toThrow(RangeError);
    expect(() => createResampler(48_000, Number.NaN)).toThrow(RangeError);
    expect(() => createResampler(-1, 16_000)).toThrow(RangeError);
  });

  it('cuts the stream into 100 ms frames and flushes the rest', () => {
    const framer = createFramer(1_600);
    expect(framer.push(new Int16Array(1_000).fill(1))).toEqual([]);
    const frames = framer.push(new Int16Array(2_500).fill(2));
    expect(frames.map((f) => f.length)).toEqual([1_600, 1_600]);
    expect(frames[0]!.slice(999, 1_001)).toEqual(Int16Array.from([1, 2]));
    expect(framer.flush()?.length).toBe(300);
    expect(framer.flush()).toBeUndefined();
  });
});
