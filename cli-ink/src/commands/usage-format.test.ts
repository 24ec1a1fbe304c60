import type { ApiResponse } from '@hearth/client';
import { describe, expect, it } from 'vitest';
import { formatUsage } from './usage.ts';

type ModelUsage = ApiResponse<'/usage'>['models'][string];
const row = (patch: Partial<ModelUsage> = {}): ModelUsage => ({
  input_tokens: 1200,
  output_tokens: 300,
  cost_usd: 0.0105,
  web_searches: 0,
  ...patch,
});

describe('formatUsage', () => {
  it('shows tokens and cost per model, unpriced models as such', () => {
    const text = formatUsage({
      models: { 'gpt-4o': row(), 'ollama/llama3.2': row({ cost_usd: null }) },
      total_cost_usd: 0.0105,
    });
    expect(text.split('\n')).toEqual([
      'model                 input      output    cost (USD)',
      'gpt-4o                 1200         300      0.010500',
      'ollama/llama3.2        1200         300      unpriced',
      'total (priced models only): $0.010500',
    ]);
  });

  it('adds a searches column once a provider ran web searches', () => {
    const text = formatUsage({
      models: { 'claude-sonnet-4-5': row({ web_searches: 2 }), 'gpt-4o': row() },
      total_cost_usd: 0.041,
    });
    expect(text.split('\n')[0]).toBe(
      'model                   input      output  searches    cost (USD)',
    );
    expect(text.split('\n')[1]).toBe(
      'claude-sonnet-4-5        1200         300         2      0.010500',
    );
  });
});
