/**
 * The spec's `POST /approvals/policy`: "applied; the gate toggles live on both shell and
 * browser tools". Over real chat turns with the fake LLM, the browser tool is asked about while
 * `require_shell_approval` is true and runs unprompted once it is set false, without a restart.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import type { ReplyScript } from '../testing/fakes/fake-llm/script.ts';
import type { RecordedRequest } from '../testing/fakes/fake-llm/wire.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { DENIED_TEXT, type PendingApproval } from './approval-service.ts';

/** Port 9 (discard) on loopback: nothing listens, so a browser that is installed fails fast. */
const URL_ = 'http://127.0.0.1:9/';

const navigate: ReplyScript = {
  toolCalls: [{ name: 'browser', arguments: { action: 'navigate', url: URL_ } }],
};

const toolResults = (request: RecordedRequest | undefined): string[] =>
  request ? INSPECTORS['openai-chat'].toolResults(request).map((r) => r.output) : [];

async function pending(bed: ChatTestBed): Promise<PendingApproval[]> {
  return (await bed.get('/approvals/pending')).body.pending as PendingApproval[];
}

async function waitForPending(bed: ChatTestBed, command: string): Promise<PendingApproval> {
  const until = Date.now() + 5_000;
  for (;;) {
    const found = (await pending(bed)).find((p) => p.command === command);
    if (found) return found;
    if (Date.now() > until) throw new Error(`${command} never became pending`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('POST /approvals/policy toggles the gate live on the browser tool', () => {
  let bed: ChatTestBed;
  beforeAll(async () => {
    bed = await startChatTestBed();
  });
  afterAll(() => bed.close());
  afterEach(async () => {
    bed.fake.reset();
    await bed.post('/approvals/policy', { require_shell_approval: true });
  });

  it('require_shell_approval true: a navigate waits for approval; denied, the model gets the denial text', async () => {
    bed.fake.reply(navigate, { text: 'Not opened.' });
    const turn = bed.post('/chat', { message: 'open it', session_id: 'browser-gated' });
    const waiting = await waitForPending(bed, `navigate ${URL_}`);
    expect(waiting.tool_name).toBe('browser');
    expect(bed.fake.requests).toHaveLength(1);
    expect((await bed.post(`/approvals/${waiting.id}/deny`, {})).body).toMatchObject({
      denied: true,
    });
    expect((await turn).body.reply).toBe('Not opened.');
    expect(toolResults(bed.fake.requests[1])).toEqual([DENIED_TEXT]);
  });

  it('require_shell_approval false: the same navigate runs without a prompt, then true asks again', async () => {
    expect((await bed.post('/approvals/policy', { require_shell_approval: false })).body).toEqual(
      expect.objectContaining({ applied: true, require_shell_approval: false }),
    );
    bed.fake.reply(navigate, { text: 'Opened.' });
    const { body } = await bed.post('/chat', { message: 'open it', session_id: 'browser-off' });
    expect(body.reply).toBe('Opened.');
    const [result] = toolResults(bed.fake.requests[1]);
    // It reached the browser (absent in the bed, or refused by the closed port): not the gate.
    expect(result).toBeDefined();
    expect(result).not.toBe(DENIED_TEXT);
    expect(await pending(bed)).toEqual([]);

    // Back on, live: the next navigate is held again.
    bed.fake.reset();
    await bed.post('/approvals/policy', { require_shell_approval: true });
    bed.fake.reply(navigate, { text: 'Held.' });
    const turn = bed.post('/chat', { message: 'open it', session_id: 'browser-on-again' });
    const waiting = await waitForPending(bed, `navigate ${URL_}`);
    expect(waiting.tool_name).toBe('browser');
    await bed.post(`/approvals/${waiting.id}/deny`, {});
    expect((await turn).body.reply).toBe('Held.');
  });
});
