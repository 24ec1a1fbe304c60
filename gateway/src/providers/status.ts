import {
  PROVIDERS,
  resolveModel,
  type ModelsConfig,
  type ProviderName,
  type ProviderSpec,
} from './catalog.ts';
import { webSearchState, type WebSearchState } from './web-search.ts';

export interface ProviderStatus {
  provider: ProviderName;
  /** Null only for bedrock, whose credentials come from the AWS SDK chain. */
  configured: boolean | null;
  live_checked: boolean;
  reachable: boolean | null;
  detail: string;
  /** The `[models]` entries that use this provider. */
  models: string[];
  /** What `[models] web_search_enabled` does for this provider (see web-search.ts). */
  web_search: WebSearchState;
  /** Which models have the provider's web search, and its limits. */
  web_search_detail: string;
}

export interface StatusProbeDeps {
  fetch: typeof globalThis.fetch;
  endpoints?: Partial<Record<ProviderName, string>>;
  timeoutMs?: number;
}

function configuredDetail(
  spec: ProviderSpec,
  models: ModelsConfig,
  configured: boolean | null,
): string {
  if (configured === null) {
    return `credentials come from the AWS SDK chain; region ${models.bedrock_region || '(SDK default)'}`;
  }
  if (configured) return 'configured';
  return `not configured: set ${spec.settingsFields.map((f) => `models.${f}`).join(' and ')}`;
}

async function probe(
  spec: ProviderSpec,
  models: ModelsConfig,
  deps: StatusProbeDeps,
): Promise<Pick<ProviderStatus, 'reachable' | 'detail'>> {
  const base = (deps.endpoints?.[spec.name] ?? spec.baseURL(models)).replace(/\/+$/, '');
  const ollama = spec.liveCheck === 'ollama-tags';
  const url = ollama ? `${base.replace(/\/api$/, '')}/api/tags` : `${base}/models`;
  const apiKey = spec.apiKey(models);
  try {
    const res = await deps.fetch(url, {
      headers: apiKey && !ollama ? { authorization: `Bearer ${apiKey}` } : {},
      signal: AbortSignal.timeout(deps.timeoutMs ?? 3_000),
    });
    if (!res.ok) return { reachable: false, detail: `GET ${url} answered HTTP ${res.status}` };
    const body = (await res.json()) as { data?: unknown[]; models?: unknown[] };
    const count = (ollama ? body.models : body.data)?.length;
    return { reachable: true, detail: `reachable; ${count ?? 'unknown number of'} models listed` };
  } catch (error) {
    const reason =
      error instanceof Error
        ? ((error.cause as Error | undefined)?.message ?? error.message)
        : String(error);
    return { reachable: false, detail: `GET ${url} failed: ${reason}` };
  }
}

/**
 * One status entry per provider (19). With `live`, providers that have a documented stable
 * check are probed — `GET /models` on OpenAI-compatible APIs, `/api/tags` on the local runtime —
 * and only when configured; the others say a live check is unsupported. No LLM call is made.
 */
export async function providerStatuses(
  models: ModelsConfig,
  live: boolean,
  deps: StatusProbeDeps,
): Promise<ProviderStatus[]> {
  const roles = [models.primary, models.fallback, models.fast, models.local];
  return Promise.all(
    PROVIDERS.map(async (spec): Promise<ProviderStatus> => {
      const configured = spec.configured(models);
      const used = [
        ...new Set(roles.filter((id) => id !== '' && resolveModel(id)?.provider === spec.name)),
      ];
      const search = webSearchState(spec, models, used);
      const base: ProviderStatus = {
        provider: spec.name,
        configured,
        live_checked: false,
        reachable: null,
        detail: configuredDetail(spec, models, configured),
        models: used,
        web_search: search.state,
        web_search_detail: search.detail,
      };
      if (!live) return base;
      if (spec.liveCheck === null)
        return { ...base, detail: `${base.detail}; live check unsupported for this provider` };
      if (configured !== true) return base;
      return { ...base, live_checked: true, ...(await probe(spec, models, deps)) };
    }),
  );
}
