/**
 * The fallback VAD when the Silero model cannot load: a frame is speech when its energy stands
 * well above an adaptive noise floor (the quietest recent frames). It tells loud from quiet,
 * not speech from noise, and `/status` backends say when it is in use.
 */
import type { EngineAvailability, Vad } from '../ports.ts';
import {
  createSegmentingStream,
  DEFAULT_SEGMENTER,
  frameProbabilities,
  type FrameScorer,
} from './segmenter.ts';

/** Frames below this RMS are silence whatever the floor (about -54 dBFS). */
const ABSOLUTE_FLOOR = 0.002;

function energyScorer(): FrameScorer {
  let floor = ABSOLUTE_FLOOR;
  return (frame) => {
    let sum = 0;
    for (const value of frame) sum += value * value;
    const level = Math.sqrt(sum / frame.length);
    // The floor falls fast and rises slowly, so speech does not become the new floor.
    floor = level < floor ? level * 0.5 + floor * 0.5 : floor * 0.995 + level * 0.005;
    floor = Math.max(floor, ABSOLUTE_FLOOR);
    const ratio = level / floor;
    // 4x the floor (12 dB) → 0.5; 16x → ~1.
    return Promise.resolve(Math.max(0, Math.min(1, Math.log2(Math.max(ratio, 1)) / 4)));
  };
}

export function createEnergyVad(): Vad {
  return {
    name: 'energy',
    availability: (): Promise<EngineAvailability> =>
      Promise.resolve({
        available: true,
        engine: 'energy',
        detail: 'energy threshold over an adaptive noise floor (no model)',
      }),
    stream: () => Promise.resolve(createSegmentingStream(energyScorer(), DEFAULT_SEGMENTER)),
    probabilities: (samples) => frameProbabilities(samples, energyScorer()),
    close: () => Promise.resolve(),
  };
}
