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
  /**
   * The origins a live check may contact: the gateway passes those of config.toml as loaded
   * (catalog defaults included, see `configuredProbeOrigins`), so an endpoint set over the API
   * at run time is not probed until a restart. Absent: every endpoint of `models` is probed
   * (the CLI reading config.toml itself).
   */
  probeOrigins?: ReadonlySet<string>;
}

/** Why a live check failed: a category only, never the fetch error's text. */
export type ProbeFailure = 'unreachable' | 'timeout' | `http_${number}` | 'invalid_response';

export function probeURL(
  spec: ProviderSpec,
  models: ModelsConfig,
  endpoints: StatusProbeDeps['endpoints'],
): string {
  const base = (endpoints?.[spec.name] ?? spec.baseURL(models)).replace(/\/+$/, '');
  return spec.liveCheck === 'ollama-tags'
    ? `${base.replace(/\/api$/, '')}/api/tags`
    : `${base}/models`;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** The origins of every live check `models` configures, fixed catalog hosts included. */
export function configuredProbeOrigins(
  models: ModelsConfig,
  endpoints?: StatusProbeDeps['endpoints'],
): Set<string> {
  const origins = new Set<string>();
  for (const spec of PROVIDERS) {
    if (spec.liveCheck === null) continue;
    const origin = originOf(probeURL(spec, models, endpoints));
    if (origin !== undefined) origins.add(origin);
  }
  return origins;
}

function probeFailure(error: unknown): ProbeFailure {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return 'timeout';
  }
  return error instanceof SyntaxError ? 'invalid_response' : 'unreachable';
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

/**
 * One live check: only to a configured origin, without following redirects; the key goes only
 * there. A failure is reported as a category (`unreachable`, `timeout`, `http_<status>`,
 * `invalid_response`), never as the fetch error's text, which would tell what answers where.
 */
async function probe(
  spec: ProviderSpec,
  models: ModelsConfig,
  deps: StatusProbeDeps,
): Promise<Pick<ProviderStatus, 'live_checked' | 'reachable' | 'detail'>> {
  const url = probeURL(spec, models, deps.endpoints);
  const origin = originOf(url);
  if (origin === undefined || (deps.probeOrigins && !deps.probeOrigins.has(origin))) {
    return {
      live_checked: false,
      reachable: null,
      detail:
        'configured; live check skipped: the endpoint was set at run time and is not a host of ' +
        'config.toml as loaded (it is probed after a restart)',
    };
  }
  const ollama = spec.liveCheck === 'ollama-tags';
  const apiKey = spec.apiKey(models);
  const failed = (failure: ProbeFailure) => ({
    live_checked: true,
    reachable: false,
    detail: `GET ${url} failed: ${failure}`,
  });
  try {
    const res = await deps.fetch(url, {
      headers: apiKey && !ollama ? { authorization: `Bearer ${apiKey}` } : {},
      redirect: 'manual',
      signal: AbortSignal.timeout(deps.timeoutMs ?? 3_000),
    });
    if (!res.ok) {
      await res.body?.cancel();
      return failed(`http_${res.status}`);
    }
    const body = (await res.json()) as { data?: unknown; models?: unknown } | null;
    const list = ollama ? body?.models : body?.data;
    if (!Array.isArray(list)) return failed('invalid_response');
    return {
      live_checked: true,
      reachable: true,
      detail: `reachable; ${list.length} models listed`,
    };
  } catch (error) {
    return failed(probeFailure(error));
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
      return { ...base, ...(await probe(spec, models, deps)) };
    }),
  );
}
