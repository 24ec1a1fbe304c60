import { z } from 'zod';
import { KEY_PROVIDERS } from '../config/schema.ts';
import { isSecretReference } from '../config/secrets.ts';
import { defineRoute, type AnyRoute } from '../http/route.ts';
import { noControlChars } from '../http/validation.ts';
import { PROVIDER_NAMES, THINKING_LEVELS } from '../providers/ports.ts';
import type { SettingsService } from './settings-service.ts';

/**
 * A secret over the API is a literal only: `ENV:` and `op://` references are resolved with the
 * gateway's own environment and password-manager session, so they belong in config.toml, which
 * only the owner edits — over the API they would let a client read any variable or vault item.
 */
const secret = z
  .string()
  .max(4096)
  .check(noControlChars)
  .refine(
    (value) => !isSecretReference(value),
    'ENV: and op:// references are accepted only in config.toml; send the literal value',
  );
/** An http(s) URL (control characters refused before the URL parser could strip them). */
const httpUrl = z
  .string()
  .max(2048)
  .check(noControlChars)
  .pipe(z.url({ protocol: /^https?$/, error: 'an http:// or https:// URL' }));
const httpUrlOrEmpty = z
  .string()
  .max(2048)
  .check(noControlChars)
  .pipe(
    z.union([z.url({ protocol: /^https?$/ }), z.literal('')], 'an http:// or https:// URL, or ""'),
  );
/** A provider name, model id or thinking level: stored in the runtime settings. */
const settingName = z.string().max(200).check(noControlChars);
const llmFields = z.strictObject({
  ...(Object.fromEntries(
    KEY_PROVIDERS.map((name) => [`${name}_api_key`, secret.optional()]),
  ) as Record<`${(typeof KEY_PROVIDERS)[number]}_api_key`, z.ZodOptional<typeof secret>>),
  azure_api_key: secret.optional(),
  azure_endpoint: httpUrlOrEmpty.optional(),
  bedrock_region: z
    .string()
    .check(noControlChars)
    .regex(/^([a-z]{2}(-[a-z]+)+-\d)?$/, 'an AWS region such as eu-west-1')
    .optional(),
  ollama_base_url: httpUrl.optional(),
  openai_compatible_base_url: httpUrlOrEmpty.optional(),
  openai_compatible_api_key: secret.optional(),
  web_search_enabled: z.boolean().optional(),
});

const runtimeSettings = z.object({
  provider: z.enum(PROVIDER_NAMES).nullable(),
  model: z.string().nullable(),
  thinking: z.enum(THINKING_LEVELS).nullable(),
  privacy_mode: z.boolean(),
});

export function settingsRoutes(settings: SettingsService): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/settings/llm',
      summary: 'Set provider credentials and endpoints; persisted to [models], applied live',
      tags: ['settings'],
      body: llmFields.refine(
        (body) => Object.keys(body).length > 0,
        'at least one field is required',
      ),
      response: z.object({ applied: z.literal(true), updated_fields: z.array(z.string()) }),
      handler: async ({ body }) => {
        const values = Object.fromEntries(
          Object.entries(body).filter(([, v]) => v !== undefined),
        ) as Record<string, string | boolean>;
        return { applied: true as const, updated_fields: await settings.applyLlm(values) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/settings/model',
      summary:
        'Force a provider (or null for automatic), pin a model, set thinking, toggle privacy mode (runtime only)',
      tags: ['settings'],
      body: z.strictObject({
        provider: settingName.nullable().optional(),
        model: settingName.min(1).nullable().optional(),
        thinking: settingName.nullable().optional(),
        privacy_mode: z.boolean().optional(),
      }),
      response: z.object({ applied: z.literal(true), settings: runtimeSettings }),
      handler: ({ body }) => ({ applied: true as const, settings: settings.applyModel(body) }),
    }),
    defineRoute({
      method: 'post',
      path: '/settings/privacy',
      summary: 'Form B: toggle privacy mode (every LLM request goes to the local runtime)',
      tags: ['settings'],
      body: z.strictObject({ enabled: z.boolean() }),
      response: z.object({
        applied: z.literal(true),
        privacy_mode: z.boolean(),
        settings: runtimeSettings,
      }),
      handler: ({ body }) => {
        const runtime = settings.applyModel({ privacy_mode: body.enabled });
        return { applied: true as const, privacy_mode: runtime.privacy_mode, settings: runtime };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/settings',
      summary: 'Every non-secret setting (secrets only as <key>_set booleans)',
      tags: ['settings'],
      response: z.record(z.string(), z.record(z.string(), z.unknown())),
      handler: () => settings.publicSettings(),
    }),
  ];
}
