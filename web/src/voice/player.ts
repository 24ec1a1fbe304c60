import { pcm16ToFloat } from './pcm.ts';

export interface Player {
  /** Queues PCM16 speech at `sampleRate` to play after what is already queued. */
  enqueue(samples: Int16Array, sampleRate: number): void;
  /** Stops what is playing and drops the queue. */
  stop(): void;
  readonly playing: boolean;
}

/**
 * Plays the gateway's speech (`tts_audio` frames) gaplessly through Web Audio: each frame is an
 * AudioBuffer at its own rate (the context resamples), scheduled right after the previous one.
 * `onChange` is told when playback starts and when the queue runs dry; `onPlayed` counts the
 * samples that were scheduled (the page shows and exposes it).
 */
export function createPlayer(
  context: AudioContext,
  onChange: (playing: boolean) => void,
  onPlayed: (samples: number) => void,
): Player {
  const sources = new Set<AudioBufferSourceNode>();
  let until = 0;
  const player: Player = {
    get playing() {
      return sources.size > 0;
    },
    enqueue(samples, sampleRate) {
      if (samples.length === 0) return;
      const buffer = context.createBuffer(1, samples.length, sampleRate);
      buffer.copyToChannel(pcm16ToFloat(samples), 0);
      const source = context.createBufferSource();
      source.buffer = buffer;
      source.connect(context.destination);
      const startAt = Math.max(until, context.currentTime + 0.05);
      until = startAt + buffer.duration;
      const wasIdle = sources.size === 0;
      sources.add(source);
      source.onended = () => {
        sources.delete(source);
        if (sources.size === 0) onChange(false);
      };
      source.start(startAt);
      onPlayed(samples.length);
      if (wasIdle) onChange(true);
    },
    stop() {
      const playing = [...sources];
      sources.clear();
      until = 0;
      for (const source of playing) {
        source.onended = null;
        source.stop();
      }
      if (playing.length > 0) onChange(false);
    },
  };
  return player;
}
