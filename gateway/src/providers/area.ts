import type { Logger } from 'pino';
import type { HearthConfig } from '../config/schema.ts';
import type { Area } from '../lifecycle/area.ts';
import type { Metrics } from '../observability/metrics.ts';
import { createUsageTracker, type UsageTracker } from '../usage/ports.ts';
import type { ProviderName } from './catalog.ts';
import { createLlmRouter, type LlmRouter } from './router.ts';
import { providerRoutes } from './routes.ts';
import { configuredProbeOrigins } from './status.ts';
import { createModelReadiness, type ModelReady } from './model-readiness.ts';
import { defineArea } from '../lifecycle/install.ts';

export interface ProvidersAreaDeps {
  /** `[models]`, read on every call (settings change it at run time). */
  models: () => HearthConfig['models'];
  endpoints?: Partial<Record<ProviderName, string>>;
  fetch: typeof globalThis.fetch;
  metrics: Metrics;
  logger: Logger;
}

export interface ProvidersArea extends Area {
  readonly router: LlmRouter;
  readonly usage: UsageTracker;
  /** Base-URL overrides per provider (tests point them at fake servers; proxies). */
  readonly endpoints: Partial<Record<ProviderName, string>> | undefined;
  /** `/api/v1/status` `model_ready`: can a model answer (no paid call; cached briefly). */
  readonly modelReady: () => Promise<ModelReady>;
}

/** The 19 providers behind one router, usage and cost, `GET /models` and `GET /usage`. */
export function providersArea(deps: ProvidersAreaDeps): ProvidersArea {
  const { models } = deps;
  const usage = createUsageTracker(deps.metrics);
  const router = createLlmRouter({
    models,
    endpoints: deps.endpoints,
    fetch: deps.fetch,
    usage,
    metrics: deps.metrics,
    logger: deps.logger.child({ area: 'providers' }),
  });
  const readiness = createModelReadiness({
    models,
    router,
    endpoints: deps.endpoints,
    fetch: deps.fetch,
  });
  return {
    name: 'providers',
    router,
    modelReady: () => readiness.read(),
    usage,
    endpoints: deps.endpoints,
    routes: providerRoutes({
      models,
      router,
      usage,
      fetch: deps.fetch,
      endpoints: deps.endpoints,
      // Live checks go only to the hosts of config.toml as loaded, not to one set at run time.
      probeOrigins: configuredProbeOrigins(models(), deps.endpoints),
    }),
  };
}

/** Provider endpoint overrides (tests point them at fake servers; proxies). */
export interface ProvidersOptions {
  endpoints?: Partial<Record<ProviderName, string>>;
}

export const providers = defineArea(
  'providers',
  (kernel, _needs: object, options: ProvidersOptions | undefined) =>
    providersArea({
      models: () => kernel.config.models,
      endpoints: options?.endpoints,
      fetch: kernel.fetch,
      metrics: kernel.metrics,
      logger: kernel.logger,
    }),
);
