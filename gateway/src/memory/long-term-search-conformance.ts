/**
 * The `search` part of `runLongTermMemoryConformance` (long-term-conformance.ts): a
 * case-insensitive substring of `content` (folded as JavaScript's toLowerCase() does), newest
 * first (`created_at desc, id desc`), up to the limit. Adapters may serve it from an index
 * (SQLite: FTS5 trigram; PostgreSQL: pg_trgm) as long as the results stay exactly these; the
 * cases below cover what an index tends to get wrong: short queries, query syntax in the text,
 * rows written, changed and removed since, rare matches behind many newer rows.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { LongTermMemory, MemoryEntry, NewMemoryEntry } from './ports.ts';

export function describeSearchConformance(memoryOf: () => LongTermMemory): void {
  describe('search', () => {
    let memory: LongTermMemory;
    beforeEach(() => {
      memory = memoryOf();
    });

    const add = (entry: Partial<NewMemoryEntry> = {}): Promise<MemoryEntry> =>
      memory.insert({ session_id: 's1', content: 'something', importance_score: 0.5, ...entry });
    const found = async (query: string, session_id?: string, limit = 10): Promise<number[]> =>
      (await memory.search(query, { limit, session_id })).map((entry) => entry.id);

    it('matches a substring case-insensitively, newest first, up to the limit', async () => {
      const a = await add({ content: 'I like Coffee in the morning', created_at: 1_000 });
      await add({ content: 'Tea is fine too', created_at: 2_000 });
      const c = await add({ content: 'COFFEE, black', created_at: 3_000 });
      const d = await add({ content: 'decaf coffee is not coffee', created_at: 4_000 });

      const found = await memory.search('coffee', { limit: 10 });
      expect(found.map((entry) => entry.id)).toStrictEqual([d.id, c.id, a.id]);
      expect(found[2]).toStrictEqual(a);
      const limited = await memory.search('CoFfEe', { limit: 2 });
      expect(limited.map((entry) => entry.id)).toStrictEqual([d.id, c.id]);
      await expect(memory.search('espresso', { limit: 10 })).resolves.toStrictEqual([]);
    });

    it('treats % and _ as literal characters', async () => {
      const percent = await add({ content: 'I am 100% sure' });
      await add({ content: 'I am 100 percent sure' });
      const snake = await add({ content: 'rename it to snake_case' });
      await add({ content: 'rename it to snakeXcase' });

      const ids = async (query: string): Promise<number[]> =>
        (await memory.search(query, { limit: 10 })).map((entry) => entry.id);
      await expect(ids('100%')).resolves.toStrictEqual([percent.id]);
      await expect(ids('%')).resolves.toStrictEqual([percent.id]);
      await expect(ids('e_c')).resolves.toStrictEqual([snake.id]);
      await expect(ids('_')).resolves.toStrictEqual([snake.id]);
      await expect(ids('\\')).resolves.toStrictEqual([]);
    });

    it('treats %, _ and \\ literally in non-ASCII queries and with backslashes too', async () => {
      const size = await add({ content: 'Größe_1 ist 100% klar' });
      await add({ content: 'GrößeX1 ist 100 Prozent klar' });
      const path = await add({ content: 'saved to C:\\Users\\Ünïcode\\notes_%.txt' });
      const ids = async (query: string): Promise<number[]> =>
        (await memory.search(query, { limit: 10 })).map((entry) => entry.id);
      await expect(ids('öße_1')).resolves.toStrictEqual([size.id]);
      await expect(ids('ße 1')).resolves.toStrictEqual([]);
      await expect(ids('ist 100%')).resolves.toStrictEqual([size.id]);
      await expect(ids('c:\\users\\')).resolves.toStrictEqual([path.id]);
      await expect(ids('\\ünïcode\\notes_%')).resolves.toStrictEqual([path.id]);
      await expect(ids('\\ÜNÏCODE\\NOTES_%.TXT')).resolves.toStrictEqual([path.id]);
      await expect(ids('\\_')).resolves.toStrictEqual([]);
    });

    it('folds the case of non-ASCII letters too', async () => {
      const entry = await add({ content: 'Über den Wolken, ÉTÉ' });
      const ids = async (query: string): Promise<number[]> =>
        (await memory.search(query, { limit: 10 })).map((found) => found.id);
      await expect(ids('über')).resolves.toStrictEqual([entry.id]);
      await expect(ids('été')).resolves.toStrictEqual([entry.id]);
    });

    it('can be restricted to one session', async () => {
      const mine = await add({ session_id: 'mine', content: 'the password manager' });
      await add({ session_id: 'theirs', content: 'the password manager' });
      const found = await memory.search('PASSWORD', { limit: 10, session_id: 'mine' });
      expect(found).toStrictEqual([mine]);
    });

    it('finds queries of one and two characters, too short for a trigram index', async () => {
      const summer = await add({ content: 'Été à Paris', created_at: 1_000 });
      const okay = await add({ content: 'OK, go', created_at: 2_000 });
      await expect(found('é')).resolves.toStrictEqual([summer.id]);
      await expect(found('ÉT')).resolves.toStrictEqual([summer.id]);
      await expect(found('ok')).resolves.toStrictEqual([okay.id]);
      await expect(found('g')).resolves.toStrictEqual([okay.id]);
      await expect(found(' ')).resolves.toStrictEqual([okay.id, summer.id]);
      await expect(found('zz')).resolves.toStrictEqual([]);
    });

    it('takes quotes, wildcards and query-language words in the query literally', async () => {
      const quoted = await add({ content: 'she said "hello" AND left', created_at: 1_000 });
      const syntax = await add({ content: 'NEAR(a b) OR c* -d ^e {x}:y', created_at: 2_000 });
      await expect(found('"hello"')).resolves.toStrictEqual([quoted.id]);
      await expect(found('said "hel')).resolves.toStrictEqual([quoted.id]);
      await expect(found('" and')).resolves.toStrictEqual([quoted.id]);
      await expect(found('near(a')).resolves.toStrictEqual([syntax.id]);
      await expect(found('or c*')).resolves.toStrictEqual([syntax.id]);
      await expect(found('c* -d ^e {x}:y')).resolves.toStrictEqual([syntax.id]);
      await expect(found('hello AND')).resolves.toStrictEqual([]);
      await expect(found('a b c')).resolves.toStrictEqual([]);
      await expect(found('"""')).resolves.toStrictEqual([]);
      await expect(found('*')).resolves.toStrictEqual([syntax.id]);
    });

    it('folds non-ASCII queries of three characters and more, without normalising', async () => {
      const entry = await add({ content: 'ÜBER DEN WOLKEN — Ελληνικά, КИРИЛЛИЦА, café 🔥🔥 ok' });
      for (const query of ['über den', 'ελληνικά', 'кириллица', 'wolken — ε', 'CAFÉ 🔥', '🔥🔥 o'])
        await expect(found(query), query).resolves.toStrictEqual([entry.id]);
      await expect(found('über die')).resolves.toStrictEqual([]);
      await expect(found('cafe\u0301')).resolves.toStrictEqual([]);
    });

    it('orders by created_at, then id, not by when the row was written', async () => {
      const first = await add({ content: 'matching row one', created_at: 9_000 });
      const second = await add({ content: 'matching row two', created_at: 8_000 });
      const third = await add({ content: 'Matching Row three', created_at: 9_000 });
      await expect(found('matching row')).resolves.toStrictEqual([third.id, first.id, second.id]);
      await expect(found('MATCHING ROW', undefined, 2)).resolves.toStrictEqual([
        third.id,
        first.id,
      ]);
    });

    it('sees inserts, content updates and every kind of removal at once', async () => {
      const whale = await add({ content: 'The blue whale', created_at: 1_000 });
      const sky = await add({ content: 'A BLUE sky', session_id: 's2', created_at: 2_000 });
      await expect(found('blue')).resolves.toStrictEqual([sky.id, whale.id]);

      await memory.update(whale.id, { content: 'The grey whale' });
      await expect(found('blue')).resolves.toStrictEqual([sky.id]);
      await expect(found('GREY WHALE')).resolves.toStrictEqual([whale.id]);
      await memory.update(whale.id, { importance_score: 0.9, tags: ['sea'] });
      await expect(found('grey whale')).resolves.toStrictEqual([whale.id]);

      await memory.remove(whale.id);
      await expect(found('whale')).resolves.toStrictEqual([]);
      const fish = await add({ content: 'blue fish', created_at: 3_000 });
      await memory.removeMany([fish.id]);
      await memory.removeSession('s2');
      await expect(found('blue')).resolves.toStrictEqual([]);

      await add({ content: 'an old blue note', created_at: 10, importance_score: 0 });
      await memory.prune({ days: 1, now: 1_000_000 });
      await expect(found('blue')).resolves.toStrictEqual([]);
      const again = await add({ content: 'blue again' });
      await expect(found('blue')).resolves.toStrictEqual([again.id]);
      await memory.removeAll();
      await expect(found('blue')).resolves.toStrictEqual([]);
    });

    it('finds a rare match behind many newer entries, in one session or in all', async () => {
      const keeper = await add({
        content: 'the lighthouse keeper',
        session_id: 'long',
        created_at: 1,
      });
      const other = await add({ content: 'a LIGHTHOUSE too', session_id: 'short', created_at: 0 });
      const turns: number[] = [];
      for (let index = 0; index < 1_500; index += 1) {
        const turn = await add({
          content: `turn ${index}: nothing to see`,
          session_id: 'long',
          created_at: 1_000 + index,
        });
        turns.push(turn.id);
      }
      await expect(found('lighthouse')).resolves.toStrictEqual([keeper.id, other.id]);
      await expect(found('Lighthouse Keeper', 'long')).resolves.toStrictEqual([keeper.id]);
      await expect(found('lighthouse', 'short')).resolves.toStrictEqual([other.id]);
      await expect(found('lighthouse', 'nobody')).resolves.toStrictEqual([]);
      await expect(found('turn 1499:', 'long')).resolves.toStrictEqual([turns[1_499]]);
      await expect(found('TO SEE', undefined, 3)).resolves.toStrictEqual(turns.slice(-3).reverse());
      await expect(found('nowhere at all')).resolves.toStrictEqual([]);
      const sevens = await memory.search('turn 7', { limit: 1_000, session_id: 'long' });
      expect(sevens).toHaveLength(111); // 7, 70-79, 700-799
      expect(sevens[0]?.id).toBe(turns[799]);
      expect(sevens.at(-1)?.id).toBe(turns[7]);
    });
  });
}
