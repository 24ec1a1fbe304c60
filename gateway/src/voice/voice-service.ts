/**
 * The voice area's service: the engines' availability, the host microphone's session (REST
 * push-to-talk and continuous listening), the sessions of `/ws/voice` sockets, and the
 * status every view reads (`/voice/status`, `/status` `voice{}`).
 */
import type { Logger } from 'pino';
import { HearthError } from '../errors.ts';
import { stillStarting } from '../lifecycle/late.ts';
import type { Metrics } from '../observability/metrics.ts';
import { sessionIdFor } from '../memory/ports.ts';
import type { AudioOutput } from './audio/command-output.ts';
import type { AudioCapture } from './ports.ts';
import { createVoiceSession, type VoiceSession } from './voice-session.ts';
import type { VoiceRuntime } from './voice-runtime.ts';
import type { RunTurn, VoiceTurnResult, VoiceTurnSink } from './voice-turn.ts';

export interface VoiceStatus {
  runtime_available: boolean;
  continuous_available: boolean;
  continuous_listening: boolean;
  ptt_available: boolean;
  ptt_is_recording: boolean;
  wake_detector_active: boolean;
  is_handoff_active: boolean;
  stt_available: boolean;
  tts_available: boolean;
}

/** The push-to-talk control: unavailable (no STT), ready, or recording. */
export type PttControl = 'unavailable' | 'ready' | 'recording';

export interface VoiceServiceDeps {
  runtime: () => VoiceRuntime | undefined;
  /** Builds the engines when nothing has used voice yet (the area does that on first use). */
  prepare?: () => Promise<unknown>;
  /** The chat pipeline's turn, once built. */
  runTurn: RunTurn;
  turnsAvailable: () => boolean;
  output: AudioOutput;
  metrics: Metrics;
  logger: Logger;
}

/** The host microphone's conversation is one durable session. */
export const HOST_SESSION_ID = sessionIdFor('voice', 'host');

export function createVoiceService(deps: VoiceServiceDeps) {
  const counts = { recording: 0, listening: 0, wake: 0 };
  const onActivity = (change: { recording?: number; listening?: number; wake?: number }) => {
    counts.recording += change.recording ?? 0;
    counts.listening += change.listening ?? 0;
    counts.wake += change.wake ?? 0;
  };
  let host:
    | {
        session: VoiceSession;
        capture?: AudioCapture;
        pump?: Promise<void>;
        lastTurn?: Promise<VoiceTurnResult | undefined>;
      }
    | undefined;

  function runtime(): VoiceRuntime {
    const value = deps.runtime();
    if (!value) throw stillStarting('Voice');
    return value;
  }

  function openSession(
    sessionId: string,
    sink: VoiceTurnSink,
    onTurnError: (error: unknown) => void,
  ): VoiceSession {
    return createVoiceSession(
      {
        runtime: runtime(),
        runTurn: deps.runTurn,
        metrics: deps.metrics,
        logger: deps.logger,
        onActivity,
      },
      { sessionId, sink, onTurnError },
    );
  }

  function hostSink(): VoiceTurnSink {
    return {
      phase: () => undefined,
      transcript: () => undefined,
      responseChunk: () => undefined,
      responseDone: () => undefined,
      audio: async (audio) => {
        if (await deps.output.available()) await deps.output.play(audio);
      },
    };
  }

  function hostSession(): VoiceSession {
    host ??= {
      session: openSession(HOST_SESSION_ID, hostSink(), (error) =>
        deps.logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'host voice turn failed',
        ),
      ),
    };
    return host.session;
  }

  /** Starts the host microphone and pumps its audio into the host session. */
  async function startCapture(): Promise<void> {
    const capture = await runtime().engines.input.start();
    const state = host!;
    state.capture = capture;
    state.pump = (async () => {
      try {
        for await (const chunk of capture.chunks) await state.session.pushAudio(chunk);
      } catch (error) {
        deps.logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'host audio capture ended',
        );
      }
    })();
  }

  async function stopCapture(): Promise<void> {
    const state = host;
    if (!state?.capture) return;
    await state.capture.stop();
    await state.pump;
    state.capture = undefined;
    state.pump = undefined;
  }

  /**
   * Why the host microphone cannot be used for this (no microphone, no speech-to-text, no voice
   * activity detection or wake-word detector), or undefined when it can. Throws 503 while voice
   * or the agent is still starting.
   */
  function hostInputMissing(mode: 'ptt' | 'continuous' | 'wake'): string | undefined {
    const availability = runtime().availability;
    if (!deps.turnsAvailable()) throw stillStarting('The agent');
    const needed: [part: keyof typeof availability, what: string][] = [
      ['input', 'no host audio input'],
      ['stt', 'speech-to-text is unavailable'],
    ];
    if (mode !== 'ptt') needed.push(['vad', 'voice activity detection is unavailable']);
    if (mode === 'wake') needed.push(['wake', 'the wake-word detector is unavailable']);
    for (const [part, what] of needed) {
      const engine = availability[part];
      if (!engine.available) return `${what}: ${engine.detail}`;
    }
    return undefined;
  }

  return {
    openSession,

    /** Waits for the engines (built on first use): a caller outside the routes calls it first. */
    async ready(): Promise<void> {
      await deps.prepare?.();
    },

    status(): VoiceStatus {
      const current = deps.runtime();
      const stt = current?.availability.stt.available ?? false;
      const vad = current?.availability.vad.available ?? false;
      return {
        runtime_available: current !== undefined && deps.turnsAvailable(),
        continuous_available: stt && vad,
        continuous_listening: counts.listening > 0,
        ptt_available: stt,
        ptt_is_recording: counts.recording > 0,
        wake_detector_active: counts.wake > 0,
        // Hearth has no hand-off between voice devices: never active.
        is_handoff_active: false,
        stt_available: stt,
        tts_available: current?.availability.tts.available ?? false,
      };
    },

    pttControl(): PttControl {
      const status = this.status();
      return !status.ptt_available
        ? 'unavailable'
        : status.ptt_is_recording
          ? 'recording'
          : 'ready';
    },

    /**
     * Host push-to-talk: starts recording from the host microphone. Without one (or without
     * speech-to-text) nothing starts: `started: false` with the reason.
     */
    async pttStart(): Promise<{ started: boolean; reason?: string }> {
      const missing = hostInputMissing('ptt');
      if (missing !== undefined) return { started: false, reason: missing };
      const session = hostSession();
      if (session.recording) return { started: false, reason: 'push-to-talk is already recording' };
      const started = await session.pttStart();
      try {
        await startCapture();
      } catch (error) {
        await session.pttStop().catch(() => undefined);
        throw error;
      }
      return { started };
    },

    /** Host push-to-talk: stops recording, transcribes, runs the turn, speaks the reply. */
    async pttStop(): Promise<{ transcript: string; response: string; stopped: boolean }> {
      const session = host?.session;
      if (!session?.recording) return { transcript: '', response: '', stopped: false };
      await stopCapture();
      const result = await session.pttStop();
      if (!result) throw new HearthError('internal', 'the voice turn failed; see the log');
      return { transcript: result.transcript, response: result.response, stopped: true };
    },

    /**
     * Host continuous listening (after the wake word with `wake`). Without a microphone, speech-
     * to-text, voice activity detection (or the wake-word detector) nothing starts:
     * `started: false` with the reason.
     */
    async continuousStart(options: {
      wake: boolean;
    }): Promise<{ started: boolean; reason?: string }> {
      const missing = hostInputMissing(options.wake ? 'wake' : 'continuous');
      if (missing !== undefined) return { started: false, reason: missing };
      const session = hostSession();
      if (session.listening)
        return { started: false, reason: 'continuous listening is already on' };
      const started = await session.continuousStart(options.wake);
      try {
        await startCapture();
      } catch (error) {
        await session.continuousStop();
        throw error;
      }
      return { started };
    },

    async continuousStop(): Promise<{ stopped: boolean }> {
      const session = host?.session;
      if (!session?.listening) return { stopped: false };
      await stopCapture();
      return { stopped: await session.continuousStop() };
    },

    async close(): Promise<void> {
      await stopCapture().catch(() => undefined);
      host?.session.close();
      host = undefined;
    },
  };
}

export type VoiceService = ReturnType<typeof createVoiceService>;
