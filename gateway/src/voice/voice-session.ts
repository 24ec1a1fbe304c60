/**
 * One voice conversation's state machine (a `/ws/voice` socket, or the host's microphone):
 *
 *   idle --ptt start--> recording --ptt stop--> (transcribing → responding → speaking) --> idle
 *   not listening --continuous start--> listening --continuous stop--> not listening
 *
 * Audio arrives as 16 kHz mono PCM16; in `recording` it is kept (bounded), in `listening` it
 * goes through the VAD (and the wake detector in wake mode) and each utterance is a turn.
 * Turns run one at a time; everything the user sees or hears goes to the sink.
 */
import type { Logger } from 'pino';
import { HearthError, unavailable } from '../errors.ts';
import type { Metrics } from '../observability/metrics.ts';
import { concatPcm16 } from './audio/pcm.ts';
import { INPUT_SAMPLE_RATE } from './ports.ts';
import { createUtteranceGate } from './utterance-gate.ts';
import type { VoiceRuntime } from './voice-runtime.ts';
import {
  runVoiceTurn,
  type RunTurn,
  type VoicePhase,
  type VoiceTurnResult,
  type VoiceTurnSink,
} from './voice-turn.ts';

/** Longest push-to-talk recording, in seconds; more audio is refused. */
export const MAX_RECORDING_SECONDS = 60;

export interface VoiceSessionDeps {
  runtime: VoiceRuntime;
  runTurn: RunTurn;
  metrics: Metrics;
  logger: Logger;
  /** Told when this session starts or stops recording / listening (the service's counts). */
  onActivity: (change: { recording?: number; listening?: number; wake?: number }) => void;
}

export function createVoiceSession(
  deps: VoiceSessionDeps,
  options: { sessionId: string; sink: VoiceTurnSink; onTurnError: (error: unknown) => void },
) {
  let phase: VoicePhase = 'idle';
  let recording: Int16Array[] = [];
  let recorded = 0;
  let listening: { gate: ReturnType<typeof createUtteranceGate>; wake: boolean } | undefined;
  let turns: Promise<unknown> = Promise.resolve();
  let busy = 0;
  const abort = new AbortController();
  const sink: VoiceTurnSink = {
    ...options.sink,
    phase: (next) => {
      phase = next;
      return options.sink.phase(next);
    },
  };

  const turnDeps = () => ({
    stt: deps.runtime.engines.stt,
    tts: deps.runtime.engines.tts,
    speak: deps.runtime.availability.tts.available,
    runTurn: deps.runTurn,
    metrics: deps.metrics,
    logger: deps.logger,
  });

  function requireStt(): void {
    const stt = deps.runtime.availability.stt;
    if (!stt.available) throw unavailable(`speech-to-text is unavailable: ${stt.detail}`);
  }

  /** Queues a turn after the running ones; its failure is reported, not thrown. */
  function queueTurn(audio: Int16Array): Promise<VoiceTurnResult | undefined> {
    busy += 1;
    const run = turns.then(async () => {
      try {
        return await runVoiceTurn(
          turnDeps(),
          { audio, sessionId: options.sessionId, signal: abort.signal },
          sink,
        );
      } catch (error) {
        if (!abort.signal.aborted) options.onTurnError(error);
        return undefined;
      } finally {
        busy -= 1;
        if (busy === 0 && !abort.signal.aborted) await sink.phase(listening ? 'listening' : 'idle');
      }
    });
    turns = run;
    return run;
  }

  return {
    get phase() {
      return phase;
    },
    get recording() {
      return phase === 'recording';
    },
    get listening() {
      return listening !== undefined;
    },
    get wakeActive() {
      return listening?.wake === true;
    },

    async pttStart(): Promise<boolean> {
      requireStt();
      if (phase === 'recording') return false;
      if (listening)
        throw new HearthError(
          'conflict',
          'continuous listening is on; stop it before push-to-talk',
        );
      if (busy > 0) throw new HearthError('conflict', 'the previous turn is still running');
      recording = [];
      recorded = 0;
      deps.metrics.voicePttSessionsTotal.inc();
      deps.onActivity({ recording: 1 });
      await sink.phase('recording');
      return true;
    },

    /** Audio from the client or microphone, 16 kHz mono PCM16. */
    async pushAudio(samples: Int16Array): Promise<void> {
      if (phase === 'recording') {
        if (recorded + samples.length > MAX_RECORDING_SECONDS * INPUT_SAMPLE_RATE)
          throw new HearthError(
            'payload_too_large',
            `a push-to-talk recording is limited to ${MAX_RECORDING_SECONDS} s; send ptt_stop`,
          );
        recording.push(samples);
        recorded += samples.length;
        return;
      }
      if (listening) return listening.gate.push(samples);
      throw new HearthError(
        'conflict',
        'audio outside a recording: send ptt_start (or continuous_start) first',
      );
    },

    /** Ends the recording and runs its turn; undefined when nothing was recording. */
    async pttStop(): Promise<VoiceTurnResult | undefined> {
      if (phase !== 'recording') return undefined;
      const audio = concatPcm16(recording);
      recording = [];
      deps.onActivity({ recording: -1 });
      await sink.phase('transcribing');
      return queueTurn(audio);
    },

    async continuousStart(wake: boolean): Promise<boolean> {
      requireStt();
      if (listening) return false;
      if (phase === 'recording')
        throw new HearthError('conflict', 'push-to-talk is recording; stop it first');
      const availability = deps.runtime.availability;
      if (wake && !availability.wake.available)
        throw unavailable(`the wake-word detector is unavailable: ${availability.wake.detail}`);
      const gate = createUtteranceGate({
        vad: await deps.runtime.engines.vad.stream(),
        wake: wake ? deps.runtime.engines.wake : undefined,
        metrics: deps.metrics,
        signal: abort.signal,
        onWake: () => sink.phase('listening'),
        onUtterance: async (audio) => {
          void queueTurn(audio);
          await Promise.resolve();
        },
      });
      listening = { gate, wake };
      deps.onActivity({ listening: 1, wake: wake ? 1 : 0 });
      await sink.phase('listening');
      return true;
    },

    async continuousStop(): Promise<boolean> {
      if (!listening) return false;
      const { gate, wake } = listening;
      await gate.flush();
      listening = undefined;
      deps.onActivity({ listening: -1, wake: wake ? -1 : 0 });
      if (busy === 0) await sink.phase('idle');
      return true;
    },

    /** Stops everything (the socket closed); a running turn is aborted. */
    close(): void {
      abort.abort();
      if (phase === 'recording') deps.onActivity({ recording: -1 });
      if (listening) deps.onActivity({ listening: -1, wake: listening.wake ? -1 : 0 });
      listening = undefined;
      phase = 'idle';
    },
  };
}

export type VoiceSession = ReturnType<typeof createVoiceSession>;
