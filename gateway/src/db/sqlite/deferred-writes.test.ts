/**
 * The chat's writes after a turn (history rows, the generation's usage row) share one
 * transaction, also when they are queued a check phase apart; reads and closing the database
 * write what is waiting first.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageHourRow } from '../../usage/ports.ts';
import { deferredWrites } from './deferred-writes.ts';
import { openSqliteDatabase } from './open-sqlite.ts';

let folder = '';
let files = 0;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'hearth-sqlite-deferred-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const freshFile = (): string => join(folder, `deferred-${(files += 1)}.db`);

const usage = (hour: number): UsageHourRow => ({
  hour,
  provider: 'openai',
  model: 'gpt-test',
  input_tokens: 10,
  output_tokens: 2,
  cost_usd: 0.5,
  requests: 1,
  unpriced: 0,
});

/** Rows of a table as another connection sees them (what is committed). */
function committed(file: string, table: string): number {
  const reader = new BetterSqlite3(file, { readonly: true });
  try {
    return reader.prepare(`select count(*) from ${table}`).pluck().get() as number;
  } finally {
    reader.close();
  }
}

describe('deferred writes', () => {
  it('runs the writes of one tick in one transaction, in order, after the tick', async () => {
    const client = new BetterSqlite3(':memory:');
    try {
      const writes = deferredWrites(client);
      const seen: [number, boolean][] = [];
      const results = [1, 2, 3].map((n) =>
        writes.defer(() => {
          seen.push([n, client.inTransaction]);
          return n * 10;
        }),
      );
      expect(seen).toEqual([]);
      expect(await Promise.all(results)).toEqual([10, 20, 30]);
      expect(seen).toEqual([
        [1, true],
        [2, true],
        [3, true],
      ]);
    } finally {
      client.close();
    }
  });

  it('a write that throws fails alone; the others of its tick are kept', async () => {
    const client = new BetterSqlite3(':memory:');
    try {
      client.exec('create table t (n integer)');
      const writes = deferredWrites(client);
      const insert = client.prepare('insert into t values (?)');
      const first = writes.defer(() => insert.run(1).changes);
      const bad = writes.defer(() => {
        insert.run(2);
        throw new Error('refused');
      });
      const last = writes.defer(() => insert.run(3).changes);
      await expect(bad).rejects.toThrow('refused');
      expect([await first, await last]).toEqual([1, 1]);
      expect(client.prepare('select n from t order by n').pluck().all()).toEqual([1, 3]);
    } finally {
      client.close();
    }
  });

  it('flush writes what is waiting at once', async () => {
    const client = new BetterSqlite3(':memory:');
    try {
      const writes = deferredWrites(client);
      let written = false;
      const done = writes.defer(() => (written = true));
      writes.flush();
      expect(written).toBe(true);
      expect(await done).toBe(true);
    } finally {
      client.close();
    }
  });

  it('commits a usage row and history rows of one tick together, after the tick', async () => {
    const file = freshFile();
    const db = await openSqliteDatabase(file);
    try {
      const added = db.usageHistory.add(usage(3600));
      const appended = db.conversations.append('s', [
        { role: 'user', content: 'hello', origin: null },
      ]);
      expect(committed(file, 'usage_hourly')).toBe(0);
      expect(committed(file, 'conversation_messages')).toBe(0);
      await Promise.all([added, appended]);
      expect(committed(file, 'usage_hourly')).toBe(1);
      expect(committed(file, 'conversation_messages')).toBe(1);
    } finally {
      await db.close();
    }
  });

  it("commits a turn's usage row and its history rows, queued a check phase later, together", async () => {
    // As a chat turn queues them: the usage row when the model answers, the history rows from
    // a setImmediate once the reply is sent (agent/pipeline.ts afterReply).
    const file = freshFile();
    const db = await openSqliteDatabase(file);
    try {
      const added = db.usageHistory.add(usage(3600));
      // In an array: a promise resolved with a promise would wait for it.
      const [appended] = await new Promise<[Promise<unknown>]>((resolve) =>
        setImmediate(() =>
          resolve([db.conversations.append('s', [{ role: 'user', content: 'hi', origin: null }])]),
        ),
      );
      expect(committed(file, 'usage_hourly')).toBe(0);
      await Promise.all([added, appended]);
      expect(committed(file, 'usage_hourly')).toBe(1);
      expect(committed(file, 'conversation_messages')).toBe(1);
    } finally {
      await db.close();
    }
  });

  it('writes queued in two check phases share one transaction', async () => {
    const file = freshFile();
    const client = new BetterSqlite3(file);
    try {
      client.exec('create table t (n integer)');
      const writes = deferredWrites(client);
      const insert = client.prepare('insert into t values (?)');
      const first = writes.defer(() => insert.run(1).changes);
      // Seen from another connection while the second write runs: 0 when the first is not
      // committed yet (one transaction), 1 when it was committed on its own.
      const second = new Promise<number>((resolve) =>
        setImmediate(() => resolve(writes.defer(() => committed(file, 't')))),
      );
      expect(await first).toBe(1);
      expect(await second).toBe(0);
      expect(committed(file, 't')).toBe(1);
    } finally {
      client.close();
    }
  });

  it('a usage read or prune sees the rows still waiting', async () => {
    const db = await openSqliteDatabase(freshFile());
    try {
      void db.usageHistory.add(usage(3600));
      void db.usageHistory.add(usage(3600));
      const rows = await db.usageHistory.range(0, 7200);
      expect(rows).toEqual([
        { ...usage(3600), input_tokens: 20, output_tokens: 4, cost_usd: 1, requests: 2 },
      ]);
      void db.usageHistory.add(usage(7200));
      expect(await db.usageHistory.prune(10_800)).toBe(2);
    } finally {
      await db.close();
    }
  });

  it('writes the usage rows still waiting when the database is closed', async () => {
    const file = freshFile();
    const db = await openSqliteDatabase(file);
    const added = db.usageHistory.add(usage(3600));
    await db.close();
    await added;
    expect(committed(file, 'usage_hourly')).toBe(1);
  });

  it('a usage row the database refuses is reported on its promise', async () => {
    const db = await openSqliteDatabase(freshFile());
    try {
      // Not the start of an hour: the table's CHECK constraint refuses it.
      await expect(db.usageHistory.add(usage(3601))).rejects.toThrow(/CHECK constraint/);
      expect(await db.usageHistory.range(0, 7200)).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
