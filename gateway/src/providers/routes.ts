import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../http/route.ts';
import type { UsageTracker } from '../usage/ports.ts';
import { PROVIDER_NAMES, type ModelsConfig } from './catalog.ts';
import type { LlmRouter } from './router.ts';
import { providerStatuses, type StatusProbeDeps } from './status.ts';
import { THINKING_LEVELS } from './thinking.ts';

const booleanQuery = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((value) => value === 'true' || value === '1');

export const providerStatusSchema = z.object({
  provider: z.enum(PROVIDER_NAMES),
  configured: z.boolean().nullable(),
  live_checked: z.boolean(),
  reachable: z.boolean().nullable(),
  detail: z.string(),
  models: z.array(z.string()),
  web_search: z.enum(['active', 'off', 'always', 'unsupported']),
  web_search_detail: z.string(),
});

const routingSchema = z.object({
  primary: z.string(),
  fallback: z.string(),
  fast: z.string(),
  local: z.string(),
  forced_provider: z.enum(PROVIDER_NAMES).nullable(),
  pinned_model: z.string().nullable(),
  thinking: z.enum(THINKING_LEVELS).nullable(),
  privacy_mode: z.boolean(),
});

export const usageSchema = z.object({
  models: z.record(
    z.string(),
    z.object({
      input_tokens: z.number().int(),
      output_tokens: z.number().int(),
      /** Searches the provider ran itself (native web search). */
      web_searches: z.number().int(),
      cost_usd: z.number().nullable(),
    }),
  ),
  total_cost_usd: z.number(),
});

export interface ProviderRouteDeps extends StatusProbeDeps {
  models: () => ModelsConfig;
  router: LlmRouter;
  usage: UsageTracker;
}

export function providerRoutes(deps: ProviderRouteDeps): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/models',
      summary: 'Status of the 19 providers; live=true probes those with a stable check',
      tags: ['models'],
      query: z.object({ live: booleanQuery }),
      response: z.object({ providers: z.array(providerStatusSchema), routing: routingSchema }),
      handler: async ({ query }) => {
        const models = deps.models();
        const settings = deps.router.settings;
        return {
          providers: await providerStatuses(models, query.live, deps),
          routing: {
            primary: models.primary,
            fallback: models.fallback,
            fast: models.fast,
            local: models.local,
            forced_provider: settings.provider,
            pinned_model: settings.model,
            thinking: settings.thinking,
            privacy_mode: settings.privacyMode,
          },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/usage',
      summary:
        'Tokens, provider web searches and estimated cost (tokens plus priced search fees) per model since start (unpriced models are not in the total)',
      tags: ['models'],
      response: usageSchema,
      handler: () => deps.usage.report(),
    }),
  ];
}
