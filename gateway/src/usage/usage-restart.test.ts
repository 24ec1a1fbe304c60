/**
 * The spec's limits table: "Usage counters — reset on restart — usage, cost metrics". Over the
 * real interface: a turn is counted in `GET /usage` and `tokens_total`, and a gateway restarted
 * on the same state directory starts again from nothing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';

/** One counter of GET /metrics/snapshot, by label string. */
async function counter(bed: ChatTestBed, name: string): Promise<Record<string, number>> {
  const snapshot = (await bed.get('/metrics/snapshot')).body as Record<
    string,
    { values: Record<string, number> } | undefined
  >;
  return snapshot[name]?.values ?? {};
}

describe('usage counters reset on restart', () => {
  const beds: ChatTestBed[] = [];
  afterAll(async () => {
    const home = beds[0]?.gw.home;
    for (const bed of beds.reverse()) {
      await bed.gw.gateway.close();
      await bed.fake.close();
    }
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('GET /usage and the token counters start from nothing after a restart on the same state directory', async () => {
    const first = await startChatTestBed();
    beds.push(first);
    first.fake.reply({ text: 'Counted.', usage: { inputTokens: 42, outputTokens: 4 } });
    expect(
      (await first.post('/chat', { message: 'count', session_id: 'usage-reset' })).status,
    ).toBe(200);
    const before = (await first.get('/usage')).body as {
      models: Record<string, { input_tokens: number; output_tokens: number }>;
    };
    expect(before.models['gpt-4o']).toMatchObject({ input_tokens: 42, output_tokens: 4 });
    expect(Object.values(await counter(first, 'tokens_total')).some((v) => v > 0)).toBe(true);

    await first.gw.gateway.close();
    const second = await startChatTestBed(undefined, { home: first.gw.home });
    beds.push(second);
    expect((await second.get('/usage')).body).toEqual({ models: {}, total_cost_usd: 0 });
    expect(Object.values(await counter(second, 'tokens_total')).every((v) => v === 0)).toBe(true);
  });
});
