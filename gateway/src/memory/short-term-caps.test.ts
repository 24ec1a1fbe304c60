import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';

let bed: ChatTestBed;

beforeAll(async () => {
  bed = await startChatTestBed(undefined, {
    config: { memory: { short_term_max_item_bytes: 1_024, short_term_max_bytes: 65_536 } },
  });
});
afterAll(() => bed.close());

async function droppedTotal(reason: string): Promise<number> {
  const text = await (await fetch(`${bed.gw.url}/api/v1/metrics`)).text();
  const line = text
    .split('\n')
    .find((row) => row.startsWith(`short_term_items_dropped_total{reason="${reason}"}`));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

describe('[memory] short-term byte caps, through the chat route', () => {
  it('answers a turn too large for the short-term cache, leaves it out of the cache and counts it', async () => {
    bed.fake.reply({ text: 'short answer' });
    const reply = await bed.post('/chat', { message: 'é'.repeat(600), session_id: 'big-turn' });
    expect(reply.status).toBe(200);
    expect(reply.body.response).toBe('short answer');
    // The user's message is 1,200 bytes (over 1,024); the reply fits.
    await expect.poll(() => droppedTotal('item_bytes'), { timeout: 5_000 }).toBe(1);
  });

  it('evicts the oldest turns of the least recently written sessions past the store cap', async () => {
    for (let i = 0; i < 80; i += 1) {
      bed.fake.reply({ text: 'ok' });
      const reply = await bed.post('/chat', { message: 'x'.repeat(1_000), session_id: `s-${i}` });
      expect(reply.status).toBe(200);
    }
    // 80 turns of ~1,300 counted bytes each pass 64 KiB: the earliest went.
    await expect.poll(() => droppedTotal('store_bytes'), { timeout: 5_000 }).toBeGreaterThan(0);
    expect(await droppedTotal('item_bytes')).toBe(1);
  });
});
