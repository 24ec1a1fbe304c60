import type { Logger } from 'pino';
import type { HearthConfig } from '../config/schema.ts';
import { isSecretKey } from '../config/schema.ts';
import { redactTable } from '../config/secret-walk.ts';
import { isSecretReference } from '../config/secrets.ts';
import { updateConfigFile, type ConfigValue } from '../config/write.ts';
import { HearthError } from '../errors.ts';
import {
  resolveModel,
  resolveProviderName,
  type ProviderName,
  type LlmRouter,
  isThinkingLevel,
  type ThinkingLevel,
} from '../providers/ports.ts';

export interface ModelSettingsChange {
  provider?: string | null;
  model?: string | null;
  thinking?: string | null;
  privacy_mode?: boolean;
}

/** `[models]` endpoints and the key the gateway sends to each. */
const ENDPOINT_KEYS = [
  ['openai_compatible_base_url', 'openai_compatible_api_key'],
  ['azure_endpoint', 'azure_api_key'],
] as const;

export interface SettingsServiceDeps {
  config: HearthConfig;
  configPath: string;
  router: LlmRouter;
  logger: Logger;
}

/**
 * The runtime-only model settings as the API shows them (reset on restart); a type alias, so
 * it is a JSON object where GET /settings needs one.
 */
export type RuntimeModelView = {
  provider: ProviderName | null;
  model: string | null;
  thinking: ThinkingLevel | null;
  privacy_mode: boolean;
};

/** Reads and applies settings: `[models]` fields persisted to config.toml, the rest runtime-only. */
export interface SettingsService {
  /** POST /settings/llm: persists and applies literal values; the keys written. */
  applyLlm(values: Record<string, ConfigValue>): Promise<string[]>;
  /** POST /settings/model: at least one field; unknown provider or thinking → 422. */
  applyModel(change: ModelSettingsChange): RuntimeModelView;
  runtime(): RuntimeModelView;
  /** GET /settings: every non-secret setting; secrets appear only as `<key>_set: true|false`. */
  publicSettings(): { runtime: RuntimeModelView };
}

/**
 * Applies settings: `[models]` fields are persisted to config.toml (atomically, comments kept)
 * and applied to the live router without a restart; model routing, thinking and privacy mode
 * are runtime-only and reset on restart. Secret values are never returned.
 */
export function createSettingsService(deps: SettingsServiceDeps): SettingsService {
  let writes = Promise.resolve();

  function runtime(): RuntimeModelView {
    const s = deps.router.settings;
    return {
      provider: s.provider,
      model: s.model,
      thinking: s.thinking,
      privacy_mode: s.privacyMode,
    };
  }

  return {
    /**
     * POST /settings/llm: persist and apply literal values. A secret reference (ENV:/op://) is
     * refused: over the API it would read the gateway's environment or vault. A new endpoint
     * must come with its key in the same request, so a key resolved from config.toml is never
     * sent to a host set over the API. Nothing is written when a field is refused.
     */
    async applyLlm(values: Record<string, ConfigValue>): Promise<string[]> {
      const fields = Object.keys(values);
      for (const [key, value] of Object.entries(values)) {
        if (isSecretKey(key) && typeof value === 'string' && isSecretReference(value)) {
          throw new HearthError(
            'validation',
            `body.${key}: ENV: and op:// references are accepted only in config.toml; send the literal value`,
          );
        }
      }
      for (const [endpoint, key] of ENDPOINT_KEYS) {
        const next = values[endpoint];
        const changed =
          typeof next === 'string' && next !== '' && next !== deps.config.models[endpoint];
        if (changed && values[key] === undefined && deps.config.models[key] !== '') {
          throw new HearthError(
            'validation',
            `body.${endpoint}: a new endpoint needs ${key} in the same request (send "" for none); ` +
              'the configured key is never sent to an endpoint set over the API',
          );
        }
      }
      const write = writes.then(() => updateConfigFile(deps.configPath, 'models', values));
      writes = write.catch(() => undefined);
      await write;
      Object.assign(deps.config.models, values);
      deps.router.invalidate();
      deps.logger.info({ fields }, 'LLM settings updated');
      return fields;
    },

    /** POST /settings/model: at least one field; unknown provider or thinking → 422. */
    applyModel(change: ModelSettingsChange) {
      if (Object.keys(change).length === 0) {
        throw new HearthError(
          'validation',
          'body: at least one of provider, model, thinking, privacy_mode is required',
        );
      }
      let provider: ProviderName | null | undefined;
      if (change.provider !== undefined) {
        if (change.provider === null || change.provider.toLowerCase() === 'auto') provider = null;
        else {
          provider = resolveProviderName(change.provider);
          if (!provider)
            throw new HearthError(
              'validation',
              `body.provider: unknown provider '${change.provider}'`,
            );
        }
      }
      let thinking: ThinkingLevel | null | undefined;
      if (change.thinking !== undefined) {
        if (change.thinking !== null && !isThinkingLevel(change.thinking)) {
          throw new HearthError(
            'validation',
            `body.thinking: must be one of off, low, medium, high, xhigh, max or null`,
          );
        }
        thinking = change.thinking;
      }
      if (change.model !== undefined && change.model !== null && !resolveModel(change.model)) {
        throw new HearthError(
          'validation',
          `body.model: no provider for model id '${change.model}'`,
        );
      }
      const settings = deps.router.settings;
      if (provider !== undefined) settings.provider = provider;
      if (thinking !== undefined) settings.thinking = thinking;
      if (change.privacy_mode !== undefined) settings.privacyMode = change.privacy_mode;
      if (change.model !== undefined) {
        settings.model = change.model;
        if (change.model !== null && change.provider === undefined) settings.provider = null;
      }
      deps.logger.info({ settings: runtime() }, 'model settings changed');
      return runtime();
    },

    runtime,

    /** GET /settings: every non-secret setting; secrets appear only as `<key>_set: true|false`. */
    publicSettings() {
      const sections: Record<string, Record<string, unknown>> = {};
      for (const [name, section] of Object.entries(deps.config) as [
        string,
        Record<string, unknown>,
      ][]) {
        sections[name] = redactTable(section, (key, value) => [
          `${key}_set`,
          value !== '',
        ]) as Record<string, unknown>;
      }
      return { ...sections, runtime: runtime() };
    },
  };
}
