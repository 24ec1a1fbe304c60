import type { Logger } from 'pino';
import type { HearthConfig } from '../config/schema.ts';
import { isSecretKey } from '../config/schema.ts';
import { resolveSecret, type SecretResolverDeps } from '../config/secrets.ts';
import { updateConfigFile, type ConfigValue } from '../config/write.ts';
import { HearthError } from '../errors.ts';
import { resolveModel, resolveProviderName, type ProviderName } from '../providers/catalog.ts';
import type { LlmRouter } from '../providers/router.ts';
import { isThinkingLevel, type ThinkingLevel } from '../providers/thinking.ts';

export interface ModelSettingsChange {
  provider?: string | null;
  model?: string | null;
  thinking?: string | null;
  privacy_mode?: boolean;
}

export interface SettingsServiceDeps {
  config: HearthConfig;
  configPath: string;
  secrets: SecretResolverDeps;
  router: LlmRouter;
  logger: Logger;
}

/**
 * Applies settings: `[models]` fields are persisted to config.toml (atomically, comments kept)
 * and applied to the live router without a restart; model routing, thinking and privacy mode
 * are runtime-only and reset on restart. Secret values are never returned.
 */
export function createSettingsService(deps: SettingsServiceDeps) {
  let writes = Promise.resolve();

  function runtime() {
    const s = deps.router.settings;
    return {
      provider: s.provider,
      model: s.model,
      thinking: s.thinking,
      privacy_mode: s.privacyMode,
    };
  }

  return {
    /** POST /settings/llm: persist raw values (ENV:/op:// kept as written), apply resolved ones. */
    async applyLlm(values: Record<string, ConfigValue>): Promise<string[]> {
      const fields = Object.keys(values);
      const resolved: Record<string, ConfigValue> = {};
      for (const [key, value] of Object.entries(values)) {
        resolved[key] =
          isSecretKey(key) && typeof value === 'string' && value !== ''
            ? await resolveSecret(`models.${key}`, value, deps.secrets)
            : value;
      }
      const write = writes.then(() => updateConfigFile(deps.configPath, 'models', values));
      writes = write.catch(() => undefined);
      await write;
      Object.assign(deps.config.models, resolved);
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
        const out: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(section)) {
          if (isSecretKey(key)) out[`${key}_set`] = value !== '';
          else out[key] = value;
        }
        sections[name] = out;
      }
      return { ...sections, runtime: runtime() };
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
