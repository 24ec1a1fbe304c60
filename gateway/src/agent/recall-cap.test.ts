/**
 * Rule 2: "Results are … capped at top_k … The chat pipeline uses 8. The results are serialised into prompt blocks prepended to the LLM
 * call." Through REST: rows stored with POST /memory, recalled by POST /chat.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';

/** The lines of the `<memory>` block of a recorded request's system prompt. */
function memoryLines(bed: ChatTestBed, index: number): string[] {
  const request = bed.fake.requests[index]!;
  const system = INSPECTORS[request.wire as keyof typeof INSPECTORS].system(request);
  const block = /<memory>\n([\s\S]*?)\n<\/memory>/.exec(system);
  return block ? block[1]!.split('\n').filter((line) => line.startsWith('- [')) : [];
}

describe('memory recalled by a chat turn', () => {
  let bed: ChatTestBed;
  beforeAll(async () => {
    bed = await startChatTestBed();
  });
  afterAll(() => bed.close());

  it('is capped at 8 entries, prepended to the prompt, with no content twice', async () => {
    for (let n = 1; n <= 12; n += 1) {
      const stored = await bed.post('/memory', {
        session_id: 'recall-cap',
        content: `kayak note ${n}: the kayak is kept in shed ${n}`,
        importance: 0.9,
      });
      expect(stored.status).toBe(200);
    }
    bed.fake.reply({ text: 'In a shed.' });
    const turn = await bed.post('/chat', {
      message: 'where is the kayak kept?',
      session_id: 'recall-cap',
    });
    expect(turn.status).toBe(200);

    const lines = memoryLines(bed, 0);
    expect(lines).toHaveLength(8);
    const contents = lines.map((line) => line.replace(/^- \[[^\]]*\] /, ''));
    expect(new Set(contents).size).toBe(contents.length);
    for (const content of contents) expect(content).toMatch(/^kayak note \d+: /);
  });
});
