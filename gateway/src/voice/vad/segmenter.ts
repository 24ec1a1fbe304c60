/**
 * Turns per-frame speech probabilities into speech segments, the same for every VAD: a
 * segment starts on a frame at or above `threshold`, ends after `minSilenceMs` of frames below
 * `threshold - 0.15`, and is kept only when at least `minSpeechMs` long. Frames are 512
 * samples at 16 kHz (32 ms), Silero's window.
 */
import type { SpeechSegment, VadStream } from '../ports.ts';

export const VAD_FRAME_SAMPLES = 512;
const SAMPLES_PER_MS = 16;

export interface SegmenterOptions {
  threshold: number;
  minSilenceMs: number;
  minSpeechMs: number;
  /** Samples of padding kept before and after each segment. */
  padMs: number;
}

export const DEFAULT_SEGMENTER: SegmenterOptions = {
  threshold: 0.5,
  minSilenceMs: 400,
  minSpeechMs: 200,
  padMs: 64,
};

/** One frame's speech probability; frames come in order, so a model may keep state. */
export type FrameScorer = (frame: Float32Array) => Promise<number>;

export function createSegmentingStream(
  score: FrameScorer,
  options: SegmenterOptions = DEFAULT_SEGMENTER,
): VadStream {
  const pending: number[] = [];
  let position = 0; // samples consumed into frames so far
  let start: number | undefined;
  let silentSince: number | undefined;
  const lowThreshold = Math.max(0.01, options.threshold - 0.15);
  const pad = options.padMs * SAMPLES_PER_MS;

  function close(end: number): SpeechSegment[] {
    const begin = start ?? 0;
    start = undefined;
    silentSince = undefined;
    if (end - begin < options.minSpeechMs * SAMPLES_PER_MS) return [];
    return [{ start: Math.max(0, begin - pad), end: end + pad }];
  }

  return {
    async push(samples) {
      for (const sample of samples) pending.push(sample / 32768);
      const ended: SpeechSegment[] = [];
      while (pending.length >= VAD_FRAME_SAMPLES) {
        const frame = Float32Array.from(pending.splice(0, VAD_FRAME_SAMPLES));
        const probability = await score(frame);
        const frameStart = position;
        position += VAD_FRAME_SAMPLES;
        if (start === undefined) {
          if (probability >= options.threshold) start = frameStart;
        } else if (probability < lowThreshold) {
          silentSince ??= frameStart;
          if (position - silentSince >= options.minSilenceMs * SAMPLES_PER_MS)
            ended.push(...close(silentSince));
        } else {
          silentSince = undefined;
        }
      }
      return ended;
    },
    flush() {
      if (start === undefined) return [];
      return close(silentSince ?? position);
    },
  };
}

/** Probabilities of each whole frame of a clip, for `Vad.probabilities`. */
export async function frameProbabilities(
  samples: Int16Array,
  score: FrameScorer,
): Promise<number[]> {
  const out: number[] = [];
  for (let offset = 0; offset + VAD_FRAME_SAMPLES <= samples.length; offset += VAD_FRAME_SAMPLES) {
    const frame = new Float32Array(VAD_FRAME_SAMPLES);
    for (let index = 0; index < VAD_FRAME_SAMPLES; index += 1)
      frame[index] = (samples[offset + index] ?? 0) / 32768;
    out.push(await score(frame));
  }
  return out;
}
