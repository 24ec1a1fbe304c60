import type { LanguageModel } from 'ai';
import type { HearthConfig } from '../config/schema.ts';
import { azureBaseURL, ollamaApiURL } from './endpoints.ts';
import { ollamaFetch } from './ollama-fetch.ts';
import { ollamaNumPredict } from './ollama-num-predict.ts';
import type { ThinkingStyle } from './thinking.ts';
import type { WebSearchSpec } from './web-search-spec.ts';

export type ModelsConfig = HearthConfig['models'];

export const PROVIDER_NAMES = [
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
  'azure',
  'bedrock',
  'ollama',
  'openai_compatible',
] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** What an adapter factory receives: credentials read when the model is built, and I/O. */
export interface ProviderConnection {
  apiKey: string;
  /** Base URL override (tests, proxies); the provider's default when undefined. */
  baseURL: string | undefined;
  models: ModelsConfig;
  fetch: typeof globalThis.fetch;
}

/** Per-model build options. */
export interface ModelOptions {
  /** The request carries the provider's web search tool (OpenAI: only its Responses API has one). */
  webSearch?: boolean;
}

export type ModelFactory = (
  connection: ProviderConnection,
  nativeModelId: string,
  options?: ModelOptions,
) => Promise<LanguageModel>;

export interface ProviderSpec {
  name: ProviderName;
  /** Model-id prefixes that select this provider. */
  prefixes: readonly string[];
  /** True when the prefix is a routing label removed before calling the API (`groq/x` → `x`). */
  stripPrefix: boolean;
  /** `[models]` fields that configure it (what POST /settings/llm accepts for it). */
  settingsFields: readonly (keyof ModelsConfig)[];
  /** Configured? null only for bedrock, whose credentials come from the AWS SDK chain. */
  configured: (models: ModelsConfig) => boolean | null;
  apiKey: (models: ModelsConfig) => string;
  /** The URL the provider is called at, for live checks and status. */
  baseURL: (models: ModelsConfig) => string;
  /** `GET {baseURL}/models` (OpenAI-compatible), the local runtime's `/api/tags`, or none. */
  liveCheck: 'openai-models' | 'ollama-tags' | null;
  thinking: ThinkingStyle;
  /** The provider's key in the AI SDK's `providerOptions`. */
  optionsKey: string;
  /** Does this model take a reasoning effort (only consulted for 'reasoning-effort')? */
  isReasoningModel: (nativeModelId: string) => boolean;
  /** A sensible model when the provider is forced at runtime and none of [models] uses it. */
  defaultModel: string;
  /** False for providers without function calling: tool-using turns are sent without tools. */
  supportsTools: boolean;
  /** Cost is never tracked (router service, enterprise endpoints), or is always 0 (local). */
  pricing: 'table' | 'unpriced' | 'free';
  /** The provider's own web search (`[models] web_search_enabled`); absent when it has none. */
  webSearch?: WebSearchSpec;
  create: ModelFactory;
}

const key = (field: keyof ModelsConfig) => (models: ModelsConfig) => String(models[field] ?? '');
const hasKey = (field: keyof ModelsConfig) => (models: ModelsConfig) =>
  String(models[field] ?? '') !== '';
const fixed = (url: string) => () => url;
/** o-series and gpt-5 take `reasoning_effort`; gpt-5-chat is a chat model and does not. */
const openAiReasoning = (id: string) => /^(o\d|gpt-5)/.test(id) && !/^gpt-5-chat/.test(id);
/** Every Grok model but the grok-4.20 (non-)reasoning pair (as @ai-sdk/xai's supportsReasoningEffort). */
const xaiReasoning = (id: string) => !/^grok-4\.20(-\d{4})?-(non-)?reasoning$/.test(id);
const never = () => false;
const always = () => true;
/** Claude 3 (Opus, Sonnet, Haiku) predates the web search tool; 3.5 and later have it. */
const claudeWebSearch = (id: string) => !/^claude-(3-(opus|sonnet|haiku)|2|instant)/.test(id);
/** The Responses API's web_search: GPT-4o, GPT-4.1 (not nano), GPT-5, o3, o4-mini. */
const openAiWebSearch = (id: string) =>
  /^(gpt-4o|gpt-4\.1|gpt-5|o3|o4)/.test(id) &&
  !/^(gpt-4\.1-nano|o3-mini)|-(audio|realtime|transcribe|tts|search)/.test(id);
/** Gemini 3 and later combine google_search with function calling; 2.x cannot. */
const gemini3 = (id: string) => !/^gemini-[12](?:[.-]|$)/.test(id);

function spec(
  name: ProviderName,
  rest: Omit<
    ProviderSpec,
    | 'name'
    | 'stripPrefix'
    | 'settingsFields'
    | 'configured'
    | 'apiKey'
    | 'isReasoningModel'
    | 'supportsTools'
    | 'pricing'
  > &
    Partial<
      Pick<
        ProviderSpec,
        | 'stripPrefix'
        | 'settingsFields'
        | 'configured'
        | 'apiKey'
        | 'isReasoningModel'
        | 'supportsTools'
        | 'pricing'
        | 'webSearch'
      >
    >,
): ProviderSpec {
  const keyField = `${name}_api_key` as keyof ModelsConfig;
  return {
    name,
    stripPrefix: false,
    settingsFields: [keyField],
    configured: hasKey(keyField),
    apiKey: key(keyField),
    isReasoningModel: never,
    supportsTools: true,
    pricing: 'table',
    ...rest,
  };
}

/** An OpenAI-compatible vendor reached through @ai-sdk/openai-compatible's chat model. */
const openAiCompatible =
  (providerName: string): ModelFactory =>
  async (c, id) => {
    const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
    return createOpenAICompatible({
      name: providerName,
      baseURL: c.baseURL ?? '',
      apiKey: c.apiKey || undefined,
      fetch: c.fetch,
      includeUsage: true,
    }).chatModel(id);
  };

const OLLAMA_DEFAULT = 'http://127.0.0.1:11434';

/**
 * The 19 providers. Prefix inference, credentials, live checks and the thinking control of each
 * live here; everything else (router, status, settings) reads this table.
 */
export const PROVIDERS: readonly ProviderSpec[] = [
  spec('anthropic', {
    prefixes: ['claude-'],
    baseURL: fixed('https://api.anthropic.com/v1'),
    liveCheck: null,
    thinking: 'anthropic-budget',
    optionsKey: 'anthropic',
    defaultModel: 'claude-sonnet-4-5',
    webSearch: {
      kind: 'tool',
      supports: claudeWebSearch,
      withFunctions: always,
      tool: async () => ({
        web_search: (await import('@ai-sdk/anthropic')).anthropic.tools.webSearch_20250305({
          maxUses: 5,
        }),
      }),
      note: 'web_search_20250305 server tool (Claude 3.5 and later)',
    },
    create: async (c, id) =>
      (await import('@ai-sdk/anthropic')).createAnthropic({
        apiKey: c.apiKey,
        baseURL: c.baseURL,
        fetch: c.fetch,
      })(id),
  }),
  spec('openai', {
    prefixes: ['gpt-', 'o1', 'o3', 'o4', 'chatgpt-'],
    baseURL: fixed('https://api.openai.com/v1'),
    liveCheck: 'openai-models',
    thinking: 'reasoning-effort',
    optionsKey: 'openai',
    isReasoningModel: openAiReasoning,
    defaultModel: 'gpt-4o-mini',
    webSearch: {
      kind: 'tool',
      supports: openAiWebSearch,
      withFunctions: always,
      tool: async () => ({
        web_search: (await import('@ai-sdk/openai')).openai.tools.webSearch(),
      }),
      // Chat Completions stores nothing; the Responses API stores by default, so say no.
      providerOptions: { openai: { store: false } },
      note: 'Responses API web_search tool (GPT-4o, GPT-4.1, GPT-5, o3, o4-mini); requests go to /responses while it is on',
    },
    create: async (c, id, options) => {
      const openai = (await import('@ai-sdk/openai')).createOpenAI({
        apiKey: c.apiKey,
        baseURL: c.baseURL,
        fetch: c.fetch,
      });
      return options?.webSearch ? openai.responses(id) : openai.chat(id);
    },
  }),
  spec('google', {
    prefixes: ['gemini-'],
    baseURL: fixed('https://generativelanguage.googleapis.com/v1beta'),
    liveCheck: null,
    thinking: 'gemini-thinking',
    optionsKey: 'google',
    defaultModel: 'gemini-2.5-flash',
    webSearch: {
      kind: 'tool',
      supports: (id) => !id.startsWith('gemini-1'),
      withFunctions: gemini3,
      tool: async () => ({
        google_search: (await import('@ai-sdk/google')).google.tools.googleSearch({}),
      }),
      note: 'google_search grounding; Gemini 2.x only on requests without function tools (Gemini 3 combines both)',
    },
    create: async (c, id) =>
      (await import('@ai-sdk/google')).createGoogle({
        apiKey: c.apiKey,
        baseURL: c.baseURL,
        fetch: c.fetch,
      })(id),
  }),
  spec('mistral', {
    prefixes: ['mistral-', 'codestral-', 'magistral-'],
    baseURL: fixed('https://api.mistral.ai/v1'),
    liveCheck: 'openai-models',
    thinking: 'none',
    optionsKey: 'mistral',
    defaultModel: 'mistral-small-latest',
    create: async (c, id) =>
      (await import('@ai-sdk/mistral')).createMistral({
        apiKey: c.apiKey,
        baseURL: c.baseURL,
        fetch: c.fetch,
      })(id),
  }),
  spec('xai', {
    prefixes: ['grok-'],
    baseURL: fixed('https://api.x.ai/v1'),
    liveCheck: 'openai-models',
    thinking: 'reasoning-effort',
    optionsKey: 'xai',
    isReasoningModel: xaiReasoning,
    defaultModel: 'grok-3-mini',
    webSearch: {
      kind: 'tool',
      supports: (id) => id.startsWith('grok-4'),
      withFunctions: always,
      tool: async () => ({ web_search: (await import('@ai-sdk/xai')).xaiTools.webSearch() }),
      note: 'Responses API web_search agent tool (Grok 4 models)',
    },
    create: async (c, id) =>
      (await import('@ai-sdk/xai')).createXai({
        apiKey: c.apiKey,
        baseURL: c.baseURL,
        fetch: c.fetch,
      })(id),
  }),
  spec('deepseek', {
    prefixes: ['deepseek-'],
    baseURL: fixed('https://api.deepseek.com/v1'),
    liveCheck: 'openai-models',
    thinking: 'none',
    optionsKey: 'deepseek',
    defaultModel: 'deepseek-chat',
    create: async (c, id) =>
      (await import('@ai-sdk/deepseek'))
        .createDeepSeek({ apiKey: c.apiKey, baseURL: c.baseURL, fetch: c.fetch })
        .chat(id),
  }),
  spec('cohere', {
    prefixes: ['command-'],
    baseURL: fixed('https://api.cohere.com/v2'),
    liveCheck: null,
    thinking: 'none',
    optionsKey: 'cohere',
    defaultModel: 'command-r-plus',
    create: async (c, id) =>
      (await import('@ai-sdk/cohere')).createCohere({
        apiKey: c.apiKey,
        baseURL: c.baseURL,
        fetch: c.fetch,
      })(id),
  }),
  spec('groq', {
    prefixes: ['groq/'],
    stripPrefix: true,
    baseURL: fixed('https://api.groq.com/openai/v1'),
    liveCheck: 'openai-models',
    thinking: 'reasoning-effort',
    optionsKey: 'groq',
    // low/medium/high is for gpt-oss only; Groq's qwen3 takes just none/default.
    isReasoningModel: (id) => id.startsWith('openai/gpt-oss'),
    defaultModel: 'groq/llama-3.3-70b-versatile',
    create: async (c, id) =>
      (await import('@ai-sdk/groq')).createGroq({
        apiKey: c.apiKey,
        baseURL: c.baseURL,
        fetch: c.fetch,
      })(id),
  }),
  spec('together', {
    prefixes: ['together/'],
    stripPrefix: true,
    baseURL: fixed('https://api.together.xyz/v1'),
    liveCheck: 'openai-models',
    thinking: 'none',
    optionsKey: 'togetherai',
    defaultModel: 'together/meta-llama/Llama-3.3-70B-Instruct-Turbo',
    create: async (c, id) =>
      (await import('@ai-sdk/togetherai')).createTogetherAI({
        apiKey: c.apiKey,
        baseURL: c.baseURL,
        fetch: c.fetch,
      })(id),
  }),
  spec('fireworks', {
    prefixes: ['fireworks/'],
    stripPrefix: true,
    baseURL: fixed('https://api.fireworks.ai/inference/v1'),
    liveCheck: 'openai-models',
    thinking: 'none',
    optionsKey: 'fireworks',
    defaultModel: 'fireworks/accounts/fireworks/models/llama-v3p3-70b-instruct',
    create: async (c, id) =>
      (await import('@ai-sdk/fireworks')).createFireworks({
        apiKey: c.apiKey,
        baseURL: c.baseURL,
        fetch: c.fetch,
      })(id),
  }),
  spec('perplexity', {
    prefixes: ['sonar'],
    supportsTools: false,
    webSearch: { kind: 'always', note: 'Sonar models search the web on every request' },
    baseURL: fixed('https://api.perplexity.ai'),
    liveCheck: null,
    thinking: 'none',
    optionsKey: 'perplexity',
    defaultModel: 'sonar',
    create: async (c, id) =>
      (await import('@ai-sdk/perplexity')).createPerplexity({
        apiKey: c.apiKey,
        baseURL: c.baseURL,
        fetch: c.fetch,
      })(id),
  }),
  spec('openrouter', {
    prefixes: ['openrouter/'],
    stripPrefix: true,
    baseURL: fixed('https://openrouter.ai/api/v1'),
    liveCheck: 'openai-models',
    thinking: 'openrouter-effort',
    optionsKey: 'openrouter',
    defaultModel: 'openrouter/openai/gpt-4o-mini',
    pricing: 'unpriced',
    create: async (c, id) =>
      (await import('@openrouter/ai-sdk-provider'))
        .createOpenRouter({ apiKey: c.apiKey, baseURL: c.baseURL, fetch: c.fetch })
        .chat(id),
  }),
  spec('moonshot', {
    prefixes: ['moonshot-', 'kimi-'],
    baseURL: fixed('https://api.moonshot.ai/v1'),
    liveCheck: 'openai-models',
    thinking: 'none',
    optionsKey: 'moonshotai',
    defaultModel: 'kimi-k2-0905-preview',
    create: async (c, id) =>
      (await import('@ai-sdk/moonshotai')).createMoonshotAI({
        apiKey: c.apiKey,
        baseURL: c.baseURL,
        fetch: c.fetch,
      })(id),
  }),
  spec('zhipu', {
    prefixes: ['glm-'],
    baseURL: fixed('https://open.bigmodel.cn/api/paas/v4'),
    liveCheck: 'openai-models',
    thinking: 'none',
    optionsKey: 'zhipu',
    defaultModel: 'glm-4.6',
    create: (c, id) =>
      openAiCompatible('zhipu')(
        { ...c, baseURL: c.baseURL ?? 'https://open.bigmodel.cn/api/paas/v4' },
        id,
      ),
  }),
  spec('qwen', {
    prefixes: ['qwen-'],
    baseURL: fixed('https://dashscope-intl.aliyuncs.com/compatible-mode/v1'),
    liveCheck: 'openai-models',
    thinking: 'none',
    optionsKey: 'alibaba',
    defaultModel: 'qwen-plus',
    create: async (c, id) =>
      (await import('@ai-sdk/alibaba')).createAlibaba({
        apiKey: c.apiKey,
        baseURL: c.baseURL,
        fetch: c.fetch,
      })(id),
  }),
  spec('azure', {
    prefixes: ['azure/'],
    stripPrefix: true,
    settingsFields: ['azure_api_key', 'azure_endpoint'],
    configured: (m) => m.azure_api_key !== '' && m.azure_endpoint !== '',
    baseURL: (m) => m.azure_endpoint,
    liveCheck: null,
    thinking: 'reasoning-effort',
    optionsKey: 'openai',
    isReasoningModel: openAiReasoning,
    defaultModel: 'azure/gpt-4o-mini',
    pricing: 'unpriced',
    create: async (c, id) =>
      (await import('@ai-sdk/azure'))
        .createAzure({
          apiKey: c.apiKey,
          baseURL: c.baseURL ?? azureBaseURL(c.models.azure_endpoint),
          fetch: c.fetch,
        })
        .chat(id),
  }),
  spec('bedrock', {
    prefixes: ['bedrock/'],
    stripPrefix: true,
    settingsFields: ['bedrock_region'],
    configured: () => null,
    apiKey: () => '',
    baseURL: (m) => `https://bedrock-runtime.${m.bedrock_region || 'us-east-1'}.amazonaws.com`,
    liveCheck: null,
    thinking: 'none',
    optionsKey: 'bedrock',
    defaultModel: 'bedrock/anthropic.claude-3-5-haiku-20241022-v1:0',
    pricing: 'unpriced',
    create: async (c, id) => {
      const { createAmazonBedrock } = await import('@ai-sdk/amazon-bedrock');
      // A Bedrock API key (bearer) when one is given; otherwise SigV4 with credentials from the
      // full AWS SDK chain (environment, ~/.aws profiles and SSO, container and instance roles).
      const { fromNodeProviderChain } = await import('@aws-sdk/credential-providers');
      const chain = fromNodeProviderChain();
      return createAmazonBedrock({
        region: c.models.bedrock_region || undefined,
        apiKey: c.apiKey || undefined,
        ...(c.apiKey ? {} : { credentialProvider: () => chain() }),
        baseURL: c.baseURL,
        fetch: c.fetch,
      })(id);
    },
  }),
  spec('ollama', {
    prefixes: ['ollama/'],
    stripPrefix: true,
    settingsFields: ['ollama_base_url'],
    configured: (m) => m.ollama_base_url !== '',
    apiKey: () => '',
    baseURL: (m) => m.ollama_base_url || OLLAMA_DEFAULT,
    liveCheck: 'ollama-tags',
    thinking: 'ollama-think',
    optionsKey: 'ollama',
    defaultModel: 'ollama/llama3.2',
    pricing: 'free',
    create: async (c, id) => {
      const { createOllama } = await import('ollama-ai-provider-v2');
      const { wrapLanguageModel } = await import('ai');
      const model = createOllama({
        baseURL: ollamaApiURL(c.baseURL ?? (c.models.ollama_base_url || OLLAMA_DEFAULT)),
        // Ollama's `{"error": "…"}` bodies and in-stream error lines, made legible to the provider.
        fetch: ollamaFetch(c.fetch),
      })(id);
      return wrapLanguageModel({ model, middleware: ollamaNumPredict });
    },
  }),
  spec('openai_compatible', {
    prefixes: ['custom/'],
    stripPrefix: true,
    settingsFields: ['openai_compatible_base_url', 'openai_compatible_api_key'],
    configured: (m) => m.openai_compatible_base_url !== '',
    apiKey: key('openai_compatible_api_key'),
    baseURL: (m) => m.openai_compatible_base_url,
    liveCheck: 'openai-models',
    thinking: 'none',
    optionsKey: 'openaiCompatible',
    defaultModel: 'custom/local-model',
    pricing: 'unpriced',
    create: (c, id) =>
      openAiCompatible('openaiCompatible')(
        { ...c, baseURL: c.baseURL ?? c.models.openai_compatible_base_url },
        id,
      ),
  }),
];

const BY_NAME = new Map(PROVIDERS.map((p) => [p.name, p]));

export function providerSpec(name: ProviderName): ProviderSpec {
  const found = BY_NAME.get(name);
  if (!found) throw new Error(`unknown provider ${name}`);
  return found;
}

/** Names and aliases accepted by POST /settings/model and `/model <provider>`. */
export const PROVIDER_ALIASES: Record<string, ProviderName> = {
  claude: 'anthropic',
  gpt: 'openai',
  chatgpt: 'openai',
  gemini: 'google',
  grok: 'xai',
  local: 'ollama',
  kimi: 'moonshot',
  glm: 'zhipu',
  alibaba: 'qwen',
  custom: 'openai_compatible',
  'openai-compatible': 'openai_compatible',
  togetherai: 'together',
};

export function resolveProviderName(value: string): ProviderName | undefined {
  const lower = value.trim().toLowerCase();
  if ((PROVIDER_NAMES as readonly string[]).includes(lower)) return lower as ProviderName;
  return PROVIDER_ALIASES[lower];
}

export interface ResolvedModel {
  provider: ProviderName;
  /** The id as configured, e.g. `groq/llama-3.3-70b`. */
  modelId: string;
  /** The id the provider's API expects, e.g. `llama-3.3-70b`. */
  nativeId: string;
}

/** Resolutions kept for reuse (the router resolves every role on every turn); bounded. */
const resolved = new Map<string, ResolvedModel | undefined>();
const MAX_RESOLVED = 256;

/** Infers the provider from the model-id prefix; undefined when no prefix matches. */
export function resolveModel(modelId: string): ResolvedModel | undefined {
  if (resolved.has(modelId)) {
    const known = resolved.get(modelId);
    return known && { ...known };
  }
  const found = inferModel(modelId);
  if (resolved.size >= MAX_RESOLVED) resolved.clear();
  resolved.set(modelId, found);
  return found && { ...found };
}

function inferModel(modelId: string): ResolvedModel | undefined {
  const id = modelId.trim();
  const lower = id.toLowerCase();
  for (const provider of PROVIDERS) {
    const prefix = provider.prefixes.find((p) => lower.startsWith(p));
    if (prefix) {
      return {
        provider: provider.name,
        modelId: id,
        nativeId: provider.stripPrefix ? id.slice(prefix.length) : id,
      };
    }
  }
  return undefined;
}
