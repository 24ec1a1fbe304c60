import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../approvals/ports.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { MAX_QUEUED_TURNS } from './conversations.ts';

let bed: ChatTestBed;

beforeAll(async () => {
  bed = await startChatTestBed();
});
afterAll(() => bed.close());

/** Polls the pending approvals until the command shows up (its turn is waiting for it). */
async function waitForPending(command: string): Promise<PendingApproval> {
  const until = Date.now() + 5_000;
  for (;;) {
    const pending = (await bed.get('/approvals/pending')).body.pending as PendingApproval[];
    const found = pending.find((approval) => approval.command === command);
    if (found) return found;
    if (Date.now() > until) throw new Error(`${command} never became pending`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('turns of one session running or waiting at once are capped', () => {
  it(`refuses one more than ${MAX_QUEUED_TURNS} with 409, counted; the session works again once they are done`, async () => {
    // The first turn waits for an approval, holding the session's queue.
    bed.fake.reply(
      { toolCalls: [{ name: 'shell', arguments: { command: 'rm -rf /tmp/queue-cap' } }] },
      { text: 'not done' },
    );
    for (let i = 1; i < MAX_QUEUED_TURNS; i += 1) bed.fake.reply({ text: `reply ${i}` });
    const first = bed.post('/chat', { message: 'first', session_id: 'busy' });
    const waiting = await waitForPending('rm -rf /tmp/queue-cap');
    const rest = Array.from({ length: MAX_QUEUED_TURNS }, (_, i) =>
      bed.post('/chat', { message: `more ${i}`, session_id: 'busy' }),
    );
    // One more than the queue takes: refused at once, while the others still wait.
    const refused = await Promise.race(rest);
    expect(refused.status).toBe(409);
    expect(String(refused.body.detail)).toMatch(
      new RegExp(`already has ${MAX_QUEUED_TURNS} turns running or waiting`),
    );
    // Another session is not held up by this one.
    bed.fake.reply({ text: 'elsewhere' });
    const other = await bed.post('/chat', { message: 'hello', session_id: 'quiet' });
    expect(other.status).toBe(200);

    expect((await bed.post(`/approvals/${waiting.id}/deny`, {})).status).toBe(200);
    const statuses = (await Promise.all([first, ...rest])).map((reply) => reply.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(MAX_QUEUED_TURNS);
    expect(statuses.filter((status) => status === 409)).toHaveLength(1);
    const metrics = await (await fetch(`${bed.gw.url}/api/v1/metrics`)).text();
    expect(metrics).toMatch(/^session_turns_refused_total 1$/m);

    bed.fake.reply({ text: 'after' });
    expect((await bed.post('/chat', { message: 'again', session_id: 'busy' })).status).toBe(200);
  });
});
