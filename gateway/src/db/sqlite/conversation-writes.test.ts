/**
 * How the SQLite history store writes what the chat appends after every turn: after the
 * current tick, all appends of one tick in one transaction, never lost (a load, a compaction,
 * a clear and closing the database write what is waiting first).
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../database.ts';
import { openSqliteDatabase } from './open-sqlite.ts';

let folder = '';
let files = 0;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'hearth-sqlite-history-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const freshFile = (): string => join(folder, `history-${(files += 1)}.db`);

const turn = (n: number) => [
  { role: 'user' as const, content: `question ${n}`, origin: null },
  { role: 'assistant' as const, content: `answer ${n}`, origin: null },
];

/** Rows of the file as another connection sees them (what is committed). */
function committedRows(file: string): number {
  const reader = new BetterSqlite3(file, { readonly: true });
  try {
    return reader.prepare('select count(*) from conversation_messages').pluck().get() as number;
  } finally {
    reader.close();
  }
}

/** Bytes the write-ahead log grew by while `work` ran (each commit adds its own frames). */
async function walGrowth(file: string, work: (db: Database) => Promise<unknown>): Promise<number> {
  const db = await openSqliteDatabase(file);
  try {
    const walSize = async () => (await stat(`${file}-wal`).catch(() => ({ size: 0 }))).size;
    const before = await walSize();
    await work(db);
    return (await walSize()) - before;
  } finally {
    await db.close();
  }
}

describe('SQLite history writes', () => {
  it('writes the appends of one tick in one transaction', async () => {
    const sessions = Array.from({ length: 20 }, (_, i) => `session-${i}`);
    const oneTick = await walGrowth(freshFile(), (db) =>
      Promise.all(sessions.map((session, i) => db.conversations.append(session, turn(i)))),
    );
    const oneEach = await walGrowth(freshFile(), async (db) => {
      for (const [i, session] of sessions.entries())
        await db.conversations.append(session, turn(i));
    });
    // One commit rewrites the pages it touched once; twenty commits write them twenty times.
    expect(oneTick).toBeGreaterThan(0);
    expect(oneTick * 4).toBeLessThan(oneEach);
  });

  it('answers an append before writing it, and writes it after the tick', async () => {
    const file = freshFile();
    const db = await openSqliteDatabase(file);
    try {
      const ids = db.conversations.append('later', turn(1));
      expect(committedRows(file)).toBe(0);
      expect(await ids).toHaveLength(2);
      expect(committedRows(file)).toBe(2);
    } finally {
      await db.close();
    }
  });

  it('a load, a compaction and a clear see the appends still waiting', async () => {
    const db = await openSqliteDatabase(freshFile());
    try {
      void db.conversations.append('mine', turn(1));
      const loaded = await db.conversations.load('mine', 10);
      expect(loaded.messages.map((m) => m.content)).toEqual(['question 1', 'answer 1']);

      const appended = db.conversations.append('mine', turn(2));
      await db.conversations.summarise('mine', Number.MAX_SAFE_INTEGER, {
        content: 'summary of both turns',
        origin: null,
      });
      expect(await appended).toHaveLength(2);
      const summarised = await db.conversations.load('mine', 10);
      expect(summarised.messages).toEqual([]);
      expect(summarised.summary?.content).toBe('summary of both turns');

      void db.conversations.append('mine', turn(3));
      // The summary and the waiting turn: nothing is left behind by the clear.
      expect(await db.conversations.clear('mine')).toBe(3);
      expect(await db.conversations.load('mine', 10)).toMatchObject({
        summary: null,
        messages: [],
      });
    } finally {
      await db.close();
    }
  });

  it('writes the appends still waiting when the database is closed', async () => {
    const file = freshFile();
    const db = await openSqliteDatabase(file);
    const ids = db.conversations.append('closing', turn(1));
    await db.close();
    expect(await ids).toHaveLength(2);
    expect(committedRows(file)).toBe(2);
    const reopened = await openSqliteDatabase(file);
    try {
      const loaded = await reopened.conversations.load('closing', 10);
      expect(loaded.messages.map((m) => m.content)).toEqual(['question 1', 'answer 1']);
    } finally {
      await reopened.close();
    }
  });

  it('an append the database refuses fails alone; the others of its tick are written', async () => {
    const file = freshFile();
    const db = await openSqliteDatabase(file);
    try {
      const refused = db.conversations.append('bad', [
        // A role the table's CHECK constraint refuses (the port's type would not allow it).
        { role: 'narrator' as 'user', content: 'refused', origin: null },
      ]);
      const kept = db.conversations.append('good', turn(1));
      await expect(refused).rejects.toThrow(/CHECK constraint/);
      expect(await kept).toHaveLength(2);
      expect(committedRows(file)).toBe(2);
      expect((await db.conversations.load('bad', 10)).messages).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('refuses a malformed origin at once, before anything is queued', async () => {
    const db = await openSqliteDatabase(freshFile());
    try {
      const forged = db.conversations.append('forged', [
        {
          role: 'user',
          content: 'hello',
          origin: { trust: 'sort of', sources: [] } as never,
        },
      ]);
      await expect(forged).rejects.toThrow();
      expect((await db.conversations.load('forged', 10)).messages).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
