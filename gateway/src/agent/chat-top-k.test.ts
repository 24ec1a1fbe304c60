/**
 * The spec's limits table: "Retrieval cap `top_k` — 8 in the chat pipeline — memory retrieval".
 * Over the real interface: with a dozen matching memories stored through `POST /memory`, the
 * prompt of a chat turn carries exactly 8 of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';

/** The lines of the `<memory>` block of a system prompt (none when there is no block). */
function memoryLines(system: string): string[] {
  const block = /<memory>\n([\s\S]*?)\n<\/memory>/.exec(system)?.[1] ?? '';
  return block.split('\n').filter((line) => line.startsWith('- ['));
}

describe('memory retrieval in a chat turn', () => {
  let bed: ChatTestBed;
  beforeAll(async () => {
    bed = await startChatTestBed();
  });
  afterAll(() => bed.close());

  it('puts at most 8 memories (top_k) into the prompt', async () => {
    for (let n = 1; n <= 12; n += 1) {
      const stored = await bed.post('/memory', {
        content: `The tennis locker code number ${n} is ${1000 + n}.`,
        session_id: 'top-k',
      });
      expect(stored.status).toBeLessThan(300);
    }
    bed.fake.reply({ text: 'Noted.' });
    await bed.post('/chat', { message: 'What is the tennis locker code?', session_id: 'top-k' });
    const [request] = bed.fake.requests;
    expect(request).toBeDefined();
    const lines = memoryLines(INSPECTORS['openai-chat'].system(request!));
    expect(lines).toHaveLength(8);
    expect(lines.every((line) => line.includes('tennis locker code'))).toBe(true);
  });
});
