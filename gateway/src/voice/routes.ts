import { z } from 'zod';
import { updateConfigFile } from '../config/write.ts';
import { defineRoute, type AnyRoute } from '../http/route.ts';
import type { AudioDevices } from './audio/devices.ts';
import {
  continuousBody,
  devicesSchema,
  voiceConfigSchema,
  voiceSettingsBody,
  voiceSettingsResponse,
  voiceStatusSchema,
} from './schemas.ts';
import type { VoiceService } from './voice-service.ts';
import type { VoiceConfig, VoiceRuntime } from './voice-runtime.ts';

export interface VoiceRouteDeps {
  service: VoiceService;
  config: VoiceConfig;
  configPath: string;
  runtime: () => VoiceRuntime | undefined;
  devices: () => Promise<AudioDevices>;
}

/** `{started}` of the spec, plus why nothing started (beyond the spec, additive). */
const startedResponse = z.object({ started: z.boolean(), reason: z.string().optional() });

/** The voice REST routes, relative to `/api/v1`. */
export function voiceRoutes(deps: VoiceRouteDeps): AnyRoute[] {
  const tags = ['voice'];
  return [
    defineRoute({
      method: 'get',
      path: '/voice/status',
      summary: 'The voice status: nine booleans, each true only when real',
      tags,
      response: voiceStatusSchema,
      handler: () => deps.service.status(),
    }),
    defineRoute({
      method: 'post',
      path: '/voice/ptt/start',
      summary:
        'Starts push-to-talk recording from the host microphone; without one or without STT, started is false and reason says why',
      tags,
      response: startedResponse,
      handler: () => deps.service.pttStart(),
    }),
    defineRoute({
      method: 'post',
      path: '/voice/ptt/stop',
      summary: 'Stops push-to-talk: transcribes the recording and answers it through the chat turn',
      tags,
      response: z.object({ transcript: z.string(), response: z.string(), stopped: z.boolean() }),
      handler: () => deps.service.pttStop(),
    }),
    defineRoute({
      method: 'post',
      path: '/voice/continuous/start',
      summary:
        'Starts continuous listening on the host microphone (VAD-segmented turns; wake: after the wake word); without a microphone or STT, started is false and reason says why',
      tags,
      body: continuousBody,
      response: startedResponse,
      handler: ({ body }) => deps.service.continuousStart({ wake: body?.wake === true }),
    }),
    defineRoute({
      method: 'post',
      path: '/voice/continuous/stop',
      summary: 'Stops continuous listening',
      tags,
      response: z.object({ stopped: z.boolean() }),
      handler: () => deps.service.continuousStop(),
    }),
    defineRoute({
      method: 'get',
      path: '/voice/devices',
      summary: 'The host sound devices ALSA lists (arecord -l, aplay -l); none in a container',
      tags,
      response: devicesSchema,
      handler: () => deps.devices(),
    }),
    defineRoute({
      method: 'get',
      path: '/voice/config',
      summary: 'The running [voice] values and the engine each stage uses',
      tags,
      response: voiceConfigSchema,
      handler: () => {
        const runtime = deps.runtime();
        return {
          ...deps.config,
          engines: runtime ? { ...runtime.availability } : null,
          ptt: deps.service.pttControl(),
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/settings/voice',
      summary: 'Persists stt, stt_model, stt_device to [voice]; they take effect after a restart',
      tags: ['settings', 'voice'],
      body: voiceSettingsBody,
      response: voiceSettingsResponse,
      handler: async ({ body }) => {
        const values = Object.fromEntries(
          Object.entries(body).filter(([, value]) => value !== undefined),
        ) as Record<string, string>;
        await updateConfigFile(deps.configPath, 'voice', values);
        return {
          ok: true as const,
          restart_required: true as const,
          updated_fields: Object.keys(values),
        };
      },
    }),
  ];
}
