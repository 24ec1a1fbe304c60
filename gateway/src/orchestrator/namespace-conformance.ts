/**
 * Namespace behaviour on a long-term store, as a suite run on each adapter: SQLite here
 * (namespaces.test.ts) and PostgreSQL (namespaces.services.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LongTermMemory } from '../memory/ports.ts';
import { createNamespaces, namespaceOf } from './namespaces.ts';

/** What the suite opens: a store holding the long-term tier (a `Database` of the db area). */
interface LongTermStore {
  readonly memory: LongTermMemory;
  close(): Promise<void>;
}

export function runNamespaceConformance(name: string, open: () => Promise<LongTermStore>): void {
  describe(`Orchestrator namespace conformance: ${name}`, () => {
    let db: LongTermStore;
    const namespaces = (max: number) =>
      createNamespaces(
        () => ({
          store: (entry) => db.memory.insert(entry),
          list: (filter) => db.memory.list(filter),
          removeEntries: (ids) => db.memory.removeMany(ids),
          removeSession: (sessionId) => db.memory.removeSession(sessionId),
          sessions: () => db.memory.sessions(),
        }),
        max,
      );

    beforeEach(async () => {
      db = await open();
      await db.memory.removeAll();
    });
    afterEach(() => db.close());

    it('keeps each exchange as a row tagged with the namespace, in a session no client can name', async () => {
      await namespaces(10).remember('coder', 'fix the bug', 'done');
      const [row] = await db.memory.list({ session_id: 'orchestrator/coder', limit: 5 });
      expect(row).toMatchObject({
        session_id: 'orchestrator/coder',
        tags: ['orchestrator/coder'],
        type: 'orchestrator',
        content: 'Task: fix the bug\nReply: done',
      });
      expect(namespaceOf('coder')).toMatch(/\//);
    });

    it('keeps only the newest rows up to the cap', async () => {
      const ns = namespaces(3);
      for (let i = 1; i <= 5; i += 1) await ns.remember('n', `task ${i}`, `reply ${i}`);
      const rows = await db.memory.list({ session_id: 'orchestrator/n', limit: 10 });
      expect(rows.map((r) => r.content.split('\n')[0])).toEqual([
        'Task: task 5',
        'Task: task 4',
        'Task: task 3',
      ]);
      expect((await ns.stats('n')).entries).toBe(3);
    });

    it('clears one namespace only: other namespaces and other sessions keep their rows', async () => {
      const ns = namespaces(10);
      await ns.remember('a', 't', 'r');
      await ns.remember('b', 't', 'r');
      await db.memory.insert({
        session_id: 'orchestrator-a',
        content: 'main memory',
        importance_score: 0.9,
      });
      await db.memory.insert({
        session_id: 'default',
        content: 'orchestrator/a in main text',
        importance_score: 0.9,
        tags: ['orchestrator/a'],
      });
      expect(await ns.clear('a')).toBe(1);
      const [a, b] = await ns.all(['a', 'b']);
      expect(a).toEqual({ node: 'a', namespace: 'orchestrator/a', entries: 0, last_active: null });
      expect(b).toMatchObject({ node: 'b', namespace: 'orchestrator/b', entries: 1 });
      expect(typeof b?.last_active).toBe('number');
      expect(await db.memory.count()).toBe(3);
    });

    it('the content of a row is bounded', async () => {
      await namespaces(10).remember('big', 'x'.repeat(20_000), 'y');
      const [row] = await db.memory.list({ session_id: 'orchestrator/big', limit: 1 });
      expect(row?.content.length).toBe(8000);
    });
  });
}
