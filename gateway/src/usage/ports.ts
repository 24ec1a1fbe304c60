/**
 * The usage area's public face: the process's token, search and cost counters and the static
 * price table they use. Other areas import only this file.
 */
export {
  MAX_REPORTED_MODELS,
  costOf,
  createUsageTracker,
  type GenerationRecord,
  type ModelUsage,
  type UsageReport,
  type UsageTracker,
} from './usage-tracker.ts';
export {
  PRICES_PER_MILLION,
  WEB_SEARCH_PRICES_PER_THOUSAND,
  priceOf,
  webSearchPriceOf,
} from './pricing.ts';
export type { UsageHistoryStore, UsageHourRow } from './history-store.ts';
