/**
 * The audio `/ws/voice` speaks: 16 kHz mono PCM16 little-endian, base64 in JSON frames (up to
 * 64 KiB decoded per frame). The microphone gives Float32 samples at the audio context's rate
 * (usually 44.1 or 48 kHz); the gateway's speech comes back as PCM16 at its engine's rate.
 */

/** The rate `/ws/voice` accepts. */
export const VOICE_INPUT_RATE = 16_000;

export interface Resampler {
  /** Resamples the next chunk of a continuous stream (state carries over between chunks). */
  push(input: Float32Array): Float32Array;
}

/**
 * A streaming resampler from `fromRate` to `toRate`. Downsampling averages the input over each
 * output sample's span (a box filter, which keeps most aliasing out of the speech band) and
 * upsampling interpolates linearly; the position carries over chunk boundaries, so a stream
 * cut into any chunks gives the same samples as one chunk.
 */
export function createResampler(fromRate: number, toRate: number): Resampler {
  if (!(fromRate > 0 && toRate > 0 && Number.isFinite(fromRate) && Number.isFinite(toRate)))
    throw new RangeError(`sample rates must be positive (got ${fromRate} → ${toRate})`);
  const step = fromRate / toRate;
  // Absolute input position of the next output sample, and the input samples seen so far.
  let position = 0;
  let consumed = 0;
  // The tail of the previous chunk that the next output samples still need.
  let carry = new Float32Array(0);
  return {
    push(chunk) {
      const input = carry.length === 0 ? chunk : concat(carry, chunk);
      const start = consumed - carry.length;
      const end = consumed + chunk.length;
      const out: number[] = [];
      const at = (index: number) => input[index - start] ?? 0;
      if (step >= 1) {
        // Each output sample is the mean of the input in [position, position + step).
        while (position + step <= end) {
          const from = Math.floor(position);
          const to = Math.floor(position + step);
          let sum = 0;
          for (let i = from; i < to; i += 1) sum += at(i);
          out.push(to > from ? sum / (to - from) : at(from));
          position += step;
        }
      } else {
        while (position + 1 < end) {
          const index = Math.floor(position);
          const fraction = position - index;
          out.push(at(index) * (1 - fraction) + at(index + 1) * fraction);
          position += step;
        }
      }
      consumed = end;
      const keepFrom = Math.min(Math.floor(position), end);
      carry = input.slice(keepFrom - start);
      return Float32Array.from(out);
    },
  };
}

function concat(a: Float32Array, b: Float32Array): Float32Array {
  const joined = new Float32Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

/** Float samples in [-1, 1] (clipped beyond) to PCM16. */
export function floatToPcm16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i += 1) {
    const value = Math.max(-1, Math.min(1, samples[i] ?? 0));
    out[i] = Math.round(value < 0 ? value * 32_768 : value * 32_767);
  }
  return out;
}

/** PCM16 to float samples in [-1, 1). */
export function pcm16ToFloat(samples: Int16Array): Float32Array<ArrayBuffer> {
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i += 1) out[i] = (samples[i] ?? 0) / 32_768;
  return out;
}

/** PCM16 as base64 of its little-endian bytes (whatever the machine's byte order). */
export function pcm16ToBase64(samples: Int16Array): string {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  samples.forEach((sample, i) => view.setInt16(i * 2, sample, true));
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Base64 of little-endian PCM16 to samples; undefined when it is not that (bad base64, odd length). */
export function base64ToPcm16(data: string): Int16Array | undefined {
  let binary: string;
  try {
    binary = atob(data);
  } catch {
    return undefined;
  }
  if (binary.length % 2 !== 0) return undefined;
  const view = new DataView(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) view.setUint8(i, binary.charCodeAt(i));
  const out = new Int16Array(binary.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = view.getInt16(i * 2, true);
  return out;
}

/** Root mean square of float samples (0 for none): the level meter. */
export function rmsOf(samples: Float32Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return Math.sqrt(sum / samples.length);
}

/**
 * Cuts a stream of PCM16 into frames of `frameSamples` (the last partial frame stays until
 * `flush`), so each `/ws/voice` audio frame is well under its 64 KiB limit.
 */
export function createFramer(frameSamples: number) {
  let pending: Int16Array[] = [];
  let size = 0;
  const take = (count: number): Int16Array => {
    const out = new Int16Array(count);
    let filled = 0;
    while (filled < count) {
      const head = pending[0]!;
      const part = head.subarray(0, count - filled);
      out.set(part, filled);
      filled += part.length;
      if (part.length === head.length) pending.shift();
      else pending[0] = head.subarray(part.length);
    }
    size -= count;
    return out;
  };
  return {
    push(samples: Int16Array): Int16Array[] {
      if (samples.length > 0) {
        pending.push(samples);
        size += samples.length;
      }
      const frames: Int16Array[] = [];
      while (size >= frameSamples) frames.push(take(frameSamples));
      return frames;
    },
    flush(): Int16Array | undefined {
      if (size === 0) return undefined;
      const rest = take(size);
      pending = [];
      return rest;
    },
  };
}
