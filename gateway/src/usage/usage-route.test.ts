/**
 * Rule 13 and the Usage resource, through REST: "Cost is estimated from a static per-model
 * pricing table. Unpriced providers/models (…any unrecognised model) are omitted from totals,
 * not reported as 0. The local runtime is always 0. Counters are in-process and reset on
 * restart." `GET /usage`: `models` (model id → {input_tokens, output_tokens, cost_usd}) and
 * `total_cost_usd`.
 */
import { describe, expect, it } from 'vitest';
import { startChatTestBed } from '../testing/gateway/chat-gateway.ts';

describe('GET /api/v1/usage after chat turns', () => {
  it('prices known models, leaves unrecognised ones out of the total, counts the local runtime at 0, and starts empty after a restart', async () => {
    const bed = await startChatTestBed();
    const home = bed.gw.home;
    try {
      bed.fake.reply({ text: 'priced', usage: { inputTokens: 1_000_000, outputTokens: 100_000 } });
      expect((await bed.post('/chat', { message: 'one', session_id: 'usage' })).status).toBe(200);
      bed.fake.reply({ text: 'unpriced', usage: { inputTokens: 500_000, outputTokens: 50_000 } });
      const unknown = await bed.post('/chat', {
        message: 'two',
        session_id: 'usage',
        model: 'gpt-unknown-9',
      });
      expect(unknown.body).toMatchObject({ provider: 'openai', model: 'gpt-unknown-9' });
      bed.fake.reply({ text: 'local', usage: { inputTokens: 700, outputTokens: 70 } });
      const local = await bed.post('/chat', {
        message: 'three',
        session_id: 'usage',
        model: 'ollama/llama3.2',
      });
      expect(local.body).toMatchObject({ provider: 'ollama' });

      const usage = await bed.get('/usage');
      expect(usage.status).toBe(200);
      const models = usage.body.models as Record<string, Record<string, unknown>>;
      // gpt-4o: $2.50 per 1M input tokens, $10 per 1M output tokens.
      expect(models['gpt-4o']).toMatchObject({
        input_tokens: 1_000_000,
        output_tokens: 100_000,
        cost_usd: 3.5,
      });
      expect(models['gpt-unknown-9']).toMatchObject({
        input_tokens: 500_000,
        output_tokens: 50_000,
        cost_usd: null,
      });
      expect(models['ollama/llama3.2']).toMatchObject({
        input_tokens: 700,
        output_tokens: 70,
        cost_usd: 0,
      });
      expect(usage.body.total_cost_usd).toBe(3.5);
    } finally {
      // Close without removing the state directory: the restart below reuses it.
      await bed.gw.gateway.close();
      await bed.fake.close();
    }

    const restarted = await startChatTestBed(undefined, { home });
    try {
      expect((await restarted.get('/usage')).body).toEqual({ models: {}, total_cost_usd: 0 });
    } finally {
      await restarted.close();
    }
  });
});
