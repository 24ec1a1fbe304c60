/**
 * Static per-model prices in USD per 1M tokens [input, output], shipped with the release.
 * Matched by the longest prefix of the provider's native model id. Models not in this table,
 * and providers whose prices are not public per model (the router service, enterprise
 * endpoints, Bedrock, OpenAI-compatible servers), are unpriced: omitted from cost totals, not
 * counted as 0. The local runtime is always free.
 */
export const PRICES_PER_MILLION: Readonly<
  Record<string, Readonly<Record<string, readonly [number, number]>>>
> = {
  anthropic: {
    'claude-opus-4': [15, 75],
    'claude-sonnet-4': [3, 15],
    'claude-haiku-4': [1, 5],
    'claude-3-7-sonnet': [3, 15],
    'claude-3-5-sonnet': [3, 15],
    'claude-3-5-haiku': [0.8, 4],
    'claude-3-haiku': [0.25, 1.25],
    'claude-3-opus': [15, 75],
  },
  openai: {
    'gpt-5-nano': [0.05, 0.4],
    'gpt-5-mini': [0.25, 2],
    'gpt-5': [1.25, 10],
    'gpt-4.1-nano': [0.1, 0.4],
    'gpt-4.1-mini': [0.4, 1.6],
    'gpt-4.1': [2, 8],
    'gpt-4o-mini': [0.15, 0.6],
    'gpt-4o': [2.5, 10],
    'gpt-4-turbo': [10, 30],
    'gpt-3.5-turbo': [0.5, 1.5],
    'o4-mini': [1.1, 4.4],
    'o3-mini': [1.1, 4.4],
    o3: [2, 8],
    'o1-mini': [1.1, 4.4],
    o1: [15, 60],
    'chatgpt-4o': [5, 15],
  },
  google: {
    'gemini-2.5-pro': [1.25, 10],
    'gemini-2.5-flash-lite': [0.1, 0.4],
    'gemini-2.5-flash': [0.3, 2.5],
    'gemini-2.0-flash-lite': [0.075, 0.3],
    'gemini-2.0-flash': [0.1, 0.4],
    'gemini-1.5-pro': [1.25, 5],
    'gemini-1.5-flash': [0.075, 0.3],
  },
  mistral: {
    'mistral-large': [2, 6],
    'mistral-medium': [0.4, 2],
    'mistral-small': [0.1, 0.3],
    codestral: [0.3, 0.9],
    'magistral-medium': [2, 5],
    'magistral-small': [0.5, 1.5],
  },
  xai: { 'grok-4': [3, 15], 'grok-3-mini': [0.3, 0.5], 'grok-3': [3, 15], 'grok-2': [2, 10] },
  deepseek: { 'deepseek-chat': [0.27, 1.1], 'deepseek-reasoner': [0.55, 2.19] },
  cohere: {
    'command-r-plus': [2.5, 10],
    'command-r7b': [0.0375, 0.15],
    'command-r': [0.15, 0.6],
    'command-a': [2.5, 10],
  },
  groq: {
    'llama-3.3-70b-versatile': [0.59, 0.79],
    'llama-3.1-8b-instant': [0.05, 0.08],
    'openai/gpt-oss-120b': [0.15, 0.75],
    'openai/gpt-oss-20b': [0.1, 0.5],
  },
  together: { 'meta-llama/Llama-3.3-70B-Instruct-Turbo': [0.88, 0.88] },
  fireworks: { 'accounts/fireworks/models/llama-v3p3-70b-instruct': [0.9, 0.9] },
  perplexity: {
    'sonar-reasoning-pro': [2, 8],
    'sonar-reasoning': [1, 5],
    'sonar-pro': [3, 15],
    sonar: [1, 1],
  },
  moonshot: {
    'kimi-k2': [0.6, 2.5],
    'moonshot-v1-8k': [0.2, 2],
    'moonshot-v1-32k': [1, 3],
    'moonshot-v1-128k': [2, 5],
  },
  zhipu: { 'glm-4.6': [0.6, 2.2], 'glm-4.5-air': [0.2, 1.1], 'glm-4.5': [0.6, 2.2] },
  qwen: { 'qwen-max': [1.6, 6.4], 'qwen-plus': [0.4, 1.2], 'qwen-turbo': [0.05, 0.2] },
};

/** Price of a model, or undefined when it is unpriced. */
export function priceOf(
  provider: string,
  nativeModelId: string,
): readonly [number, number] | undefined {
  const table = PRICES_PER_MILLION[provider];
  if (!table) return undefined;
  let best: string | undefined;
  for (const prefix of Object.keys(table)) {
    if (nativeModelId.startsWith(prefix) && (best === undefined || prefix.length > best.length))
      best = prefix;
  }
  return best === undefined ? undefined : table[best];
}

/**
 * Fees for the searches a provider runs itself (native web search), in USD per 1,000 searches,
 * as each provider documents them, on top of the tokens the results add to the input:
 * - Anthropic: $10 per 1,000 web searches (web_search tool documentation);
 * - OpenAI: $10 per 1,000 `web_search` tool calls, search actions only (pricing page);
 * - xAI: $5 per 1,000 `web_search` calls (docs.x.ai pricing, tool invocation costs).
 * Google's grounding is left unpriced: it is billed per prompt on Gemini 2.x and per query on
 * Gemini 3, each after a free daily or monthly allowance Hearth cannot see, so the searches
 * are counted but no fee is estimated. Unlisted providers are unpriced too.
 */
export const WEB_SEARCH_PRICES_PER_THOUSAND: Readonly<Record<string, number>> = {
  anthropic: 10,
  openai: 10,
  xai: 5,
};

/** The fee of one provider-executed search, or undefined when it is unpriced. */
export function webSearchPriceOf(provider: string): number | undefined {
  const perThousand = WEB_SEARCH_PRICES_PER_THOUSAND[provider];
  return perThousand === undefined ? undefined : perThousand / 1000;
}
