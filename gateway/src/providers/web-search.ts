/**
 * `[models] web_search_enabled`: providers with a native, provider-executed web search get it
 * added to each request while the setting is on. The provider runs the search and answers with
 * the results; Hearth's tool loop never sees those calls (llm-call.ts keeps only the calls Hearth
 * must run), and the SDK's replay of the turn carries them back on the next step.
 */
import type { ToolSet } from 'ai';
import type { ModelsConfig, ProviderSpec } from './catalog.ts';
import { resolveModel } from './catalog.ts';
import type { ProviderOptions } from './thinking.ts';

export type { WebSearchSpec } from './web-search-spec.ts';

/** What one request gets: the tool to add and its provider options. */
export interface WebSearchRequest {
  tools: ToolSet;
  providerOptions: ProviderOptions;
}

/**
 * The web search of one request, or undefined: the setting is off, the provider has none (or
 * searches anyway), the model lacks it, or it cannot travel with this request's function tools.
 */
export async function webSearchFor(
  spec: ProviderSpec,
  nativeModelId: string,
  enabled: boolean,
  hasFunctionTools: boolean,
): Promise<WebSearchRequest | undefined> {
  const search = spec.webSearch;
  if (!enabled || search?.kind !== 'tool' || !search.supports(nativeModelId)) return undefined;
  if (hasFunctionTools && !search.withFunctions(nativeModelId)) return undefined;
  return { tools: await search.tool(), providerOptions: search.providerOptions ?? {} };
}

/** Two providerOptions objects merged per provider key (thinking + web search). */
export function mergeProviderOptions(a: ProviderOptions, b: ProviderOptions): ProviderOptions {
  const out: ProviderOptions = { ...a };
  for (const [key, value] of Object.entries(b)) out[key] = { ...out[key], ...value };
  return out;
}

/**
 * `active`: requests carry the provider's search tool; `off`: it has one, the setting is off;
 * `always`: the provider searches on every request whatever the setting; `unsupported`: no
 * native web search for this provider (or none of the models it would be called with).
 */
export type WebSearchState = 'active' | 'off' | 'always' | 'unsupported';

/**
 * The state for GET /models, judged on the models this provider would be called with: its
 * `[models]` entries, or its default model when none uses it.
 */
export function webSearchState(
  spec: ProviderSpec,
  models: ModelsConfig,
  configuredModels: readonly string[],
): { state: WebSearchState; detail: string } {
  const search = spec.webSearch;
  if (!search) return { state: 'unsupported', detail: 'no native web search' };
  if (search.kind === 'always') return { state: 'always', detail: search.note };
  const ids = configuredModels.length > 0 ? configuredModels : [spec.defaultModel];
  const native = ids.map((id) => resolveModel(id)?.nativeId ?? id);
  const without = ids.filter((_, index) => !search.supports(native[index] ?? ''));
  if (without.length === ids.length)
    return { state: 'unsupported', detail: `${without.join(', ')}: ${search.note}` };
  const detail = without.length > 0 ? `${search.note} (not ${without.join(', ')})` : search.note;
  return { state: models.web_search_enabled ? 'active' : 'off', detail };
}

/** The parts of an SDK response the search count reads (tool calls and their results). */
export interface SearchEvidence {
  content: readonly {
    type: string;
    toolCallId?: string;
    toolName?: string;
    providerExecuted?: boolean;
    output?: unknown;
  }[];
  providerMetadata: Record<string, Record<string, unknown>> | undefined;
}

const field = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;

/** OpenAI's web_search_call actions that open or read a page rather than search (not billed). */
const NOT_A_SEARCH = new Set(['openPage', 'findInPage']);

/**
 * How many searches the provider ran in one response, from what the SDK reports: Anthropic's
 * `usage.server_tool_use.web_search_requests` (absent: none, even if the response replays a
 * `server_tool_use` whose search is still pending after a pause); Gemini's grounding `webSearchQueries` (the
 * non-empty ones, as Google bills Gemini 3); otherwise one per provider-executed `web_search`
 * call (OpenAI, xAI), leaving out OpenAI's open_page / find_in_page actions.
 */
export function countWebSearches({ content, providerMetadata }: SearchEvidence): number {
  const anthropic = field(providerMetadata?.anthropic, 'usage');
  if (anthropic !== undefined) {
    const requests = field(field(anthropic, 'server_tool_use'), 'web_search_requests');
    return typeof requests === 'number' ? requests : 0;
  }
  const queries = field(field(providerMetadata?.google, 'groundingMetadata'), 'webSearchQueries');
  if (Array.isArray(queries))
    return queries.filter((query) => typeof query === 'string' && query.trim() !== '').length;
  const skipped = new Set(
    content
      .filter(
        (part) =>
          part.type === 'tool-result' &&
          NOT_A_SEARCH.has(String(field(field(part.output, 'action'), 'type'))),
      )
      .map((part) => part.toolCallId),
  );
  return content.filter(
    (part) =>
      part.type === 'tool-call' &&
      part.providerExecuted === true &&
      part.toolName === 'web_search' &&
      !skipped.has(part.toolCallId),
  ).length;
}
