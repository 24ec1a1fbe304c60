import { configSchema, isSecretKey } from '../../config/schema.ts';

/**
 * The predecessor's `config.toml` keys (its `config.py` dataclasses) and Hearth's key for each,
 * or why there is none. Keys not listed here are reported as unknown.
 */
const MAPPED: Readonly<Record<string, string>> = {
  'models.primary': 'models.primary',
  'models.fallback': 'models.fallback',
  'models.fast': 'models.fast',
  'models.local': 'models.local',
  'models.anthropic_api_key': 'models.anthropic_api_key',
  'models.gemini_api_key': 'models.google_api_key',
  'models.deepseek_api_key': 'models.deepseek_api_key',
  'models.openai_api_key': 'models.openai_api_key',
  'models.mistral_api_key': 'models.mistral_api_key',
  'models.xai_api_key': 'models.xai_api_key',
  'models.cohere_api_key': 'models.cohere_api_key',
  'models.moonshot_api_key': 'models.moonshot_api_key',
  'models.zhipuai_api_key': 'models.zhipu_api_key',
  'models.dashscope_api_key': 'models.qwen_api_key',
  'models.ollama_base_url': 'models.ollama_base_url',
  'memory.short_term_ttl': 'memory.short_term_ttl',
  'memory.long_term_days': 'memory.long_term_days',
  'memory.redis_url': 'memory.cache_url',
  'memory.qdrant_url': 'memory.vector_store_url',
  'voice.stt': 'voice.stt',
  'voice.stt_model': 'voice.stt_model',
  'voice.stt_device': 'voice.stt_device',
  'voice.tts_engine': 'voice.tts_engine',
  'gateway.port': 'gateway.port',
  'gateway.bind': 'gateway.host',
  'gateway.api_key': 'gateway.api_key',
};

/** Keys Hearth deliberately does not take over, and why. */
const NOT_TAKEN: Readonly<Record<string, string>> = {
  'memory.sqlite_path': 'its rows are imported into Hearth’s long-term store instead',
};

export type ConfigValue = string | number | boolean | string[];

export interface ConfigMapping {
  /** Predecessor key → Hearth key, with the value (secrets shown as `(secret)` in reports). */
  mapped: { from: string; to: string; value: ConfigValue; secret: boolean }[];
  /** Keys with a Hearth counterpart whose value Hearth does not accept. */
  invalid: { from: string; to: string; reason: string }[];
  /** Keys taken on purpose by another route, with the reason. */
  handled: { from: string; reason: string }[];
  /** Keys Hearth has no counterpart for (reported, not copied). */
  unknown: string[];
}

function isConfigValue(value: unknown): value is ConfigValue {
  return (
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    (Array.isArray(value) && value.every((item) => typeof item === 'string'))
  );
}

/** Flattens `{a: {b: 1, c: {d: 2}}}` to `a.b`, `a.c.d`. */
function flatten(table: Record<string, unknown>, prefix = ''): [string, unknown][] {
  return Object.entries(table).flatMap(([key, value]) =>
    value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)
      ? flatten(value as Record<string, unknown>, `${prefix}${key}.`)
      : [[`${prefix}${key}`, value] as [string, unknown]],
  );
}

/** Maps a parsed predecessor `config.toml` onto Hearth's keys, checking each value. */
export function mapConfig(raw: Record<string, unknown>): ConfigMapping {
  const mapping: ConfigMapping = { mapped: [], invalid: [], handled: [], unknown: [] };
  for (const [from, value] of flatten(raw)) {
    const to = MAPPED[from];
    const notTaken = NOT_TAKEN[from];
    if (notTaken) {
      mapping.handled.push({ from, reason: notTaken });
      continue;
    }
    if (!to) {
      mapping.unknown.push(from);
      continue;
    }
    const [section = '', key = ''] = to.split('.');
    const checked = configSchema.safeParse({ [section]: { [key]: value } });
    if (!checked.success || !isConfigValue(value)) {
      const reason = checked.success
        ? 'not a string, number, boolean or list of strings'
        : (checked.error.issues[0]?.message ?? 'invalid');
      mapping.invalid.push({ from, to, reason });
      continue;
    }
    mapping.mapped.push({ from, to, value, secret: isSecretKey(key) });
  }
  return mapping;
}
