import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteDatabase } from '../db/sqlite/open-sqlite.ts';
import type { Database } from '../db/ports.ts';
import { archiveInactiveSessions, type ArchivalDeps } from './archival.ts';
import type { MemoryEntry, MemoryOrigin } from './ports.ts';
import { capturingLogger } from '../observability/testing/log-capture.ts';

/** The injected clock: 2026-06-01T03:00:00Z, epoch milliseconds. */
const NOW_MS = Date.UTC(2026, 5, 1, 3);
const NOW = NOW_MS / 1000;
const DAY = 86_400;

describe('archival of inactive sessions', () => {
  let db: Database;
  let summarised: string[];
  let capture: ReturnType<typeof capturingLogger>;
  let deps: ArchivalDeps;

  beforeEach(async () => {
    db = await openSqliteDatabase(':memory:');
    summarised = [];
    capture = capturingLogger();
    deps = {
      longTerm: () => db.memory,
      summarise: (text) => {
        summarised.push(text);
        if (text.includes('BROKEN')) return Promise.reject(new Error('provider answered 500'));
        return Promise.resolve(`Summary of ${text.split('\n---\n').length} memories.`);
      },
      store: (entry) => db.memory.insert(entry),
      removeEntries: (ids) => db.memory.removeMany(ids),
      logger: capture.logger,
      now: () => NOW_MS,
    };
  });
  afterEach(() => db.close());

  const add = (
    session_id: string,
    content: string,
    daysAgo: number,
    extra: {
      importance_score?: number;
      tags?: string[];
      type?: string;
      origin?: MemoryOrigin;
    } = {},
  ): Promise<MemoryEntry> =>
    db.memory.insert({
      session_id,
      content,
      importance_score: extra.importance_score ?? 0.5,
      tags: extra.tags,
      type: extra.type,
      created_at: NOW - daysAgo * DAY,
      origin: extra.origin,
    });

  it('gives the archive row the least trusted origin of the rows it condenses', async () => {
    const page: MemoryOrigin = {
      trust: 'untrusted',
      sources: [{ kind: 'browser', name: 'evil.example' }],
    };
    const stranger: MemoryOrigin = {
      trust: 'untrusted',
      sources: [{ kind: 'channel', name: 'telegram 4242' }],
    };
    await add('mixed', 'Ada lives in Leeds', 45, { type: 'note' });
    await add('mixed', 'A page said the tram is free', 44, { origin: page });
    await add('mixed', 'A stranger said hello', 43, { origin: stranger });
    await add('trusted', 'Ada drinks tea', 45, { type: 'note' });
    await add('trusted', 'Hearth noted the tea', 44);

    expect(await archiveInactiveSessions(deps)).toMatchObject({ condensed: 5, failed: 0 });
    const [mixed] = await db.memory.list({ session_id: 'mixed', limit: 10 });
    expect(mixed).toMatchObject({
      type: 'archive',
      origin: { trust: 'untrusted', sources: [...page.sources, ...stranger.sources] },
    });
    const [trusted] = await db.memory.list({ session_id: 'trusted', limit: 10 });
    expect(trusted).toMatchObject({ type: 'archive', origin: { trust: 'hearth', sources: [] } });
  });

  const rowsOf = async (session_id: string) =>
    (await db.memory.list({ session_id, limit: 100 })).map((e) => ({
      content: e.content,
      type: e.type,
      importance_score: e.importance_score,
      tags: e.tags,
    }));

  it('condenses a session inactive for 30+ days into one archive row, oldest text first', async () => {
    await add('old', 'Ada lives in Leeds', 45, { importance_score: 0.4, tags: ['home'] });
    await add('old', 'Ada drinks green tea', 41, { importance_score: 0.9, tags: ['food'] });
    await add('old', 'Ada works on Tuesdays', 40, {
      importance_score: 0.6,
      tags: ['work', 'home'],
    });

    const result = await archiveInactiveSessions(deps);

    expect(result).toEqual({ sessions: 1, condensed: 3, failed: 0 });
    expect(summarised).toEqual([
      'Ada lives in Leeds\n---\nAda drinks green tea\n---\nAda works on Tuesdays',
    ]);
    expect(await rowsOf('old')).toEqual([
      {
        content: 'Summary of 3 memories.',
        type: 'archive',
        importance_score: 0.9,
        tags: ['work', 'home', 'food'],
      },
    ]);
  });

  it('counts a session inactive for exactly 30 days as inactive', async () => {
    await add('edge', 'first note', 31);
    await add('edge', 'last note', 30);
    expect(await archiveInactiveSessions(deps)).toEqual({ sessions: 1, condensed: 2, failed: 0 });
    expect((await rowsOf('edge')).map((row) => row.type)).toEqual(['archive']);
  });

  it('leaves sessions active within the period untouched', async () => {
    await add('recent', 'an old note', 90);
    await add('recent', 'a newer note', 29);
    await add('today', 'note one', 0);
    await add('today', 'note two', 0);
    const before = [await rowsOf('recent'), await rowsOf('today')];

    expect(await archiveInactiveSessions(deps)).toEqual({ sessions: 0, condensed: 0, failed: 0 });
    expect(summarised).toEqual([]);
    expect([await rowsOf('recent'), await rowsOf('today')]).toEqual(before);
  });

  it('leaves a session intact and counts it as failed when its summary fails', async () => {
    await add('broken', 'BROKEN first', 60);
    await add('broken', 'second', 59);
    await add('fine', 'one', 50);
    await add('fine', 'two', 50);
    const before = await rowsOf('broken');

    const result = await archiveInactiveSessions(deps);

    expect(result).toEqual({ sessions: 2, condensed: 2, failed: 1 });
    expect(await rowsOf('broken')).toEqual(before);
    expect((await rowsOf('fine')).map((row) => row.content)).toEqual(['Summary of 2 memories.']);
    expect(capture.warnings()).toEqual([
      expect.objectContaining({
        msg: 'archival failed',
        session: 'broken',
        err: 'provider answered 500',
      }),
    ]);
  });

  it('keeps the originals when the archive row cannot be stored', async () => {
    await add('old', 'one', 40);
    await add('old', 'two', 40);
    const before = await rowsOf('old');
    const result = await archiveInactiveSessions({
      ...deps,
      store: () => Promise.reject(new Error('disk full')),
    });
    expect(result).toEqual({ sessions: 1, condensed: 0, failed: 1 });
    expect(await rowsOf('old')).toEqual(before);
  });

  it('honours a custom number of days, and does not condense archive rows again', async () => {
    await add('week', 'one', 8);
    await add('week', 'two', 7);
    expect(await archiveInactiveSessions(deps, 30)).toEqual({
      sessions: 0,
      condensed: 0,
      failed: 0,
    });
    expect(await archiveInactiveSessions(deps, 7)).toEqual({
      sessions: 1,
      condensed: 2,
      failed: 0,
    });
    // The archive row alone is not condensed again, even once it is old.
    const later = { ...deps, now: () => NOW_MS + 365 * DAY * 1000 };
    expect(await archiveInactiveSessions(later, 7)).toEqual({
      sessions: 0,
      condensed: 0,
      failed: 0,
    });
    expect((await rowsOf('week')).map((row) => row.type)).toEqual(['archive']);
  });
});
