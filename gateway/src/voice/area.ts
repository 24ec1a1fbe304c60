import type { Logger } from 'pino';
import type { Area } from '../lifecycle/area.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { FrameSenderLimits } from '../ws/send.ts';
import { createAplayOutput, type AudioOutput } from './audio/command-output.ts';
import { listAudioDevices, type AudioDevices } from './audio/devices.ts';
import { voiceRoutes } from './routes.ts';
import { createVoiceService, type VoiceService } from './voice-service.ts';
import type { VoiceConfig, VoiceEngineOverrides, VoiceRuntime } from './voice-runtime.ts';
import { VOICE_SOCKET_MAX_PAYLOAD, voiceSocket } from './voice-socket.ts';
import type { RunTurn } from './voice-turn.ts';
import { join } from 'node:path';
import { defineArea } from '../lifecycle/install.ts';
import { onFirstUse, routesAfter, socketAfter } from '../lifecycle/first-use.ts';

export interface VoiceAreaDeps {
  config: VoiceConfig;
  configPath: string;
  /** `{data_dir}/models`: Whisper and Piper files are read from here only. */
  modelDir: string;
  /** The chat turn service (agent pipeline `runTurn`); 503 until the agent has started. */
  runTurn: RunTurn;
  turnsAvailable: () => boolean;
  /** Engines to use instead of the configured ones (tests inject an STT double). */
  engines?: VoiceEngineOverrides;
  output?: AudioOutput;
  devices?: () => Promise<AudioDevices>;
  socketFrameLimits?: Partial<FrameSenderLimits>;
  metrics: Metrics;
  logger: Logger;
}

export interface VoiceArea extends Area {
  readonly service: VoiceService;
  /** `/status` voice{}. */
  readonly summary: () => {
    stt_available: boolean;
    tts_available: boolean;
    wake_word_active: boolean;
  };
}

/**
 * Voice (`/voice/*`, `/settings/voice`, `/ws/voice`): push-to-talk, continuous listening and
 * a wake word, with local STT and TTS. Before the start-up phase the routes answer 503 "Voice is
 * starting" and the status booleans are false. The engines (voice-runtime.ts: its modules and
 * the probes of espeak-ng, the microphone, the model files) are chosen on first use: the first
 * voice request or socket, `/api/v1/status`, or `service.ready()`; a gateway nobody talks to
 * loads none of it.
 */
export function voiceArea(deps: VoiceAreaDeps): VoiceArea {
  const logger = deps.logger.child({ area: 'voice' });
  let started = false;
  const engines = onFirstUse<VoiceRuntime>(async () => {
    const { buildVoiceRuntime } = await import('./voice-runtime.ts');
    return buildVoiceRuntime({
      config: deps.config,
      modelDir: deps.modelDir,
      overrides: deps.engines,
      logger,
    });
  });
  /** After start-up: the engines, built now if nothing has used them yet. */
  const prepare = async (): Promise<void> => {
    if (started) await engines.get();
  };
  const runtime = engines.peek;
  const service = createVoiceService({
    runtime,
    prepare,
    runTurn: deps.runTurn,
    turnsAvailable: deps.turnsAvailable,
    output: deps.output ?? createAplayOutput(),
    metrics: deps.metrics,
    logger,
  });
  return {
    name: 'voice',
    service,
    routes: routesAfter(
      prepare,
      voiceRoutes({
        service,
        config: deps.config,
        configPath: deps.configPath,
        runtime,
        devices: deps.devices ?? (() => listAudioDevices()),
      }),
    ),
    sockets: [
      {
        path: '/ws/voice',
        handler: socketAfter(
          prepare,
          voiceSocket({
            service,
            metrics: deps.metrics,
            logger,
            frameLimits: deps.socketFrameLimits,
          }),
        ),
        options: { maxPayload: VOICE_SOCKET_MAX_PAYLOAD },
      },
    ],
    start() {
      started = true;
      return Promise.resolve();
    },
    settle: prepare,
    status: (): Record<string, string> => {
      const runtime = engines.peek();
      return runtime
        ? {
            voice_stt: runtime.availability.stt.available
              ? runtime.availability.stt.engine
              : 'none',
            voice_tts: runtime.availability.tts.available
              ? runtime.availability.tts.engine
              : 'none',
            voice_vad: runtime.availability.vad.engine,
            voice_wake: runtime.availability.wake.available
              ? runtime.availability.wake.engine
              : 'none',
            voice_input: runtime.availability.input.available
              ? runtime.availability.input.engine
              : 'none',
          }
        : {};
    },
    summary: () => {
      const status = service.status();
      return {
        stt_available: status.stt_available,
        tts_available: status.tts_available,
        wake_word_active: status.wake_detector_active,
      };
    },
    async close() {
      await service.close();
      await engines.peek()?.close();
    },
  };
}

/** The voice area's options. */
export interface VoiceOptions {
  /** Voice engines used instead of the configured ones (tests inject an STT double). */
  engines?: VoiceEngineOverrides;
}

export const voice = defineArea(
  'voice',
  (
    kernel,
    needs: { agent: { pipeline: () => { runTurn: RunTurn }; available: () => boolean } },
    options: VoiceOptions | undefined,
  ) =>
    voiceArea({
      config: kernel.config.voice,
      configPath: kernel.paths.configPath,
      modelDir: join(kernel.paths.home, 'models'),
      runTurn: (input) => needs.agent.pipeline().runTurn(input),
      turnsAvailable: needs.agent.available,
      engines: options?.engines,
      socketFrameLimits: kernel.frameLimits,
      metrics: kernel.metrics,
      logger: kernel.logger,
    }),
);
