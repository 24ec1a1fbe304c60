/** Conformance of `ConversationHistoryStore.sessions` (GET /sessions?stored=true), both adapters. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from './database.ts';

const user = (content: string) => ({ role: 'user' as const, content, origin: null });
const reply = (content: string) => ({ role: 'assistant' as const, content, origin: null });

export function storedSessionsConformance(store: () => Database): void {
  describe('stored sessions', () => {
    let tag: string;
    let ids: string[];
    beforeEach(() => {
      tag = `tag${Math.random().toString(36).slice(2)}`;
      ids = ['a', 'b', 'c'].map((suffix) => `${tag}-${suffix}`);
    });
    afterEach(async () => {
      for (const id of ids) await store().conversations.clear(id);
    });

    const seed = async () => {
      const db = store().conversations;
      const [a, b, c] = ids as [string, string, string];
      await db.append(a, [user(`First ${tag} question\nsecond line`), reply('answer')]);
      await db.append(b, [reply(`greeting ${tag}`), user('100% sure_thing \\ back')]);
      await db.append(c, [user(`Third ${tag}`), reply('ok'), user('more')]);
      await db.setTitle(b, `Named ${tag}`);
      await db.summarise(c, 0, { content: 'gist', origin: null });
      return { a, b, c };
    };

    it('lists one item per stored session, newest first, with title, counts and total', async () => {
      const { a, b, c } = await seed();
      const listed = await store().conversations.sessions({ q: tag, live: [], limit: 10 });
      expect(listed.total).toBe(3);
      expect(listed.liveMatching).toEqual([]);
      expect(listed.sessions.map((s) => s.id)).toEqual([c, b, a]);
      const [third, second, first] = listed.sessions;
      expect(third).toMatchObject({ title: null, firstUserText: `Third ${tag}`, messageCount: 2 });
      expect(second).toMatchObject({
        title: `Named ${tag}`,
        firstUserText: '100% sure_thing \\ back',
      });
      expect(second?.messageCount).toBe(1);
      expect(first?.firstUserText).toBe(`First ${tag} question\nsecond line`);
      expect(first?.lastActive).toBeGreaterThan(Date.now() / 1000 - 600);
      const page = await store().conversations.sessions({ q: tag, live: [], limit: 1 });
      expect(page).toMatchObject({ total: 3, sessions: [{ id: c }] });
    });

    it('leaves live sessions out, and says which of them match q', async () => {
      const { a, b, c } = await seed();
      const listed = await store().conversations.sessions({
        q: tag,
        live: [b, 'nobody'],
        limit: 10,
      });
      expect(listed.sessions.map((s) => s.id)).toEqual([c, a]);
      expect(listed.total).toBe(2);
      expect(listed.liveMatching).toEqual([b]);
      const none = await store().conversations.sessions({
        q: 'no such text',
        live: [a],
        limit: 10,
      });
      expect(none.liveMatching).toEqual([]);
    });

    it('q is a case-insensitive literal substring: wildcards and quotes match only themselves', async () => {
      const { a, b } = await seed();
      const find = async (q: string) =>
        (await store().conversations.sessions({ q, live: [], limit: 1000 })).sessions
          .map((s) => s.id)
          .filter((id) => ids.includes(id));
      expect(await find(`first ${tag.toUpperCase()} QUESTION`)).toEqual([a]);
      expect(await find(`named ${tag}`)).toEqual([b]);
      expect(await find('100%')).toEqual([b]);
      expect(await find('sure_thing')).toEqual([b]);
      expect(await find('\\ back')).toEqual([b]);
      expect(await find(`${tag}%`)).toEqual([]);
      expect(await find(`f_rst ${tag}`)).toEqual([]);
      expect(await find("'); drop table conversation_messages;--")).toEqual([]);
      expect(await find('gist')).toEqual([]);
    });
  });
}
