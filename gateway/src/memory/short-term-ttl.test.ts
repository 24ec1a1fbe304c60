/**
 * The spec's limits table: "Short-term TTL — `short_term_ttl`, default 3600 s — short-term
 * cache". Over real chat turns: once `/compact` has folded the history into a summary, what was
 * said is recalled from short-term memory in the next turn's prompt, and no longer once
 * `[memory] short_term_ttl` seconds have passed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema.ts';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';

/** The `[short-term]` lines of the `<memory>` block of the last request's system prompt. */
function shortTermLines(bed: ChatTestBed): string[] {
  const request = bed.fake.requests.at(-1);
  if (!request) return [];
  const system = INSPECTORS['openai-chat'].system(request);
  const block = /<memory>\n([\s\S]*?)\n<\/memory>/.exec(system)?.[1] ?? '';
  return block.split('\n').filter((line) => line.startsWith('- [short-term'));
}

describe('short-term memory expires after short_term_ttl', () => {
  it('defaults to 3600 seconds', () => {
    expect(configSchema.parse({}).memory.short_term_ttl).toBe(3600);
  });

  describe('with short_term_ttl = 1', () => {
    let bed: ChatTestBed;
    beforeAll(async () => {
      bed = await startChatTestBed(undefined, { config: { memory: { short_term_ttl: 1 } } });
    });
    afterAll(() => bed.close());

    it('recalls a turn from short-term at once, and not after the TTL', async () => {
      const session = 'short-ttl';
      bed.fake.reply({ text: 'Noted, the marmalade is in the blue cupboard.' });
      await bed.post('/chat', {
        message: 'Remember: the marmalade is in the blue cupboard.',
        session_id: session,
      });

      // /compact folds the history into a summary: what the prompt still recalls of the first
      // turn word for word comes from memory, not from the live history.
      bed.fake.reply({ text: 'The user keeps preserves somewhere.' });
      await bed.post('/chat', { message: '/compact', session_id: session });

      bed.fake.reply({ text: 'The blue cupboard.' });
      await bed.post('/chat', { message: 'Where is the marmalade?', session_id: session });
      expect(shortTermLines(bed).join('\n')).toContain('blue cupboard');

      await new Promise((resolve) => setTimeout(resolve, 2_100));
      bed.fake.reply({ text: 'I am not sure.' });
      await bed.post('/chat', { message: 'Where is the marmalade?', session_id: session });
      expect(shortTermLines(bed)).toEqual([]);
    });
  });
});
