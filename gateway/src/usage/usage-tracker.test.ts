import { describe, expect, it } from 'vitest';
import { createHostStats } from '../observability/host-stats.ts';
import { createMetrics, metricsSnapshot } from '../observability/metrics.ts';
import { createUsageTracker } from './usage-tracker.ts';

function tracker() {
  const metrics = createMetrics(createHostStats('/'));
  return { metrics, usage: createUsageTracker(metrics) };
}

describe('usage and cost', () => {
  it('prices a known model from the static table (USD per 1M tokens)', () => {
    const { usage } = tracker();
    usage.record({
      provider: 'anthropic',
      modelId: 'claude-sonnet-4-5',
      nativeModelId: 'claude-sonnet-4-5',
      pricing: 'table',
      inputTokens: 1_000_000,
      outputTokens: 100_000,
    });
    expect(usage.report()).toEqual({
      models: {
        'claude-sonnet-4-5': {
          input_tokens: 1_000_000,
          output_tokens: 100_000,
          web_searches: 0,
          cost_usd: 4.5,
        },
      },
      total_cost_usd: 4.5,
    });
  });

  it('omits unpriced models from the total instead of counting them as 0', () => {
    const { usage } = tracker();
    usage.record({
      provider: 'openrouter',
      modelId: 'openrouter/x/y',
      nativeModelId: 'x/y',
      pricing: 'unpriced',
      inputTokens: 10,
      outputTokens: 5,
    });
    usage.record({
      provider: 'openai',
      modelId: 'gpt-unknown-9',
      nativeModelId: 'gpt-unknown-9',
      pricing: 'table',
      inputTokens: 10,
      outputTokens: 5,
    });
    usage.record({
      provider: 'openai',
      modelId: 'gpt-4o-mini',
      nativeModelId: 'gpt-4o-mini',
      pricing: 'table',
      inputTokens: 1_000_000,
      outputTokens: 0,
    });
    const report = usage.report();
    expect(report.models['openrouter/x/y']).toEqual({
      input_tokens: 10,
      output_tokens: 5,
      web_searches: 0,
      cost_usd: null,
    });
    expect(report.models['gpt-unknown-9']?.cost_usd).toBeNull();
    expect(report.total_cost_usd).toBe(0.15);
  });

  it('reports the local runtime at cost 0', () => {
    const { usage } = tracker();
    usage.record({
      provider: 'ollama',
      modelId: 'ollama/llama3.2',
      nativeModelId: 'llama3.2',
      pricing: 'free',
      inputTokens: 50,
      outputTokens: 20,
    });
    expect(usage.report().models['ollama/llama3.2']).toEqual({
      input_tokens: 50,
      output_tokens: 20,
      web_searches: 0,
      cost_usd: 0,
    });
  });

  it('feeds tokens_total and cost_usd_total', async () => {
    const { usage, metrics } = tracker();
    usage.record({
      provider: 'openai',
      modelId: 'gpt-4o',
      nativeModelId: 'gpt-4o',
      pricing: 'table',
      inputTokens: 1000,
      outputTokens: 500,
    });
    const snapshot = await metricsSnapshot(metrics.registry);
    expect(snapshot.tokens_total?.values).toEqual({
      'model=gpt-4o,direction=input': 1000,
      'model=gpt-4o,direction=output': 500,
    });
    expect(snapshot.cost_usd_total?.values['provider=openai,model=gpt-4o']).toBeCloseTo(0.0075);
  });

  it.each([
    // provider, model, searches, tokens in/out, cost: tokens at the model's price + fees
    ['anthropic', 'claude-sonnet-4-5', 2, 1000, 500, 0.0105 + 0.02],
    ['openai', 'gpt-4o', 3, 1000, 500, 0.0075 + 0.03],
    ['xai', 'grok-4', 4, 1000, 500, 0.0105 + 0.02],
    // Google grounding fees are unpriced: the searches count, the cost is the tokens'.
    ['google', 'gemini-2.5-flash', 2, 1000, 500, 0.00155],
  ] as const)('%s %s with %i searches costs tokens plus search fees', (...row) => {
    const [provider, model, searches, input, output, cost] = row;
    const { usage } = tracker();
    usage.record({
      provider,
      modelId: model,
      nativeModelId: model,
      pricing: 'table',
      inputTokens: input,
      outputTokens: output,
      webSearches: searches,
    });
    const report = usage.report();
    expect(report.models[model]?.web_searches).toBe(searches);
    expect(report.models[model]?.cost_usd).toBeCloseTo(cost, 10);
    expect(report.total_cost_usd).toBeCloseTo(cost, 10);
  });

  it('sums searches per model over generations and feeds web_searches_total by provider', async () => {
    const { usage, metrics } = tracker();
    const record = (webSearches?: number) =>
      usage.record({
        provider: 'anthropic',
        modelId: 'claude-sonnet-4-5',
        nativeModelId: 'claude-sonnet-4-5',
        pricing: 'table',
        inputTokens: 0,
        outputTokens: 0,
        ...(webSearches === undefined ? {} : { webSearches }),
      });
    record(2);
    record();
    record(1);
    expect(usage.report().models['claude-sonnet-4-5']).toEqual({
      input_tokens: 0,
      output_tokens: 0,
      web_searches: 3,
      cost_usd: 0.03,
    });
    const snapshot = await metricsSnapshot(metrics.registry);
    expect(snapshot.web_searches_total?.values).toEqual({ 'provider=anthropic': 3 });
    expect(
      snapshot.cost_usd_total?.values['provider=anthropic,model=claude-sonnet-4-5'],
    ).toBeCloseTo(0.03, 10);
  });

  it('leaves an unpriced model unpriced whatever it searched', () => {
    const { usage } = tracker();
    usage.record({
      provider: 'openai',
      modelId: 'gpt-unknown-9',
      nativeModelId: 'gpt-unknown-9',
      pricing: 'table',
      inputTokens: 10,
      outputTokens: 5,
      webSearches: 2,
    });
    expect(usage.report()).toEqual({
      models: {
        'gpt-unknown-9': { input_tokens: 10, output_tokens: 5, web_searches: 2, cost_usd: null },
      },
      total_cost_usd: 0,
    });
  });
});
