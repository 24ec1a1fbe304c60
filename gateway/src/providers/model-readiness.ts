import {
  providerSpec,
  type ModelsConfig,
  type ProviderName,
  type ResolvedModel,
} from './catalog.ts';
import { withoutCredentials } from './no-runtime-hint.ts';
import type { LlmRouter } from './router.ts';
import { SETUP_PLACES } from './setup-hint.ts';
import { probeURL } from './status.ts';

/** `/api/v1/status` → `model_ready`: can the next message get an answer, and if not, what to do. */
export interface ModelReady {
  ok: boolean;
  /** Which model would answer, or why none can. */
  detail: string;
  /** The next step; empty when `ok`. */
  fix: string;
}

export interface ModelReadinessDeps {
  models: () => ModelsConfig;
  router: Pick<LlmRouter, 'candidates'>;
  endpoints?: Partial<Record<ProviderName, string>>;
  fetch: typeof globalThis.fetch;
  /** How long an answer is reused while nothing it depends on changed (default 5 s). */
  ttlMs?: number;
  /** The local runtime's check (default 1.5 s). */
  timeoutMs?: number;
  now?: () => number;
}

/** One candidate's verdict: ready, or why not and what would fix it. */
interface Verdict {
  ready: boolean;
  detail: string;
  fix?: string;
}

/** The local runtime's model names (`llama3.2:latest`…), or why they could not be read. */
async function localModels(
  url: string,
  deps: ModelReadinessDeps,
): Promise<{ names: string[] } | { failure: string }> {
  try {
    const res = await deps.fetch(url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(deps.timeoutMs ?? 1_500),
    });
    if (!res.ok) {
      await res.body?.cancel();
      return { failure: `answered HTTP ${res.status}` };
    }
    const body = (await res.json()) as { models?: { name?: unknown }[] } | null;
    if (!Array.isArray(body?.models)) return { failure: 'answered, but not with a model list' };
    return { names: body.models.flatMap((m) => (typeof m?.name === 'string' ? [m.name] : [])) };
  } catch (error) {
    const timeout = error instanceof Error && error.name === 'TimeoutError';
    return { failure: timeout ? 'did not answer in time' : 'is not reachable' };
  }
}

async function localVerdict(target: ResolvedModel, deps: ModelReadinessDeps): Promise<Verdict> {
  const spec = providerSpec('ollama');
  const models = deps.models();
  const base = withoutCredentials(deps.endpoints?.ollama ?? spec.baseURL(models));
  const listed = await localModels(probeURL(spec, models, deps.endpoints), deps);
  if ('failure' in listed) {
    return {
      ready: false,
      detail: `the local runtime (Ollama) at ${base} ${listed.failure}`,
      fix: `start Ollama at ${base}`,
    };
  }
  const wanted = target.nativeId;
  const pulled = listed.names.some((name) => name === wanted || name === `${wanted}:latest`);
  if (!pulled) {
    return {
      ready: false,
      detail: `the local runtime at ${base} answers, but has no model ${wanted}`,
      fix: `run \`ollama pull ${wanted}\``,
    };
  }
  return { ready: true, detail: `${target.modelId} on the local runtime at ${base}` };
}

function cloudVerdict(target: ResolvedModel, models: ModelsConfig): Verdict {
  const spec = providerSpec(target.provider);
  const configured = spec.configured(models);
  if (configured === null) {
    return {
      ready: true,
      detail: `${target.modelId} (${spec.name}; credentials from the AWS SDK chain, checked on the first message)`,
    };
  }
  if (configured) {
    return {
      ready: true,
      detail: `${target.modelId} (${spec.name} is configured; the key is checked on the first message)`,
    };
  }
  return {
    ready: false,
    detail: `${target.modelId} needs ${spec.settingsFields.map((f) => `models.${f}`).join(' and ')}`,
  };
}

/**
 * Whether a model can answer, from the configured providers alone: the local runtime is asked
 * for its model list (free, local); a cloud provider counts when its key (or endpoint) is set.
 * Never a paid call, never a request to a cloud provider. The answer is cached for `ttlMs`,
 * and recomputed at once when the candidates or their settings change (a key just saved).
 */
export function createModelReadiness(deps: ModelReadinessDeps): { read(): Promise<ModelReady> } {
  const now = deps.now ?? Date.now;
  const ttl = deps.ttlMs ?? 5_000;
  let cached: { key: string; at: number; value: Promise<ModelReady> } | undefined;

  async function compute(candidates: ResolvedModel[]): Promise<ModelReady> {
    if (candidates.length === 0) {
      return {
        ok: false,
        detail: 'no model is configured',
        fix: `${SETUP_PLACES[0]?.toUpperCase()}${SETUP_PLACES.slice(1)}.`,
      };
    }
    const reasons: string[] = [];
    const fixes: string[] = [];
    for (const target of candidates) {
      const verdict =
        target.provider === 'ollama'
          ? await localVerdict(target, deps)
          : cloudVerdict(target, deps.models());
      if (verdict.ready) return { ok: true, detail: `ready: ${verdict.detail}`, fix: '' };
      reasons.push(verdict.detail);
      if (verdict.fix !== undefined) fixes.push(verdict.fix);
    }
    const steps = [...fixes, SETUP_PLACES].join(', or ');
    return {
      ok: false,
      detail: `no model can answer: ${reasons.join('; ')}`,
      fix: `${steps[0]?.toUpperCase()}${steps.slice(1)}.`,
    };
  }

  return {
    read() {
      let candidates: ResolvedModel[];
      try {
        candidates = deps.router.candidates({ messages: [], complexity: 'complex' });
      } catch {
        candidates = [];
      }
      const models = deps.models();
      const key = JSON.stringify([
        candidates.map((c) => c.modelId),
        candidates.map((c) => providerSpec(c.provider).configured(models)),
        deps.endpoints?.ollama ?? models.ollama_base_url,
      ]);
      if (cached === undefined || cached.key !== key || now() - cached.at >= ttl) {
        cached = { key, at: now(), value: compute(candidates) };
      }
      return cached.value;
    },
  };
}
