/**
 * The behaviour every `LongTermMemory` adapter (the `memory` of a `Database`) must show, as a
 * vitest suite. An adapter's test calls `runLongTermMemoryConformance(name, open)`; `open`
 * must return a new handle on the SAME store each time (same file, same PostgreSQL database),
 * so that durability across close and reopen can be checked. Each test starts from an empty
 * `memory_entries` table. Timestamps are epoch seconds; tests that depend on age inject them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HearthError } from '../errors.ts';
import { contentHash } from './content-hash.ts';
import { describeRetentionConformance } from './long-term-retention-conformance.ts';
import { describeSearchConformance } from './long-term-search-conformance.ts';
import { MAX_ORIGIN_SOURCES, type MemoryOrigin } from './origin.ts';
import type { LongTermMemory, MemoryEntry, NewMemoryEntry } from './ports.ts';

const DAY = 86_400;
const epochSeconds = (): number => Math.floor(Date.now() / 1000);

/** A deterministic pseudo-random unit vector (xorshift), so failures are reproducible. */
function vector(seed: number, dimensions = 384): Float32Array {
  let state = seed * 2_654_435_761 + 1;
  const values = new Float32Array(dimensions);
  for (let index = 0; index < dimensions; index += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    values[index] = (state >>> 0) / 0xffff_ffff - 0.5;
  }
  const norm = Math.hypot(...values);
  return values.map((value) => value / norm);
}

const entryKeys = [
  'content',
  'content_hash',
  'created_at',
  'id',
  'importance_score',
  'origin',
  'session_id',
  'tags',
  'type',
  'updated_at',
];

/** What the suite opens: a store holding the long-term tier (a `Database` of the db area). */
export interface LongTermStore {
  readonly memory: LongTermMemory;
  close(): Promise<void>;
}

export interface LongTermConformanceOptions {
  /**
   * Makes a row look like one written before provenance was kept: its `origin` column NULL, as
   * migration 0006_memory_origin leaves every older row (through the adapter's own SQL client).
   */
  forgetOrigin: (id: number) => Promise<void>;
}

export function runLongTermMemoryConformance(
  name: string,
  open: () => Promise<LongTermStore>,
  options: LongTermConformanceOptions,
): void {
  describe(`LongTermMemory conformance: ${name}`, () => {
    let db: LongTermStore;
    let memory: LongTermMemory;

    beforeAll(async () => {
      db = await open();
      memory = db.memory;
    });

    afterAll(async () => {
      await db.close();
    });

    beforeEach(async () => {
      await memory.removeAll();
    });

    const add = (entry: Partial<NewMemoryEntry> = {}): Promise<MemoryEntry> =>
      memory.insert({ session_id: 's1', content: 'something', importance_score: 0.5, ...entry });

    describe('insert and get', () => {
      it('insert() returns the stored entry: an integer id and every field, with defaults', async () => {
        const before = epochSeconds();
        const entry = await memory.insert({
          session_id: 'chat-1',
          content: 'The user prefers tea.',
          importance_score: 0.7,
        });
        const after = epochSeconds();

        expect(Object.keys(entry).sort()).toStrictEqual(entryKeys);
        expect(Number.isInteger(entry.id)).toBe(true);
        expect(entry.id).toBeGreaterThan(0);
        expect(entry).toMatchObject({
          session_id: 'chat-1',
          content: 'The user prefers tea.',
          content_hash: contentHash('The user prefers tea.'),
          importance_score: 0.7,
          tags: [],
          type: 'turn',
        });
        expect(entry.content_hash).toMatch(/^[0-9a-f]{64}$/);
        expect(Number.isInteger(entry.created_at)).toBe(true);
        expect(entry.created_at).toBeGreaterThanOrEqual(before);
        expect(entry.created_at).toBeLessThanOrEqual(after);
        expect(entry.updated_at).toBe(entry.created_at);
      });

      it('insert() keeps the given tags, type and created_at', async () => {
        const entry = await memory.insert({
          session_id: 'chat-1',
          content: 'Deploy on Fridays is forbidden.',
          importance_score: 1,
          tags: ['work', 'rules'],
          type: 'note',
          created_at: 1_700_000_000,
        });
        expect(entry).toMatchObject({
          tags: ['work', 'rules'],
          type: 'note',
          importance_score: 1,
          created_at: 1_700_000_000,
          updated_at: 1_700_000_000,
        });
      });

      it('insert() hashes the normalised content: spacing and letter case do not matter', async () => {
        const one = await add({ content: '  Hello,\n\tWORLD  ' });
        const two = await add({ content: 'hello, world' });
        const three = await add({ content: 'hello world' });
        expect(one.content_hash).toBe(two.content_hash);
        expect(three.content_hash).not.toBe(one.content_hash);
        expect(one.content).toBe('  Hello,\n\tWORLD  ');
      });

      it('gives every entry a new, increasing id', async () => {
        const first = await add();
        const second = await add();
        expect(second.id).toBeGreaterThan(first.id);
        await memory.remove(second.id);
        const third = await add();
        expect(third.id).toBeGreaterThan(second.id);
      });

      it('get() returns the entry exactly as insert() did', async () => {
        const entry = await add({ tags: ['a'], type: 'summary' });
        await expect(memory.get(entry.id)).resolves.toStrictEqual(entry);
      });

      it('get() returns undefined for an unknown or impossible id', async () => {
        const entry = await add();
        for (const id of [entry.id + 1000, 0, -1, 1.5, 2 ** 40, Number.NaN]) {
          await expect(memory.get(id)).resolves.toBeUndefined();
        }
      });

      it('getMany() returns the known entries in the order asked, each once', async () => {
        const a = await add({ content: 'a' });
        const b = await add({ content: 'b' });
        const c = await add({ content: 'c' });
        await expect(memory.getMany([c.id, a.id, 99_999, c.id, -4])).resolves.toStrictEqual([c, a]);
        await expect(memory.getMany([b.id])).resolves.toStrictEqual([b]);
        await expect(memory.getMany([])).resolves.toStrictEqual([]);
      });

      it('round-trips content with Unicode, emoji, newlines and quotes exactly', async () => {
        const content =
          'línea 1\nline 2\r\n\tTab — 日本語 🔥 👨‍👩‍👧 é (e\u0301) \'single\' "double" `tick` \\ %_';
        const entry = await add({ content, tags: ['ünïcode', '🏷️'] });
        expect(entry.content).toBe(content);
        const stored = await memory.get(entry.id);
        expect(stored?.content).toBe(content);
        expect(stored?.tags).toStrictEqual(['ünïcode', '🏷️']);
        expect(stored?.content_hash).toBe(contentHash(content));
      });

      it('keeps the entries across close and reopen', async () => {
        const entry = await add({ embedding: vector(7) });
        const other = await open();
        try {
          await expect(other.memory.get(entry.id)).resolves.toStrictEqual(entry);
          const [page] = await other.memory.embeddings(0, 10);
          expect(page?.embedding).toStrictEqual(vector(7));
        } finally {
          await other.close();
        }
      });
    });

    describe('origin (provenance)', () => {
      const PAGE: MemoryOrigin = {
        trust: 'untrusted',
        sources: [
          { kind: 'browser', name: 'evil.example' },
          { kind: 'mcp', name: 'files — ünïcode' },
        ],
      };
      const OWNER: MemoryOrigin = { trust: 'owner', sources: [] };
      const HEARTH: MemoryOrigin = { trust: 'hearth', sources: [] };

      it('round-trips an untrusted origin through every read', async () => {
        const entry = await add({ content: 'The page said: quokka facts', origin: PAGE });
        expect(entry.origin).toStrictEqual(PAGE);
        await expect(memory.get(entry.id)).resolves.toMatchObject({ origin: PAGE });
        await expect(memory.getMany([entry.id])).resolves.toMatchObject([{ origin: PAGE }]);
        await expect(memory.list({ limit: 10 })).resolves.toMatchObject([{ origin: PAGE }]);
        await expect(memory.search('QUOKKA', { limit: 10 })).resolves.toMatchObject([
          { origin: PAGE },
        ]);
        // Editing the text keeps where it came from.
        await expect(memory.update(entry.id, { content: 'edited quokka' })).resolves.toMatchObject({
          origin: PAGE,
        });
        const other = await open();
        try {
          await expect(other.memory.get(entry.id)).resolves.toMatchObject({ origin: PAGE });
        } finally {
          await other.close();
        }
      });

      it('without an origin stores the default of the type: a note the owner’s, the rest Hearth’s', async () => {
        await expect(add({ type: 'note' })).resolves.toMatchObject({ origin: OWNER });
        for (const type of ['turn', 'summary', 'archive', 'fact', undefined])
          await expect(add({ type })).resolves.toMatchObject({ origin: HEARTH });
        await expect(add({ type: 'summary', origin: OWNER })).resolves.toMatchObject({
          origin: OWNER,
        });
      });

      it('reads rows written before the origin column as the default of their type', async () => {
        const note = await add({ type: 'note', content: 'legacy wombat note', origin: PAGE });
        const turn = await add({ type: 'turn', content: 'legacy wombat turn', origin: PAGE });
        await options.forgetOrigin(note.id);
        await options.forgetOrigin(turn.id);
        await expect(memory.get(note.id)).resolves.toStrictEqual({ ...note, origin: OWNER });
        await expect(memory.get(turn.id)).resolves.toStrictEqual({ ...turn, origin: HEARTH });
        await expect(memory.search('legacy wombat', { limit: 10 })).resolves.toMatchObject([
          { id: turn.id, origin: HEARTH },
          { id: note.id, origin: OWNER },
        ]);
        await expect(memory.list({ limit: 10, type: 'note' })).resolves.toMatchObject([
          { origin: OWNER },
        ]);
      });

      it('rejects a malformed origin with a validation error and writes nothing', async () => {
        const bad = [
          { trust: 'stranger', sources: [] },
          { trust: 'owner', sources: [{ kind: 'browser', name: 'x' }] },
          { trust: 'untrusted', sources: [{ kind: 'radio', name: 'x' }] },
        ];
        for (const origin of bad) {
          const failure = add({ origin: origin as unknown as MemoryOrigin });
          await expect(failure).rejects.toBeInstanceOf(HearthError);
          await expect(failure).rejects.toMatchObject({ code: 'validation' });
        }
        await expect(memory.count()).resolves.toBe(0);
      });

      it('keeps at most MAX_ORIGIN_SOURCES sources, each once', async () => {
        const sources = Array.from({ length: MAX_ORIGIN_SOURCES + 4 }, (_, i) => ({
          kind: 'channel' as const,
          name: `stranger ${i % (MAX_ORIGIN_SOURCES + 2)}`,
        }));
        const entry = await add({ origin: { trust: 'untrusted', sources } });
        const stored = await memory.get(entry.id);
        expect(stored?.origin.sources).toStrictEqual(sources.slice(0, MAX_ORIGIN_SOURCES));
      });
    });

    describe('validation', () => {
      it.each([1.5, -0.1, Number.NaN, Number.POSITIVE_INFINITY])(
        'insert() rejects importance %s with a validation error and writes nothing',
        async (score) => {
          const failure = add({ importance_score: score });
          await expect(failure).rejects.toBeInstanceOf(HearthError);
          await expect(failure).rejects.toMatchObject({ code: 'validation' });
          await expect(memory.count()).resolves.toBe(0);
        },
      );

      it('accepts importance 0 and 1 exactly', async () => {
        await expect(add({ importance_score: 0 })).resolves.toMatchObject({ importance_score: 0 });
        await expect(add({ importance_score: 1 })).resolves.toMatchObject({ importance_score: 1 });
      });

      it('update() rejects importance 1.5 and leaves the entry unchanged', async () => {
        const entry = await add({ importance_score: 0.3 });
        await expect(
          memory.update(entry.id, { importance_score: 1.5, content: 'changed' }),
        ).rejects.toMatchObject({ code: 'validation' });
        await expect(memory.get(entry.id)).resolves.toStrictEqual(entry);
      });

      it('rejects a negative or fractional limit', async () => {
        await expect(memory.list({ limit: -1 })).rejects.toMatchObject({ code: 'validation' });
        await expect(memory.search('x', { limit: 1.5 })).rejects.toMatchObject({
          code: 'validation',
        });
      });
    });

    describe('list', () => {
      it('returns entries newest first (created_at, then id) up to the limit', async () => {
        const old = await add({ content: 'old', created_at: 1_000 });
        const middle = await add({ content: 'middle', created_at: 2_000 });
        const newA = await add({ content: 'new a', created_at: 3_000 });
        const newB = await add({ content: 'new b', created_at: 3_000 });
        await expect(memory.list({ limit: 10 })).resolves.toStrictEqual([newB, newA, middle, old]);
        await expect(memory.list({ limit: 2 })).resolves.toStrictEqual([newB, newA]);
        await expect(memory.list({ limit: 0 })).resolves.toStrictEqual([]);
      });

      it('filters by session, by type and by tag, together or alone', async () => {
        const a = await add({ session_id: 's1', type: 'turn', tags: ['work', 'urgent'] });
        const b = await add({ session_id: 's1', type: 'note', tags: ['work'] });
        const c = await add({ session_id: 's2', type: 'note', tags: ['homework'] });
        const d = await add({ session_id: 's2', type: 'turn', tags: [] });
        const ids = async (filter: Parameters<LongTermMemory['list']>[0]): Promise<number[]> =>
          (await memory.list(filter)).map((entry) => entry.id);

        await expect(ids({ limit: 10, session_id: 's1' })).resolves.toStrictEqual([b.id, a.id]);
        await expect(ids({ limit: 10, type: 'note' })).resolves.toStrictEqual([c.id, b.id]);
        await expect(ids({ limit: 10, type: 'turn' })).resolves.toStrictEqual([d.id, a.id]);
        await expect(ids({ limit: 10, tag: 'work' })).resolves.toStrictEqual([b.id, a.id]);
        await expect(ids({ limit: 10, tag: 'urgent' })).resolves.toStrictEqual([a.id]);
        await expect(ids({ limit: 10, tag: 'wor' })).resolves.toStrictEqual([]);
        await expect(ids({ limit: 10, session_id: 's2', tag: 'work' })).resolves.toStrictEqual([]);
        await expect(
          ids({ limit: 10, session_id: 's1', type: 'note', tag: 'work' }),
        ).resolves.toStrictEqual([b.id]);
        await expect(ids({ limit: 10, session_id: 'nobody' })).resolves.toStrictEqual([]);
      });
    });

    describeSearchConformance(() => memory);

    describeRetentionConformance(() => memory);

    describe('update', () => {
      it('changes the content, recomputes content_hash and bumps updated_at', async () => {
        const entry = await add({ content: 'first draft', created_at: epochSeconds() - DAY });
        const before = epochSeconds();
        const updated = await memory.update(entry.id, { content: 'Second  DRAFT' });
        expect(updated).toStrictEqual({
          ...entry,
          content: 'Second  DRAFT',
          content_hash: contentHash('second draft'),
          updated_at: updated?.updated_at,
        });
        expect(updated?.updated_at).toBeGreaterThanOrEqual(before);
        expect(updated?.created_at).toBe(entry.created_at);
        await expect(memory.get(entry.id)).resolves.toStrictEqual(updated);
      });

      it('changes importance and tags, leaving the other fields alone', async () => {
        const entry = await add({ content: 'keep me', tags: ['x'], type: 'note' });
        const updated = await memory.update(entry.id, {
          importance_score: 0.95,
          tags: ['y', 'z'],
        });
        expect(updated).toMatchObject({
          content: 'keep me',
          content_hash: entry.content_hash,
          type: 'note',
          importance_score: 0.95,
          tags: ['y', 'z'],
        });
        const cleared = await memory.update(entry.id, { tags: [] });
        expect(cleared?.tags).toStrictEqual([]);
        await expect(memory.list({ limit: 10, tag: 'y' })).resolves.toStrictEqual([]);
      });

      it('sets and clears the embedding', async () => {
        const entry = await add();
        await memory.update(entry.id, { embedding: vector(3, 8) });
        const [set] = await memory.embeddings(0, 10);
        expect(set?.embedding).toStrictEqual(vector(3, 8));
        await memory.update(entry.id, { embedding: null });
        await expect(memory.embeddings(0, 10)).resolves.toStrictEqual([]);
      });

      it('returns undefined for an unknown id and writes nothing', async () => {
        const entry = await add();
        await expect(memory.update(entry.id + 1000, { content: 'x' })).resolves.toBeUndefined();
        await expect(memory.update(-1, { content: 'x' })).resolves.toBeUndefined();
        await expect(memory.list({ limit: 10 })).resolves.toStrictEqual([entry]);
      });
    });

    describe('removal', () => {
      it('remove() deletes one entry: true, then false', async () => {
        const keep = await add();
        const drop = await add();
        await expect(memory.remove(drop.id)).resolves.toBe(true);
        await expect(memory.remove(drop.id)).resolves.toBe(false);
        await expect(memory.remove(0)).resolves.toBe(false);
        await expect(memory.list({ limit: 10 })).resolves.toStrictEqual([keep]);
      });

      it('removeMany() returns how many of the ids it deleted', async () => {
        const a = await add();
        const b = await add();
        const c = await add();
        await expect(memory.removeMany([])).resolves.toBe(0);
        await expect(memory.removeMany([a.id, c.id, c.id, 99_999, -1])).resolves.toBe(2);
        await expect(memory.list({ limit: 10 })).resolves.toStrictEqual([b]);
      });

      it('removeMany() copes with more ids than one statement can bind', async () => {
        const entries: MemoryEntry[] = [];
        for (let index = 0; index < 30; index += 1) entries.push(await add());
        const ids = [
          ...entries.map((entry) => entry.id),
          ...Array.from({ length: 70_000 }, (_, i) => 10_000_000 + i),
        ];
        await expect(memory.removeMany(ids)).resolves.toBe(30);
        await expect(memory.count()).resolves.toBe(0);
      });

      it('removeSession() deletes one session and returns the count', async () => {
        await add({ session_id: 'gone' });
        await add({ session_id: 'gone' });
        const stays = await add({ session_id: 'stays' });
        await expect(memory.removeSession('gone')).resolves.toBe(2);
        await expect(memory.removeSession('gone')).resolves.toBe(0);
        await expect(memory.list({ limit: 10 })).resolves.toStrictEqual([stays]);
      });

      it('removeAll() deletes everything and returns the count', async () => {
        await add({ session_id: 'a' });
        await add({ session_id: 'b' });
        await add({ session_id: 'b' });
        await expect(memory.count()).resolves.toBe(3);
        await expect(memory.removeAll()).resolves.toBe(3);
        await expect(memory.count()).resolves.toBe(0);
        await expect(memory.removeAll()).resolves.toBe(0);
      });
    });

    describe('prune', () => {
      const now = 1_800_000_000;

      it('with days, deletes the entries created before now - days', async () => {
        await add({ content: 'ten days old', created_at: now - 10 * DAY });
        const edge = await add({ content: 'exactly five days old', created_at: now - 5 * DAY });
        const recent = await add({ content: 'two days old', created_at: now - 2 * DAY });
        await expect(memory.prune({ days: 5, now })).resolves.toBe(1);
        const left = await memory.list({ limit: 10 });
        expect(left.map((entry) => entry.id)).toStrictEqual([recent.id, edge.id]);
      });

      it('with days, defaults now to the current time', async () => {
        await add({ created_at: epochSeconds() - 40 * DAY });
        const fresh = await add();
        await expect(memory.prune({ days: 30 })).resolves.toBe(1);
        await expect(memory.list({ limit: 10 })).resolves.toStrictEqual([fresh]);
      });

      it('with threshold, deletes the entries whose importance is below it', async () => {
        await add({ importance_score: 0.1 });
        const atThreshold = await add({ importance_score: 0.5 });
        const high = await add({ importance_score: 0.9 });
        await expect(memory.prune({ threshold: 0.5 })).resolves.toBe(1);
        const left = await memory.list({ limit: 10 });
        expect(left.map((entry) => entry.id)).toStrictEqual([high.id, atThreshold.id]);
      });

      it('with both, deletes only the entries that are old AND unimportant', async () => {
        await add({
          content: 'old, unimportant',
          created_at: now - 10 * DAY,
          importance_score: 0.1,
        });
        const oldImportant = await add({ created_at: now - 10 * DAY, importance_score: 0.9 });
        const newUnimportant = await add({ created_at: now, importance_score: 0.1 });
        await expect(memory.prune({ days: 5, threshold: 0.5, now })).resolves.toBe(1);
        const left = await memory.list({ limit: 10 });
        expect(left.map((entry) => entry.id)).toStrictEqual([newUnimportant.id, oldImportant.id]);
      });

      it('with neither, deletes nothing', async () => {
        await add({ created_at: 1, importance_score: 0 });
        await expect(memory.prune({})).resolves.toBe(0);
        await expect(memory.prune({ now })).resolves.toBe(0);
        await expect(memory.count()).resolves.toBe(1);
      });
    });

    describe('embeddings', () => {
      it('round-trip exactly as Float32 values', async () => {
        const special = new Float32Array([
          0,
          -0,
          1,
          -1,
          Math.fround(Math.PI),
          1.401298464324817e-45, // the smallest subnormal float32
          3.4028234663852886e38, // the largest float32
          Number.POSITIVE_INFINITY,
        ]);
        const a = await add({ embedding: vector(1) });
        const b = await add({ embedding: special });
        const page = await memory.embeddings(0, 10);
        expect(page.map((row) => row.id)).toStrictEqual([a.id, b.id]);
        expect(page[0]?.embedding).toBeInstanceOf(Float32Array);
        expect(page[0]?.embedding).toStrictEqual(vector(1));
        expect(Array.from(page[1]?.embedding ?? [])).toStrictEqual(Array.from(special));
        expect(Object.is(page[1]?.embedding[1], -0)).toBe(true);
      });

      it('page through the entries that have one, in id order, after afterId', async () => {
        const ids: number[] = [];
        for (let index = 0; index < 5; index += 1) {
          ids.push((await add({ session_id: `s${index % 2}`, embedding: vector(index, 4) })).id);
          await add({ content: 'no embedding' });
        }
        const first = await memory.embeddings(0, 2);
        expect(first).toStrictEqual([
          { id: ids[0], session_id: 's0', embedding: vector(0, 4) },
          { id: ids[1], session_id: 's1', embedding: vector(1, 4) },
        ]);
        const lastId = (page: { id: number }[]): number => page.at(-1)?.id ?? Number.NaN;
        const second = await memory.embeddings(lastId(first), 2);
        expect(second.map((row) => row.id)).toStrictEqual([ids[2], ids[3]]);
        const third = await memory.embeddings(lastId(second), 2);
        expect(third.map((row) => row.id)).toStrictEqual([ids[4]]);
        await expect(memory.embeddings(lastId(third), 2)).resolves.toStrictEqual([]);
        await expect(memory.embeddings(2 ** 40, 2)).resolves.toStrictEqual([]);
      });
    });

    describe('count and sessions', () => {
      it('count() counts every entry', async () => {
        await expect(memory.count()).resolves.toBe(0);
        await add();
        await add({ session_id: 'other' });
        await expect(memory.count()).resolves.toBe(2);
      });

      it('sessions() lists each session with its last activity and count, most recent first', async () => {
        await add({ session_id: 'alpha', created_at: 1_000 });
        await add({ session_id: 'alpha', created_at: 5_000 });
        await add({ session_id: 'beta', created_at: 3_000 });
        await add({ session_id: 'gamma', created_at: 9_000 });
        await add({ session_id: 'gamma', created_at: 2_000 });
        await add({ session_id: 'gamma', created_at: 4_000 });
        await expect(memory.sessions()).resolves.toStrictEqual([
          { session_id: 'gamma', last_active: 9_000, count: 3 },
          { session_id: 'alpha', last_active: 5_000, count: 2 },
          { session_id: 'beta', last_active: 3_000, count: 1 },
        ]);
      });

      it('sessions() is empty for an empty store', async () => {
        await expect(memory.sessions()).resolves.toStrictEqual([]);
      });
    });
  });
}
