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

/** Zero crossings of the filter kernel on each side of a sample: its sharpness. */
const ZERO_CROSSINGS = 8;

/**
 * A streaming resampler from `fromRate` to `toRate`: band-limited interpolation with a
 * Blackman-windowed sinc whose cutoff is 90 % of the lower rate's Nyquist frequency, so
 * downsampling 48 kHz to 16 kHz keeps speech (up to ~7 kHz) and drops what would alias. The
 * position carries over chunk boundaries: a stream cut into any chunks gives the same samples
 * as one chunk (delayed by the kernel's half width, well under a millisecond).
 */
export function createResampler(fromRate: number, toRate: number): Resampler {
  if (!(fromRate > 0 && toRate > 0 && Number.isFinite(fromRate) && Number.isFinite(toRate)))
    throw new RangeError(`sample rates must be positive (got ${fromRate} → ${toRate})`);
  const step = fromRate / toRate;
  // Cutoff in cycles per input sample, and the kernel's half width in input samples.
  const cutoff = (0.9 * Math.min(fromRate, toRate)) / 2 / fromRate;
  const half = Math.ceil(ZERO_CROSSINGS / (2 * cutoff));
  const kernel = (x: number): number => {
    if (x <= -half || x >= half) return 0;
    const sinc = x === 0 ? 1 : Math.sin(2 * Math.PI * cutoff * x) / (Math.PI * x * 2 * cutoff);
    const w = (x + half) / (2 * half);
    return sinc * (0.42 - 0.5 * Math.cos(2 * Math.PI * w) + 0.08 * Math.cos(4 * Math.PI * w));
  };
  // Absolute input position of the next output sample, the input seen so far, and the part of
  // it (from absolute index `start`) the next outputs still need.
  let position = 0;
  let consumed = 0;
  let kept = new Float32Array(0);
  let start = 0;
  return {
    push(chunk) {
      const input = kept.length === 0 ? chunk : concat(kept, chunk);
      const end = consumed + chunk.length;
      const at = (index: number) => (index < start ? 0 : (input[index - start] ?? 0));
      const out: number[] = [];
      while (Math.floor(position) + half < end) {
        const centre = Math.floor(position);
        let sum = 0;
        let weight = 0;
        for (let k = centre - half + 1; k <= centre + half; k += 1) {
          const h = kernel(position - k);
          sum += at(k) * h;
          weight += h;
        }
        out.push(weight === 0 ? 0 : sum / weight);
        position += step;
      }
      consumed = end;
      const keepFrom = Math.max(start, Math.min(Math.floor(position) - half + 1, end));
      kept = input.slice(keepFrom - start);
      start = keepFrom;
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
