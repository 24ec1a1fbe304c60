import type { LanguageModel } from 'ai';
import type { Logger } from 'pino';
import { HearthError } from '../errors.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { UsageTracker } from '../usage/ports.ts';
import {
  PROVIDERS,
  providerSpec,
  resolveModel,
  type ModelsConfig,
  type ProviderName,
  type ResolvedModel,
} from './catalog.ts';
import { classifyTask, type TaskComplexity } from './classifier.ts';
import { modelLabel } from './model-label.ts';
import { generate, stream, type ModelCall } from './llm-call.ts';
import type { ChatMessage, Generation, GenerationEvent, ToolSpec } from './messages.ts';
import { isUnreachable, noRuntimeHint, redactUrls } from './no-runtime-hint.ts';
import { SETUP_HINT } from './setup-hint.ts';
import { thinkingOptions, type ThinkingLevel } from './thinking.ts';
import { mergeProviderOptions, webSearchFor } from './web-search.ts';

/**
 * Providers with a key of their own that no configured model uses, each with its default model,
 * in catalogue order: automatic routing tries them after every `[models]` role, so a key saved
 * in Settings (POST /settings/llm) answers when the configured models cannot — the first chat
 * of a newcomer without the local runtime, say. Priced cloud providers only: endpoints that
 * need a deployment or a model name of the user's (Azure, Bedrock, OpenAI-compatible,
 * OpenRouter) and the local runtime are used only when a role names them.
 */
function keyedDefaults(
  models: ModelsConfig,
  configured: readonly ResolvedModel[],
): ResolvedModel[] {
  const used = new Set(configured.map((model) => model.provider));
  return PROVIDERS.filter(
    (spec) =>
      !used.has(spec.name) &&
      spec.pricing === 'table' &&
      spec.configured(models) === true &&
      spec.apiKey(models) !== '',
  ).flatMap((spec) => resolveModel(spec.defaultModel) ?? []);
}

/** Runtime-only model settings (POST /settings/model, slash commands); reset on restart. */
export interface RuntimeModelSettings {
  /** A forced provider, or null for automatic routing. */
  provider: ProviderName | null;
  /** A model pinned for every request (form B), or null. */
  model: string | null;
  /** Null leaves thinking at the provider's default (nothing is sent). */
  thinking: ThinkingLevel | null;
  /** Every request goes to the local runtime. */
  privacyMode: boolean;
}

export interface RouteRequest {
  messages: readonly ChatMessage[];
  system?: string;
  tools?: readonly ToolSpec[];
  /** An explicit model id for this request (form B `model`); privacy mode still wins. */
  model?: string;
  /**
   * With `model`: that model only, no other candidate and no forced provider (an orchestrator
   * node's `model_override`); privacy mode still wins.
   */
  onlyModel?: boolean;
  /** Defaults to the classification of the last user message. */
  complexity?: TaskComplexity;
  signal?: AbortSignal;
  maxOutputTokens?: number;
}

export interface Attempt {
  provider: ProviderName;
  model: string;
  ms: number;
  error?: string;
  /** The provider's server could not be reached at all (refused, unknown host …). */
  unreachable?: boolean;
}

export interface RoutedGeneration extends Generation {
  provider: ProviderName;
  model: string;
  attempts: Attempt[];
}

export type RoutedEvent =
  | GenerationEvent
  | { type: 'start'; provider: ProviderName; model: string }
  | { type: 'done'; result: RoutedGeneration };

export interface RouterDeps {
  /** The live `[models]` configuration, secrets resolved. */
  models: () => ModelsConfig;
  /** Base-URL overrides per provider (tests, proxies). */
  endpoints?: Partial<Record<ProviderName, string>>;
  fetch: typeof globalThis.fetch;
  usage: UsageTracker;
  metrics: Metrics;
  logger: Logger;
  now?: () => number;
}

const ROLES: readonly (keyof ModelsConfig)[] = ['primary', 'fallback', 'fast', 'local'];

/** Built models kept for reuse; a request may name any model, so the cache is bounded. */
const MAX_CACHED_MODELS = 64;

function lastUserText(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (message?.role === 'user') return message.content;
  }
  return '';
}

/** An error for logs and clients: status and message, URLs without credentials, bounded. */
function errorText(error: unknown): string {
  if (error instanceof Error) {
    const status = (error as { statusCode?: number }).statusCode;
    return redactUrls(`${status ? `${status} ` : ''}${error.message}`).slice(0, 300);
  }
  return redactUrls(String(error)).slice(0, 300);
}

/** The model router: chooses a model for each request and calls it with fallback. */
export interface LlmRouter {
  /** Runtime-only model settings, changed in place by the settings service. */
  settings: RuntimeModelSettings;
  /** The models a request would try, in order. */
  candidates(
    request: Pick<RouteRequest, 'messages' | 'model' | 'complexity' | 'onlyModel'>,
  ): ResolvedModel[];
  /** Forget built models (after credentials or base URLs change). */
  invalidate(): void;
  generate(request: RouteRequest): Promise<RoutedGeneration>;
  /**
   * Streams one generation. Falls back to the next candidate only while nothing has been
   * emitted; a failure after the first chunk ends the stream with the error.
   */
  stream(request: RouteRequest): AsyncGenerator<RoutedEvent>;
}

/**
 * Chooses the model for each request and calls it, trying the next candidate when a provider
 * fails (before any output was streamed). Order: privacy mode → the local runtime only; a
 * forced provider → its configured models (or its default model); an explicit model → that
 * model first; otherwise by task complexity: complex → primary, fallback, fast, local; simple →
 * fast, primary, fallback, local. Every attempt is logged and counted; usage is recorded.
 */
export function createLlmRouter(deps: RouterDeps): LlmRouter {
  const now = deps.now ?? (() => performance.now());
  const settings: RuntimeModelSettings = {
    provider: null,
    model: null,
    thinking: null,
    privacyMode: false,
  };
  const cache = new Map<string, Promise<LanguageModel>>();

  function candidates(
    request: Pick<RouteRequest, 'messages' | 'model' | 'complexity' | 'onlyModel'>,
  ): ResolvedModel[] {
    const models = deps.models();
    const resolve = (id: string) => (id.trim() === '' ? undefined : resolveModel(id));
    const unique = (list: (ResolvedModel | undefined)[]) => {
      const seen = new Set<string>();
      return list.filter(
        (m): m is ResolvedModel =>
          m !== undefined && !seen.has(m.modelId) && Boolean(seen.add(m.modelId)),
      );
    };

    if (settings.privacyMode) {
      const local = resolve(models.local);
      return [
        local?.provider === 'ollama' ? local : resolveModel(providerSpec('ollama').defaultModel)!,
      ];
    }
    if (request.onlyModel === true && request.model !== undefined) {
      const only = resolve(request.model);
      if (only === undefined)
        throw new HearthError(
          'validation',
          `No provider for model id '${request.model}' (unknown prefix)`,
        );
      return [only];
    }
    if (settings.provider !== null) {
      const forced = settings.provider;
      const own = ROLES.map((role) => resolve(String(models[role]))).filter(
        (m) => m?.provider === forced,
      );
      return unique(own.length > 0 ? own : [resolveModel(providerSpec(forced).defaultModel)]);
    }
    const complexity = request.complexity ?? classifyTask(lastUserText(request.messages));
    const order: (keyof ModelsConfig)[] =
      complexity === 'complex'
        ? ['primary', 'fallback', 'fast', 'local']
        : ['fast', 'primary', 'fallback', 'local'];
    const wanted = request.model ?? settings.model ?? undefined;
    const explicit = wanted === undefined ? undefined : resolve(wanted);
    if (wanted !== undefined && explicit === undefined) {
      throw new HearthError('validation', `No provider for model id '${wanted}' (unknown prefix)`);
    }
    const configured = unique([explicit, ...order.map((role) => resolve(String(models[role])))]);
    return unique([...configured, ...keyedDefaults(models, configured)]);
  }

  function modelFor(target: ResolvedModel, webSearch: boolean): Promise<LanguageModel> {
    const key = `${target.provider}|${target.modelId}|${webSearch ? 'web-search' : ''}`;
    let model = cache.get(key);
    if (!model) {
      const spec = providerSpec(target.provider);
      const models = deps.models();
      model = spec.create(
        {
          apiKey: spec.apiKey(models),
          baseURL: deps.endpoints?.[target.provider],
          models,
          fetch: deps.fetch,
        },
        target.nativeId,
        { webSearch },
      );
      model.catch(() => cache.delete(key));
      if (cache.size >= MAX_CACHED_MODELS) cache.delete(cache.keys().next().value!);
      cache.set(key, model);
    }
    return model;
  }

  /** `[models] web_search_enabled` is read on every call, so POST /settings/llm applies live. */
  async function callFor(target: ResolvedModel, request: RouteRequest): Promise<ModelCall> {
    const spec = providerSpec(target.provider);
    const tools = spec.supportsTools ? request.tools : undefined;
    const webSearch = await webSearchFor(
      spec,
      target.nativeId,
      deps.models().web_search_enabled,
      (tools?.length ?? 0) > 0,
    );
    const thinking =
      settings.thinking === null
        ? {}
        : thinkingOptions(
            spec.thinking,
            spec.optionsKey,
            settings.thinking,
            spec.isReasoningModel(target.nativeId),
            target.nativeId,
          );
    return {
      model: await modelFor(target, webSearch !== undefined),
      system: request.system,
      messages: request.messages,
      tools,
      nativeTools: webSearch?.tools,
      providerOptions: webSearch
        ? mergeProviderOptions(thinking, webSearch.providerOptions)
        : thinking,
      signal: request.signal,
      maxOutputTokens: request.maxOutputTokens,
    };
  }

  /** The metric label of a model: its id when known, else `other`. */
  const label = (target: ResolvedModel) => modelLabel(target.modelId, deps.models());

  function succeeded(target: ResolvedModel, generation: Generation, ms: number): void {
    deps.metrics.generationLatencyMs.set({ model: label(target) }, ms);
    deps.metrics.generationLatencySeconds.observe({ model: label(target) }, ms / 1000);
    deps.usage.record({
      label: label(target),
      provider: target.provider,
      modelId: target.modelId,
      nativeModelId: target.nativeId,
      pricing: providerSpec(target.provider).pricing,
      inputTokens: generation.usage.inputTokens,
      outputTokens: generation.usage.outputTokens,
      webSearches: generation.webSearches,
    });
  }

  function failed(
    target: ResolvedModel,
    error: unknown,
    attempts: Attempt[],
    started: number,
  ): void {
    deps.metrics.generationErrorsTotal.inc({ model: label(target) });
    attempts.push({
      provider: target.provider,
      model: target.modelId,
      ms: Math.round(now() - started),
      error: errorText(error),
      ...(isUnreachable(error) ? { unreachable: true } : {}),
    });
    deps.logger.warn(
      { provider: target.provider, model: target.modelId, err: errorText(error) },
      'generation failed',
    );
  }

  function exhausted(attempts: Attempt[], signal: AbortSignal | undefined): HearthError {
    if (signal?.aborted) return new HearthError('bad_request', 'Generation cancelled');
    if (attempts.length === 0)
      return new HearthError(
        'unavailable',
        `No model is configured: set [models] primary. ${SETUP_HINT}`,
      );
    const chain = attempts
      .map((a) => `${a.model} (${a.provider}): ${a.error ?? 'failed'}`)
      .join('; ');
    // Nothing answered at the local runtime (the default set-up): say what to do next.
    const runtimeDown = attempts.some((a) => a.provider === 'ollama' && a.unreachable);
    const hint = runtimeDown
      ? ` — ${noRuntimeHint(deps.endpoints?.ollama ?? providerSpec('ollama').baseURL(deps.models()))}`
      : ` — ${SETUP_HINT}`;
    return new HearthError('upstream', `Every provider failed: ${chain}${hint}`);
  }

  return {
    settings,
    candidates,
    /** Forget built models (after credentials or base URLs change). */
    invalidate(): void {
      cache.clear();
    },

    async generate(request: RouteRequest): Promise<RoutedGeneration> {
      const attempts: Attempt[] = [];
      for (const target of candidates(request)) {
        if (request.signal?.aborted) break;
        const started = now();
        deps.metrics.generationRequestsTotal.inc({ model: label(target) });
        try {
          const generation = await generate(await callFor(target, request));
          const ms = now() - started;
          attempts.push({ provider: target.provider, model: target.modelId, ms: Math.round(ms) });
          succeeded(target, generation, ms);
          return { ...generation, provider: target.provider, model: target.modelId, attempts };
        } catch (error) {
          failed(target, error, attempts, started);
        }
      }
      throw exhausted(attempts, request.signal);
    },

    /**
     * Streams one generation. Falls back to the next candidate only while nothing has been
     * emitted; a failure after the first chunk ends the stream with the error.
     */
    async *stream(request: RouteRequest): AsyncGenerator<RoutedEvent> {
      const attempts: Attempt[] = [];
      for (const target of candidates(request)) {
        if (request.signal?.aborted) break;
        const started = now();
        deps.metrics.generationRequestsTotal.inc({ model: label(target) });
        let emitted = false;
        try {
          const events = stream(await callFor(target, request));
          for await (const event of events) {
            if (!emitted) {
              emitted = true;
              yield { type: 'start', provider: target.provider, model: target.modelId };
            }
            if (event.type === 'finish') {
              const ms = now() - started;
              attempts.push({
                provider: target.provider,
                model: target.modelId,
                ms: Math.round(ms),
              });
              succeeded(target, event.generation, ms);
              yield event;
              yield {
                type: 'done',
                result: {
                  ...event.generation,
                  provider: target.provider,
                  model: target.modelId,
                  attempts,
                },
              };
              return;
            }
            yield event;
          }
          throw new Error('stream ended without a finish event');
        } catch (error) {
          failed(target, error, attempts, started);
          if (emitted)
            throw new HearthError('upstream', `Generation failed mid-stream: ${errorText(error)}`, {
              cause: error,
            });
        }
      }
      throw exhausted(attempts, request.signal);
    },
  };
}
