import { z } from 'zod';

/** Providers whose credential is a single `<provider>_api_key` field under `[models]`. */
export const KEY_PROVIDERS = [
  'anthropic',
  'openai',
  'google',
  'mistral',
  'xai',
  'deepseek',
  'cohere',
  'groq',
  'together',
  'fireworks',
  'perplexity',
  'openrouter',
  'moonshot',
  'zhipu',
  'qwen',
] as const;

const apiKeyFields = Object.fromEntries(
  KEY_PROVIDERS.map((name) => [`${name}_api_key`, z.string().default('')]),
) as Record<`${(typeof KEY_PROVIDERS)[number]}_api_key`, z.ZodDefault<z.ZodString>>;

const port = z.number().int().min(0).max(65_535);

export const gatewaySection = z.strictObject({
  host: z.string().min(1).default('127.0.0.1'),
  port: port.default(7432),
  api_key: z.string().default(''),
  allow_unauthenticated: z.boolean().default(false),
  cors_origins: z.array(z.url()).default([]),
  allowed_hosts: z
    .array(
      z
        .string()
        .max(253)
        .regex(/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_])?)$/, {
          message: 'must be a host name or IP address, without scheme or port',
        }),
    )
    .default([]),
  body_limit_bytes: z.number().int().positive().default(1_048_576),
  shutdown_timeout_ms: z.number().int().positive().default(5_000),
  session_idle_timeout_minutes: z.number().positive().default(30),
  log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export const modelsSection = z.strictObject({
  primary: z.string().default('ollama/llama3.2'),
  fallback: z.string().default(''),
  fast: z.string().default(''),
  local: z.string().default('ollama/llama3.2'),
  ...apiKeyFields,
  azure_api_key: z.string().default(''),
  azure_endpoint: z.string().default(''),
  bedrock_region: z.string().default(''),
  ollama_base_url: z.url().default('http://127.0.0.1:11434'),
  openai_compatible_base_url: z.string().default(''),
  openai_compatible_api_key: z.string().default(''),
  web_search_enabled: z.boolean().default(false),
  pull_local_model: z.boolean().default(false),
});

export const memorySection = z.strictObject({
  short_term_ttl: z.number().int().positive().default(3600),
  /** Days a long-term memory is kept after it was created; 0 keeps memories forever. */
  long_term_days: z.number().int().min(0).default(90),
  cache_url: z.string().default(''),
  vector_store_url: z.string().default(''),
  db_path: z.string().default(''),
});

export const securitySection = z.strictObject({
  require_shell_approval: z.boolean().default(true),
  security: z.enum(['deny', 'allowlist', 'full']).default('allowlist'),
  ask: z.enum(['off', 'on-miss', 'always']).default('on-miss'),
  executor: z.enum(['local', 'sandbox']).default('local'),
  sandbox_url: z.union([z.url(), z.literal('')]).default(''),
  sandbox_token: z.string().default(''),
  /**
   * The privacy audit exempts the configured local runtime and vector store when they resolve
   * to loopback; with this, also when they resolve only to private addresses (the own stack).
   */
  trust_private_services: z.boolean().default(false),
  terminal: z.enum(['auto', 'on', 'off']).default('auto'),
});

export const voiceSection = z.strictObject({
  stt: z.string().default('whisper'),
  stt_model: z.string().default('base'),
  stt_device: z.string().default('cpu'),
  tts_engine: z.string().default('auto'),
  wake_word: z.string().default('hey hearth'),
  wake_word_threshold: z.number().min(0).max(1).default(0.5),
});

/** The whole `config.toml`. Every section and key has a default: an empty file is valid. */
export const configSchema = z.strictObject({
  gateway: gatewaySection.default(gatewaySection.parse({})),
  models: modelsSection.default(modelsSection.parse({})),
  memory: memorySection.default(memorySection.parse({})),
  security: securitySection.default(securitySection.parse({})),
  voice: voiceSection.default(voiceSection.parse({})),
});

export type HearthConfig = z.infer<typeof configSchema>;
export type GatewayConfig = HearthConfig['gateway'];

/** Keys whose values are secrets: resolved through ENV:/op:// and never printed or returned. */
export function isSecretKey(key: string): boolean {
  return key === 'api_key' || key.endsWith('_api_key') || key.endsWith('_token');
}

export function defaultConfig(): HearthConfig {
  return configSchema.parse({});
}
