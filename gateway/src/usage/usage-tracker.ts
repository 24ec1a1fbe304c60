import type { Metrics } from '../observability/metrics.ts';
import { priceOf, webSearchPriceOf } from './pricing.ts';

export interface ModelUsage {
  input_tokens: number;
  output_tokens: number;
  /** Searches the provider ran itself (native web search). */
  web_searches: number;
  /**
   * Tokens plus search fees where the provider's fee is priced; null when the model is unpriced
   * (then it is left out of total_cost_usd).
   */
  cost_usd: number | null;
}

export interface UsageReport {
  models: Record<string, ModelUsage>;
  total_cost_usd: number;
}

export interface GenerationRecord {
  provider: string;
  /** The model id as configured (`groq/llama-3.3-70b-versatile`), the key in the report. */
  modelId: string;
  /** The model's metric label: its id when known to the catalog or `[models]`, else `other`. */
  label?: string;
  nativeModelId: string;
  pricing: 'table' | 'unpriced' | 'free';
  inputTokens: number;
  outputTokens: number;
  /** Provider-executed searches of the generation (0 or absent: none). */
  webSearches?: number;
}

/** Distinct models the report keeps apart; later ones are added up under `other`. */
export const MAX_REPORTED_MODELS = 100;

/**
 * The estimated cost of one generation in USD: tokens (and priced search fees) at the static
 * table's prices; 0 on a free (local) model, null when the model is unpriced.
 */
export function costOf(record: GenerationRecord): number | null {
  if (record.pricing === 'free') return 0;
  if (record.pricing === 'unpriced') return null;
  const price = priceOf(record.provider, record.nativeModelId);
  if (!price) return null;
  const tokens = (record.inputTokens * price[0] + record.outputTokens * price[1]) / 1_000_000;
  // An unpriced search fee (Google grounding) is left out; the searches are still counted.
  return tokens + (record.webSearches ?? 0) * (webSearchPriceOf(record.provider) ?? 0);
}

/** Token, search and cost counters of this process (GET /usage, the cost metrics). */
export interface UsageTracker {
  /** Adds one generation's tokens, searches and cost (background generations too). */
  record(record: GenerationRecord): void;
  /** The counters per model, costs rounded, with their total. */
  report(): UsageReport;
  /** Calls `listener` after every recorded generation with its cost (the persisted history). */
  onRecord(listener: (record: GenerationRecord, cost: number | null) => void): void;
}

/**
 * Token, search and cost counters of this process (they reset on restart, as the spec says).
 * Every generation, background ones included, goes through `record`, which also feeds the
 * `tokens_total`, `web_searches_total` and `cost_usd_total` metrics.
 */
export function createUsageTracker(metrics: Metrics): UsageTracker {
  const models = new Map<string, ModelUsage>();
  const listeners: ((record: GenerationRecord, cost: number | null) => void)[] = [];

  return {
    record(record: GenerationRecord): void {
      const cost = costOf(record);
      const searches = record.webSearches ?? 0;
      const key =
        models.has(record.modelId) || models.size < MAX_REPORTED_MODELS ? record.modelId : 'other';
      const current = models.get(key) ?? {
        input_tokens: 0,
        output_tokens: 0,
        web_searches: 0,
        cost_usd: cost === null ? null : 0,
      };
      current.input_tokens += record.inputTokens;
      current.output_tokens += record.outputTokens;
      current.web_searches += searches;
      if (cost !== null) current.cost_usd = (current.cost_usd ?? 0) + cost;
      models.set(key, current);

      const model = record.label ?? record.modelId;
      metrics.tokensTotal.inc({ model, direction: 'input' }, record.inputTokens);
      metrics.tokensTotal.inc({ model, direction: 'output' }, record.outputTokens);
      if (searches > 0) metrics.webSearchesTotal.inc({ provider: record.provider }, searches);
      if (cost !== null) metrics.costUsdTotal.inc({ provider: record.provider, model }, cost);
      for (const listener of listeners) listener(record, cost);
    },
    onRecord(listener) {
      listeners.push(listener);
    },
    report(): UsageReport {
      let total = 0;
      const out: Record<string, ModelUsage> = {};
      for (const [model, usage] of models) {
        out[model] = { ...usage, cost_usd: usage.cost_usd === null ? null : round(usage.cost_usd) };
        if (usage.cost_usd !== null) total += usage.cost_usd;
      }
      return { models: out, total_cost_usd: round(total) };
    },
  };
}

function round(value: number): number {
  return Math.round(value * 1e8) / 1e8;
}
