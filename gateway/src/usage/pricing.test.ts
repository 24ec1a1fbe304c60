import { describe, expect, it } from 'vitest';
import { PROVIDER_NAMES } from '../providers/catalog.ts';
import { priceOf, WEB_SEARCH_PRICES_PER_THOUSAND, webSearchPriceOf } from './pricing.ts';

describe('pricing table', () => {
  it.each([
    ['anthropic', 'claude-sonnet-4-5-20250929', [3, 15]],
    ['openai', 'gpt-4o-mini-2024-07-18', [0.15, 0.6]],
    ['openai', 'gpt-4o', [2.5, 10]],
    ['google', 'gemini-2.5-flash-lite', [0.1, 0.4]],
    ['xai', 'grok-4-0709', [3, 15]],
    ['openai', 'gpt-unknown-9', undefined],
    ['openrouter', 'anthropic/claude-sonnet-4', undefined],
  ] as const)('%s %s → %j per 1M tokens (longest prefix)', (provider, model, price) => {
    expect(priceOf(provider, model)).toEqual(price);
  });

  it.each([
    // USD per search, from each provider's documented price per 1,000
    ['anthropic', 0.01],
    ['openai', 0.01],
    ['xai', 0.005],
    // Grounding: per prompt (2.x) or per query (3), after free allowances Hearth cannot see.
    ['google', undefined],
    ['perplexity', undefined],
    ['mistral', undefined],
  ] as const)('a %s web search costs %s', (provider, fee) => {
    expect(webSearchPriceOf(provider)).toBe(fee);
  });

  it('prices searches only for known providers', () => {
    for (const provider of Object.keys(WEB_SEARCH_PRICES_PER_THOUSAND))
      expect(PROVIDER_NAMES).toContain(provider);
  });
});
