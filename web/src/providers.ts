/**
 * The 19 providers as the set-up and Settings pages offer them: the `[models]` fields
 * `POST /settings/llm` takes for each, and the model used when none is typed. A gateway test
 * (web-client/provider-list.test.ts) keeps this list equal to the gateway's catalogue.
 */
export interface ProviderChoice {
  name: string;
  fields: readonly string[];
  defaultModel: string;
}

const keyed = (name: string, defaultModel: string): ProviderChoice => ({
  name,
  fields: [`${name}_api_key`],
  defaultModel,
});

export const PROVIDER_CHOICES: readonly ProviderChoice[] = [
  keyed('anthropic', 'claude-sonnet-4-5'),
  keyed('openai', 'gpt-4o-mini'),
  keyed('google', 'gemini-2.5-flash'),
  keyed('mistral', 'mistral-small-latest'),
  keyed('xai', 'grok-3-mini'),
  keyed('deepseek', 'deepseek-chat'),
  keyed('cohere', 'command-r-plus'),
  keyed('groq', 'groq/llama-3.3-70b-versatile'),
  keyed('together', 'together/meta-llama/Llama-3.3-70B-Instruct-Turbo'),
  keyed('fireworks', 'fireworks/accounts/fireworks/models/llama-v3p3-70b-instruct'),
  keyed('perplexity', 'sonar'),
  keyed('openrouter', 'openrouter/openai/gpt-4o-mini'),
  keyed('moonshot', 'kimi-k2-0905-preview'),
  keyed('zhipu', 'glm-4.6'),
  keyed('qwen', 'qwen-plus'),
  { name: 'azure', fields: ['azure_api_key', 'azure_endpoint'], defaultModel: 'azure/gpt-4o-mini' },
  {
    name: 'bedrock',
    fields: ['bedrock_region'],
    defaultModel: 'bedrock/anthropic.claude-3-5-haiku-20241022-v1:0',
  },
  { name: 'ollama', fields: ['ollama_base_url'], defaultModel: 'ollama/llama3.2' },
  {
    name: 'openai_compatible',
    fields: ['openai_compatible_base_url', 'openai_compatible_api_key'],
    defaultModel: 'custom/local-model',
  },
];

/** The local runtime's address when none is configured. */
export const OLLAMA_DEFAULT_URL = 'http://127.0.0.1:11434';

/** What a field is called on the page. */
export function fieldLabel(field: string): string {
  if (field.endsWith('_api_key')) return 'API key';
  if (field === 'ollama_base_url') return 'Ollama URL';
  if (field === 'azure_endpoint') return 'Azure endpoint (https://…)';
  if (field === 'bedrock_region') return 'AWS region (e.g. eu-west-1)';
  if (field === 'openai_compatible_base_url') return 'Base URL (https://…/v1)';
  return field;
}

export const isSecretField = (field: string) => field.endsWith('_api_key');

/** Why a key must be pasted: the API refuses references. */
export const LITERAL_KEY_NOTE =
  'Paste the key itself. ENV: and op:// references are not accepted here (the API refuses ' +
  'them): put those in config.toml with `hearth config edit`.';
