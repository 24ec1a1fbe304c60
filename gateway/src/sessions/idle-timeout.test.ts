/**
 * The spec's limits table: "Session idle timeout — 30 minutes by default — session manager".
 * The default is the config's; over the real interface a session idle past
 * `gateway.session_idle_timeout_minutes` leaves `GET /sessions`, and naming it again continues it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';

type Sessions = { sessions: { id: string; message_count: number }[]; total: number };

describe('session idle timeout', () => {
  it('defaults to 30 minutes', () => {
    expect(configSchema.parse({}).gateway.session_idle_timeout_minutes).toBe(30);
  });

  describe('with a short timeout (0.005 minutes = 300 ms)', () => {
    let bed: ChatTestBed;
    beforeAll(async () => {
      bed = await startChatTestBed(undefined, {
        config: { gateway: { session_idle_timeout_minutes: 0.005 } },
      });
    });
    afterAll(() => bed.close());

    it('an idle session leaves GET /sessions; naming it again continues it', async () => {
      bed.fake.reply({ text: 'First.' });
      await bed.post('/chat', { message: 'hello', session_id: 'idle-one' });
      const live = (await bed.get('/sessions')).body as Sessions;
      expect(live.sessions.map((s) => s.id)).toContain('idle-one');

      const until = Date.now() + 5_000;
      let after = live;
      while (after.sessions.some((s) => s.id === 'idle-one') && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        after = (await bed.get('/sessions')).body as Sessions;
      }
      expect(after.sessions.map((s) => s.id)).not.toContain('idle-one');

      bed.fake.reply({ text: 'Second.' });
      const again = await bed.post('/chat', { message: 'still me', session_id: 'idle-one' });
      expect(again.body).toMatchObject({ reply: 'Second.', session_id: 'idle-one' });
      expect(((await bed.get('/sessions')).body as Sessions).sessions.map((s) => s.id)).toContain(
        'idle-one',
      );
    });
  });
});
