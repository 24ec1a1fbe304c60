import { z } from 'zod';
import { noControlChars } from '../http/validation.ts';

export const voiceStatusSchema = z.object({
  runtime_available: z.boolean(),
  continuous_available: z.boolean(),
  continuous_listening: z.boolean(),
  ptt_available: z.boolean(),
  ptt_is_recording: z.boolean(),
  wake_detector_active: z.boolean(),
  is_handoff_active: z.boolean(),
  stt_available: z.boolean(),
  tts_available: z.boolean(),
});

const device = z.object({ name: z.string(), index: z.number().int() });
export const devicesSchema = z.object({
  input: z.array(device),
  output: z.array(device),
  active: z.object({ input_device: z.string(), output_device: z.string() }),
});

const engine = z.object({ engine: z.string(), available: z.boolean(), detail: z.string() });
export const voiceConfigSchema = z.object({
  stt: z.string(),
  stt_model: z.string(),
  stt_device: z.string(),
  tts_engine: z.string(),
  wake_word: z.string(),
  wake_word_threshold: z.number(),
  /** The openWakeWord classifier (a name in the model cache or a path); empty: none. */
  wake_word_model: z.string(),
  /** Which engine each stage runs, and why when it cannot. */
  engines: z
    .object({ input: engine, vad: engine, stt: engine, tts: engine, wake: engine })
    .nullable(),
  /** The push-to-talk control: unavailable (no STT), ready or recording. */
  ptt: z.enum(['unavailable', 'ready', 'recording']),
});

/** `[voice] stt_model`: a Whisper size or an `org/name` model id inside the cache. */
const modelName = z
  .string()
  .max(120)
  .check(noControlChars)
  .regex(/^[\w.-]+(\/[\w.-]+)?$/, 'a Whisper size (tiny, base, small…) or an org/name model id')
  .refine((value) => !value.split('/').some((part) => /^\.+$/.test(part)), 'must not name . or ..');

export const voiceSettingsBody = z
  .strictObject({
    stt: z.enum(['whisper', 'none']).optional(),
    stt_model: modelName.optional(),
    stt_device: z
      .string()
      .max(20)
      .regex(/^[a-z][a-z0-9-]*$/, 'a device name such as cpu or cuda')
      .optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'at least one of stt, stt_model, stt_device');

export const voiceSettingsResponse = z.object({
  ok: z.literal(true),
  restart_required: z.literal(true),
  updated_fields: z.array(z.string()),
});

export const continuousBody = z.strictObject({ wake: z.boolean().optional() }).optional();
