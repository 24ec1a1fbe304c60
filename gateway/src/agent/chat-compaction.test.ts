/**
 * The spec's limits table: "Compaction threshold — 50% of context window — auto-compaction".
 * Over real chat turns on the local runtime (an 8 192-token window, about four characters a
 * token): a history at 4 001 estimated tokens is left alone; one at 4 101 (past 4 096, half the
 * window) is summarised into a `summary` memory of the session without anyone asking.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';

const SESSION = 'compact-at-half';

async function summaries(bed: ChatTestBed): Promise<{ content: string }[]> {
  const { body } = await bed.get(`/memory?session_id=${SESSION}&type=summary`);
  return body.entries as { content: string }[];
}

/** Polls until `check` holds (bounded: 5 s). */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  const until = Date.now() + 5_000;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

describe('auto-compaction through chat turns', () => {
  let bed: ChatTestBed;
  beforeAll(async () => {
    bed = await startChatTestBed();
    // Every request to the local runtime, whose window is 8 192 tokens.
    await bed.post('/settings/model', { provider: 'ollama' });
  });
  afterAll(() => bed.close());

  it('summarises only once the history passes half the context window', async () => {
    // 8 000 + newline + 8 000 characters: ceil(16 001 / 4) = 4 001 tokens, under 4 096.
    bed.fake.reply({ text: 'b'.repeat(8_000) });
    await bed.post('/chat', { message: 'a'.repeat(8_000), session_id: SESSION });
    // Give a background compaction every chance to run: none may.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(bed.fake.requests).toHaveLength(1);
    expect(await summaries(bed)).toEqual([]);

    // + 2 newlines and 400 characters: ceil(16 403 / 4) = 4 101 tokens, past 4 096.
    bed.fake.reply({ text: 'd'.repeat(200) }, { text: 'The user sent long runs of letters.' });
    await bed.post('/chat', { message: 'c'.repeat(200), session_id: SESSION });
    expect(await eventually(async () => (await summaries(bed)).length === 1)).toBe(true);
    expect((await summaries(bed))[0]?.content).toBe('The user sent long runs of letters.');
    expect(bed.fake.requests).toHaveLength(3);
  });
});
