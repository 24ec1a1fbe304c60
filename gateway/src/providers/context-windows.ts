import type { ProviderName } from './catalog.ts';

/**
 * Context window in tokens by provider (a model's own size where it is well known differs
 * little from its family's). Used by auto-compaction: history is summarised when its estimate
 * passes half of this.
 */
const BY_PROVIDER: Record<ProviderName, number> = {
  anthropic: 200_000,
  openai: 128_000,
  google: 1_000_000,
  mistral: 128_000,
  xai: 131_072,
  deepseek: 128_000,
  cohere: 128_000,
  groq: 131_072,
  together: 131_072,
  fireworks: 131_072,
  perplexity: 127_072,
  openrouter: 128_000,
  moonshot: 128_000,
  zhipu: 128_000,
  qwen: 131_072,
  azure: 128_000,
  bedrock: 200_000,
  ollama: 8_192,
  openai_compatible: 8_192,
};

export function contextWindowOf(provider: ProviderName, nativeModelId: string): number {
  if (provider === 'openai' && /^gpt-4\.1/.test(nativeModelId)) return 1_047_576;
  if (provider === 'openai' && /^(o\d|gpt-5)/.test(nativeModelId)) return 200_000;
  return BY_PROVIDER[provider];
}

/** A cheap token estimate: about four characters per token. */
export function estimateTokens(text: string): number {
  return estimateTokensOfLength(text.length);
}

/** `estimateTokens` of a text `chars` characters long (no need to build the text). */
export function estimateTokensOfLength(chars: number): number {
  return Math.ceil(chars / 4);
}
