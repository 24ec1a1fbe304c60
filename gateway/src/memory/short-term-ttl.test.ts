/**
 * Rule 1: "Each turn is stored in a short-term cache (entries expire after `short_term_ttl`
 * seconds) and embedded for semantic search." Through REST with `short_term_ttl = 2`: a turn is
 * recalled from the short-term tier at once, and no longer from it once two seconds have passed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';

describe('short-term memory expiry', () => {
  let bed: ChatTestBed;
  beforeAll(async () => {
    bed = await startChatTestBed(undefined, { config: { memory: { short_term_ttl: 2 } } });
  });
  afterAll(() => bed.close());

  /** Starts the session afresh (its memories stay), asks, and returns the recalled lines. */
  const recall = async (message: string): Promise<string[]> => {
    await fetch(`${bed.gw.url}/api/v1/sessions/ttl`, { method: 'DELETE' });
    bed.fake.reset();
    bed.fake.reply({ text: 'ok' });
    await bed.post('/chat', { message, session_id: 'ttl' });
    const request = bed.fake.requests[0]!;
    const system = INSPECTORS[request.wire as keyof typeof INSPECTORS].system(request);
    return system.split('\n').filter((line) => line.startsWith('- ['));
  };

  it('recalls a turn from the short-term tier until short_term_ttl seconds have passed', async () => {
    bed.fake.reply({ text: 'Green tea it is.' });
    await bed.post('/chat', { message: 'I drink green tea', session_id: 'ttl' });
    const fresh = await recall('which tea do I drink');
    expect(fresh.filter((line) => line.startsWith('- [short-term'))).toEqual([
      expect.stringMatching(/\] user: I drink green tea$/),
      expect.stringMatching(/\] assistant: Green tea it is\.$/),
    ]);

    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const later = await recall('which tea do I drink');
    expect(later.filter((line) => line.startsWith('- [short-term'))).toEqual([]);
  });
});
