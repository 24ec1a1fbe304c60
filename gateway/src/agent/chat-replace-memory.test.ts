/**
 * Edit and resend forgets the replaced turn in memory as well as in the history: through the
 * real gateway (real WebSocket, fake LLM, the in-process short-term tier and SQLite long-term),
 * the next turn neither recalls the replaced exchange nor sends it upstream, while an earlier
 * turn with the very same user message keeps its memories.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { frameClient, type FrameClient } from '../testing/gateway/frame-client.ts';

let bed: ChatTestBed;
let base: string;
beforeAll(async () => {
  bed = await startChatTestBed();
  base = `ws://127.0.0.1:${bed.gw.port}/ws?events=tools`;
});
afterAll(() => bed.close());
afterEach(() => bed.fake.reset());

const QUESTION = 'Remember that my locker is Z-12.';
const KEPT_REPLY = 'Noted: locker Z-12.';
const REPLACED_REPLY = 'Got it again: locker Z-12, beside the window.';

async function turn(
  c: FrameClient,
  sessionId: string,
  message: string,
  reply: string,
  replaceLast = false,
) {
  const done = c.frames.filter((f) => f.type === 'message_done').length;
  bed.fake.reply({ text: reply });
  c.send({
    type: 'chat',
    message,
    session_id: sessionId,
    ...(replaceLast ? { replace_last: true } : {}),
  });
  const frame = await c.next(() => c.frames.filter((f) => f.type === 'message_done').length > done);
  return c.frames.filter((f) => f.type === 'message_done')[done] ?? frame;
}

/** Everything the fake LLM was last sent, as text. */
const lastUpstream = () => JSON.stringify(bed.fake.requests.at(-1)?.body);

describe('replace_last forgets the replaced turn in memory', () => {
  it('the next turn recalls and sends nothing of it; the same words of an earlier turn stay', async () => {
    const session = 'edit-memory';
    const note = await bed.post('/memory', {
      content: 'The locker key hangs by the door.',
      session_id: session,
    });
    expect(note.status).toBeLessThan(300);
    const c = await frameClient(base);
    await turn(c, session, QUESTION, KEPT_REPLY);
    await turn(c, session, QUESTION, REPLACED_REPLY);
    const replacing = await turn(
      c,
      session,
      'Remember that my bike lock is 40-40.',
      'Noted: bike lock 40-40.',
      true,
    );
    expect(replacing.text).toBe('Noted: bike lock 40-40.');
    expect(lastUpstream()).not.toContain('beside the window');
    expect(lastUpstream()).toContain(KEPT_REPLY);

    const next = await turn(
      c,
      session,
      'Where is my locker, and what was beside it?',
      'By the door.',
    );
    const memories = JSON.stringify(next.memories);
    // Memories are recalled (the note), none of them the replaced turn.
    expect(memories).toContain('The locker key hangs by the door.');
    expect(memories).not.toContain('beside the window');
    const upstream = lastUpstream();
    expect(upstream).not.toContain('beside the window');
    expect(upstream).toContain(KEPT_REPLY);
    expect(upstream.split(QUESTION)).toHaveLength(2); // the earlier turn's, once

    // What memory holds for the locker: the earlier turn's two short-term items and its
    // long-term row, nothing of the replaced turn.
    const preview = await turn(c, session, '/forget Z-12', 'unused');
    expect(String(preview.text)).toMatch(/^3 memories match "Z-12":/);
    expect(String(preview.text)).not.toContain('beside the window');
    expect(String(preview.text)).toContain(KEPT_REPLY);
    c.socket.close();
  });

  it('keeps another session’s identical turn', async () => {
    const c = await frameClient(base);
    await turn(c, 'edit-memory-other', QUESTION, REPLACED_REPLY);
    await turn(c, 'edit-memory-mine', QUESTION, REPLACED_REPLY);
    await turn(c, 'edit-memory-mine', 'Never mind.', 'Alright.', true);
    const mine = await turn(c, 'edit-memory-mine', '/forget Z-12', 'unused');
    expect(mine.text).toBe('No memories match "Z-12".');
    const other = await turn(c, 'edit-memory-other', '/forget Z-12', 'unused');
    expect(String(other.text)).toMatch(/^3 memories match "Z-12":/);
    c.socket.close();
  });
});
