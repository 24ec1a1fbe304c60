/**
 * Rule 8: "Session identity is derived deterministically from (channel, sender id), so it
 * survives restarts and idle timeouts. The session manager's default idle timeout is 30
 * minutes." Through REST: an idle session leaves GET /sessions, and naming it again continues it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { testConfig } from '../testing/gateway/test-gateway.ts';

async function eventually(check: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const liveIds = async (bed: ChatTestBed): Promise<string[]> =>
  ((await bed.get('/sessions')).body.sessions as { id: string }[]).map((s) => s.id);

describe('the session idle timeout', () => {
  it('defaults to 30 minutes', () => {
    expect(testConfig().gateway.session_idle_timeout_minutes).toBe(30);
  });

  describe('a session idle past the timeout (0.6 s here)', () => {
    let bed: ChatTestBed;
    beforeAll(async () => {
      bed = await startChatTestBed(undefined, {
        config: { gateway: { session_idle_timeout_minutes: 0.01 } },
      });
    });
    afterAll(() => bed.close());

    it('leaves GET /sessions, and naming it again continues the same conversation', async () => {
      bed.fake.reply({ text: 'Noted: the boat is called Wren.' });
      const first = await bed.post('/chat', {
        message: 'My boat is called Wren',
        session_id: 'idle-boat',
      });
      expect(first.status).toBe(200);
      expect(first.body.session_id).toBe('idle-boat');
      expect(await liveIds(bed)).toContain('idle-boat');

      await eventually(async () => !(await liveIds(bed)).includes('idle-boat'));

      bed.fake.reply({ text: 'Wren.' });
      const second = await bed.post('/chat', {
        message: 'What is my boat called?',
        session_id: 'idle-boat',
      });
      expect(second.status).toBe(200);
      expect(second.body.session_id).toBe('idle-boat');
      // The evicted session's earlier turn reaches the model again (its identity survived).
      expect(JSON.stringify(bed.fake.requests.at(-1)?.body)).toContain('My boat is called Wren');
      expect(await liveIds(bed)).toContain('idle-boat');
    });

    it('stays live while it is used more often than the timeout', async () => {
      const started = Date.now();
      while (Date.now() - started < 1_500) {
        bed.fake.reply({ text: 'ok' });
        await bed.post('/chat', { message: 'still here', session_id: 'idle-busy' });
        expect(await liveIds(bed)).toContain('idle-busy');
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    });
  });
});
