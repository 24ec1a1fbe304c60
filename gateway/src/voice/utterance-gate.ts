/**
 * Continuous listening: audio goes through the VAD; each speech segment it ends becomes an
 * utterance. In wake-word mode a segment first has to wake the detector, and the NEXT
 * utterance is the turn (then it sleeps again). Audio is kept only back to the last segment
 * (at most `maxBufferSeconds`), so listening for hours holds a bounded amount.
 */
import type { Metrics } from '../observability/metrics.ts';
import { INPUT_SAMPLE_RATE, type VadStream, type WakeDetector } from './ports.ts';

export interface UtteranceGateOptions {
  vad: VadStream;
  /** Present in wake-word mode. */
  wake?: WakeDetector;
  onUtterance: (audio: Int16Array) => Promise<void>;
  onWake?: (score: number) => void | Promise<void>;
  metrics: Metrics;
  maxBufferSeconds?: number;
  signal?: AbortSignal;
}

export function createUtteranceGate(options: UtteranceGateOptions) {
  const maxBuffer = (options.maxBufferSeconds ?? 60) * INPUT_SAMPLE_RATE;
  let buffer = new Int16Array(0);
  let base = 0; // absolute sample index of buffer[0]
  let awake = false;

  async function handle(start: number, end: number): Promise<void> {
    options.metrics.voiceVadSegmentsTotal.inc();
    const from = Math.max(0, start - base);
    const to = Math.max(from, Math.min(buffer.length, end - base));
    const segment = buffer.slice(from, to);
    buffer = buffer.slice(to);
    base += to;
    if (segment.length === 0) return;
    if (options.wake && !awake) {
      const result = await options.wake.detect(segment, options.signal);
      if (result.detected) {
        awake = true;
        options.metrics.voiceWakeDetectionsTotal.inc();
        await options.onWake?.(result.score);
      }
      return;
    }
    awake = false;
    await options.onUtterance(segment);
  }

  return {
    get awake() {
      return awake;
    },
    async push(samples: Int16Array): Promise<void> {
      const next = new Int16Array(buffer.length + samples.length);
      next.set(buffer);
      next.set(samples, buffer.length);
      buffer = next;
      if (buffer.length > maxBuffer) {
        const drop = buffer.length - maxBuffer;
        buffer = buffer.slice(drop);
        base += drop;
      }
      for (const segment of await options.vad.push(samples))
        await handle(segment.start, segment.end);
    },
    async flush(): Promise<void> {
      for (const segment of options.vad.flush()) await handle(segment.start, segment.end);
    },
  };
}
