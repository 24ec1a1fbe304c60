/**
 * The behaviour every `ShortTermStore` adapter must show, as a vitest suite. An adapter's test
 * calls `runShortTermConformance(name, create, options)`; `create(clock, limits)` must return a
 * new, EMPTY store that reads time from `clock.now` (so expiry can be tested without sleeping)
 * and applies `limits` (its byte caps, and the hook told of what they refuse or evict). A test
 * an adapter cannot pass is skipped only with a stated reason.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultItemOrigin } from '../origin.ts';
import type { MemoryRole, ShortTermItem, ShortTermStore } from '../ports.ts';
import {
  ShortTermItemTooLarge,
  type OnShortTermDropped,
  type ShortTermDropReason,
} from './rules.ts';

/** The byte caps every store under test is created with, and the hook its drops go to. */
export interface ShortTermTestLimits {
  /** Largest item content, in UTF-8 bytes. */
  maxItemBytes: number;
  /** The byte budget of everything a store holds in the gateway's own memory. */
  maxStoreBytes: number;
  onDropped: OnShortTermDropped;
}

/** Small enough to reach in a test, large enough for every other case of the suite. */
const TEST_MAX_ITEM_BYTES = 32_768;
const TEST_MAX_STORE_BYTES = 524_288;

/** A clock the test moves by hand. Starts at the real time so server-side TTLs stay sane. */
export interface TestClock {
  now: () => number;
  advance: (ms: number) => void;
}

export function createTestClock(start = Date.now()): TestClock {
  let current = start;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
  };
}

export interface ShortTermConformanceOptions {
  /** Tests this adapter cannot pass, each group with the reason (shown in the test name). */
  skip?: { reason: string; tests: string[] }[];
  /** The kind the store must report; either kind is accepted when omitted. */
  kind?: ShortTermStore['kind'];
  /** The per-session item cap the store was created with; default 500. */
  maxItemsPerSession?: number;
}

let sequence = 0;

/**
 * A well-formed item; `content` defaults to something unique, `origin` to the default of its
 * role (what a store returns for an item added without one).
 */
export function makeItem(
  sessionId: string,
  overrides: Partial<Omit<ShortTermItem, 'sessionId'>> = {},
): ShortTermItem {
  sequence += 1;
  const role: MemoryRole = overrides.role ?? 'user';
  return {
    id: overrides.id ?? `item-${sequence}`,
    sessionId,
    role,
    content: overrides.content ?? `content number ${sequence}`,
    contentHash: overrides.contentHash ?? sequence.toString(16).padStart(64, '0'),
    createdAt: overrides.createdAt ?? 1_750_000_000_000 + sequence,
    origin: overrides.origin ?? defaultItemOrigin(role),
  };
}

const contents = (items: ShortTermItem[]): string[] => items.map((item) => item.content);

export function runShortTermConformance(
  name: string,
  create: (clock: TestClock, limits: ShortTermTestLimits) => Promise<ShortTermStore>,
  options: ShortTermConformanceOptions = {},
): void {
  const skipped = new Map<string, string>();
  for (const group of options.skip ?? []) {
    if (group.reason.trim() === '') throw new Error('a skipped conformance test needs a reason');
    for (const test of group.tests) skipped.set(test, group.reason);
  }
  const defined = new Set<string>();
  const test = (title: string, body: () => Promise<void>): void => {
    defined.add(title);
    const reason = skipped.get(title);
    if (reason === undefined) it(title, body);
    else it.skip(`${title} (skipped: ${reason})`, body);
  };
  const cap = options.maxItemsPerSession ?? 500;

  describe(`ShortTermStore conformance: ${name}`, () => {
    let clock: TestClock;
    let store: ShortTermStore;
    let dropped: Record<ShortTermDropReason, number>;
    const ttl = 60;

    const addAll = async (items: ShortTermItem[], ttlSeconds = ttl): Promise<void> => {
      for (const item of items) await store.add(item, ttlSeconds);
    };

    beforeEach(async () => {
      clock = createTestClock();
      dropped = { item_bytes: 0, store_bytes: 0 };
      store = await create(clock, {
        maxItemBytes: TEST_MAX_ITEM_BYTES,
        maxStoreBytes: TEST_MAX_STORE_BYTES,
        onDropped: (reason, count) => {
          dropped[reason] += count;
        },
      });
    });

    afterEach(async () => {
      await store.close();
    });

    describe('identity and health', () => {
      test('reports its kind', async () => {
        if (options.kind === undefined) expect(['redis', 'in-process']).toContain(store.kind);
        else expect(store.kind).toBe(options.kind);
        await Promise.resolve();
      });

      test('answers ping() with true while open, false once closed; close() may be repeated', async () => {
        await expect(store.ping()).resolves.toBe(true);
        await store.close();
        await expect(store.ping()).resolves.toBe(false);
        await expect(store.close()).resolves.toBeUndefined();
      });
    });

    describe('add and recent', () => {
      test('returns a session’s items newest first, exactly as added', async () => {
        const items = [makeItem('s1'), makeItem('s1', { role: 'assistant' }), makeItem('s1')];
        await addAll(items);
        await expect(store.recent('s1', 10)).resolves.toStrictEqual([...items].reverse());
      });

      test('returns at most `limit` items, the newest ones', async () => {
        const items = Array.from({ length: 6 }, () => makeItem('s1'));
        await addAll(items);
        const recent = await store.recent('s1', 4);
        expect(recent).toStrictEqual(items.slice(2).reverse());
        await expect(store.recent('s1', 0)).resolves.toStrictEqual([]);
        await expect(store.recent('s1', 1)).resolves.toStrictEqual([items[5]]);
      });

      test('returns an empty list for a session that has nothing', async () => {
        await store.add(makeItem('somebody-else'), ttl);
        await expect(store.recent('nobody', 10)).resolves.toStrictEqual([]);
      });

      test('replaces an item added again with the same id, which becomes the newest', async () => {
        const first = makeItem('s1', { id: 'same', content: 'first version' });
        const other = makeItem('s1');
        const second = makeItem('s1', { id: 'same', content: 'second version' });
        await addAll([first, other, second]);
        await expect(store.recent('s1', 10)).resolves.toStrictEqual([second, other]);
      });

      test('keeps at most the per-session cap of items, dropping the oldest', async () => {
        const items = Array.from({ length: cap + 3 }, (_, i) => makeItem('busy', { id: `n${i}` }));
        await addAll(items);
        const recent = await store.recent('busy', cap + 100);
        expect(recent).toHaveLength(cap);
        expect(recent[0]).toStrictEqual(items.at(-1));
        expect(recent.at(-1)).toStrictEqual(items[3]);
        await expect(store.sessions()).resolves.toStrictEqual(new Map([['busy', cap]]));
      });

      test('hands out copies: changing a returned item changes nothing stored', async () => {
        const item = makeItem('s1', { content: 'original' });
        await store.add(item, ttl);
        item.content = 'changed after add';
        const [returned] = await store.recent('s1', 1);
        expect(returned?.content).toBe('original');
        if (returned) returned.content = 'changed after recent';
        await expect(store.recent('s1', 1)).resolves.toMatchObject([{ content: 'original' }]);
      });

      test('stores Unicode content unchanged', async () => {
        const samples = [
          'héllo ✓ 日本語 🔥',
          'emoji with modifiers 👩🏽‍💻 and flags 🇫🇷',
          'العربية من اليمين إلى اليسار',
          'combining: e\u0301 vs \u00e9',
          'quotes " \' ` and a backslash \\ and {"json": true}',
          'line one\nline two\ttabbed\r\n',
          '',
          'x'.repeat(20_000),
        ];
        const items = samples.map((content) => makeItem('unicode ✓ 会话', { content }));
        await addAll(items);
        const recent = await store.recent('unicode ✓ 会话', 100);
        expect(contents(recent)).toStrictEqual([...samples].reverse());
      });

      test('keeps an item’s origin, untrusted sources included', async () => {
        const origin = {
          trust: 'untrusted' as const,
          sources: [
            { kind: 'browser' as const, name: 'evil.example' },
            { kind: 'channel' as const, name: 'telegram 会话 4242' },
          ],
        };
        const item = makeItem('s1', { role: 'assistant', origin });
        await store.add(item, ttl);
        await expect(store.recent('s1', 1)).resolves.toStrictEqual([item]);
        const [returned] = await store.recent('s1', 1);
        returned?.origin?.sources.push({ kind: 'shell', name: 'changed after recent' });
        await expect(store.recent('s1', 1)).resolves.toStrictEqual([item]);
      });

      test('gives an item added without an origin the default of its role', async () => {
        const user = makeItem('s1', { role: 'user' });
        const reply = makeItem('s1', { role: 'assistant' });
        delete user.origin;
        delete reply.origin;
        await addAll([user, reply]);
        await expect(store.recent('s1', 10)).resolves.toStrictEqual([
          { ...reply, origin: { trust: 'hearth', sources: [] } },
          { ...user, origin: { trust: 'owner', sources: [] } },
        ]);
      });

      test('rejects an item with a malformed origin and stores nothing', async () => {
        const bad = makeItem('s1', {
          origin: { trust: 'owner', sources: [{ kind: 'browser', name: 'x' }] },
        });
        await expect(store.add(bad, ttl)).rejects.toThrow(TypeError);
        await expect(store.recent('s1', 10)).resolves.toStrictEqual([]);
      });

      test('rejects a TTL that is not a positive number of seconds', async () => {
        await expect(store.add(makeItem('s1'), 0)).rejects.toThrow(RangeError);
        await expect(store.add(makeItem('s1'), -5)).rejects.toThrow(RangeError);
        await expect(store.add(makeItem('s1'), Number.NaN)).rejects.toThrow(RangeError);
        await expect(store.recent('s1', 10)).resolves.toStrictEqual([]);
      });
    });

    describe('expiry (by the injected clock)', () => {
      test('an item is returned until exactly `ttl` seconds after it was written, never after', async () => {
        const item = makeItem('s1');
        await store.add(item, 30);
        clock.advance(30_000 - 1);
        await expect(store.recent('s1', 10)).resolves.toStrictEqual([item]);
        clock.advance(1);
        await expect(store.recent('s1', 10)).resolves.toStrictEqual([]);
        clock.advance(3_600_000);
        await expect(store.recent('s1', 10)).resolves.toStrictEqual([]);
      });

      test('counts the TTL from when the item was written, not from its createdAt', async () => {
        const old = makeItem('s1', { createdAt: clock.now() - 86_400_000 });
        await store.add(old, 10);
        clock.advance(9_000);
        await expect(store.recent('s1', 10)).resolves.toStrictEqual([old]);
      });

      test('items with different TTLs expire independently', async () => {
        const short = makeItem('s1', { content: 'short' });
        const long = makeItem('s1', { content: 'long' });
        const medium = makeItem('s1', { content: 'medium' });
        await store.add(short, 1);
        await store.add(long, 100);
        await store.add(medium, 0.5);
        clock.advance(500);
        await expect(store.recent('s1', 10)).resolves.toStrictEqual([long, short]);
        clock.advance(500);
        await expect(store.recent('s1', 10)).resolves.toStrictEqual([long]);
        clock.advance(99_000);
        await expect(store.recent('s1', 10)).resolves.toStrictEqual([]);
      });

      test('expired items are neither counted, nor matched, nor cleared', async () => {
        await store.add(makeItem('s1', { content: 'old secret' }), 10);
        await store.add(makeItem('s2', { content: 'old secret too' }), 10);
        clock.advance(5_000);
        await store.add(makeItem('s1', { content: 'fresh' }), 10);
        clock.advance(5_000);
        await expect(store.sessions()).resolves.toStrictEqual(new Map([['s1', 1]]));
        await expect(store.removeMatching(null, 'secret')).resolves.toBe(0);
        await expect(store.clear(null)).resolves.toBe(1);
      });

      test('a limit counts only unexpired items', async () => {
        const keep = [makeItem('s1'), makeItem('s1')];
        await addAll(keep, 100);
        await addAll([makeItem('s1'), makeItem('s1'), makeItem('s1')], 1);
        clock.advance(1_000);
        await expect(store.recent('s1', 2)).resolves.toStrictEqual([...keep].reverse());
      });
    });

    describe('removeMatching', () => {
      test('removes the session’s items containing the keyword, ignoring case', async () => {
        const keep = makeItem('s1', { content: 'we talked about Lyon' });
        await addAll([
          makeItem('s1', { content: 'I live in PARIS' }),
          keep,
          makeItem('s1', { content: 'paris is lovely' }),
          makeItem('s1', { content: 'Parisian food' }),
        ]);
        await expect(store.removeMatching('s1', 'Paris')).resolves.toBe(3);
        await expect(store.recent('s1', 10)).resolves.toStrictEqual([keep]);
      });

      test('ignores case beyond ASCII', async () => {
        await addAll([
          makeItem('s1', { content: 'ÉCOLE NORMALE' }),
          makeItem('s1', { content: 'ΣΟΦΙΑ' }),
          makeItem('s1', { content: 'unrelated' }),
        ]);
        await expect(store.removeMatching('s1', 'école')).resolves.toBe(1);
        await expect(store.removeMatching('s1', 'σοφια')).resolves.toBe(1);
        await expect(store.recent('s1', 10).then(contents)).resolves.toStrictEqual(['unrelated']);
      });

      test('touches only the given session', async () => {
        const other = makeItem('s2', { content: 'secret in s2' });
        await addAll([makeItem('s1', { content: 'secret in s1' }), other]);
        await expect(store.removeMatching('s1', 'SECRET')).resolves.toBe(1);
        await expect(store.recent('s1', 10)).resolves.toStrictEqual([]);
        await expect(store.recent('s2', 10)).resolves.toStrictEqual([other]);
      });

      test('with a null session, removes matches in every session', async () => {
        const keep = makeItem('s3', { content: 'nothing to see' });
        await addAll([
          makeItem('s1', { content: 'Secret one' }),
          makeItem('s2', { content: 'a SECRET two' }),
          makeItem('s2', { content: 'secret three' }),
          keep,
        ]);
        await expect(store.removeMatching(null, 'secret')).resolves.toBe(3);
        await expect(store.sessions()).resolves.toStrictEqual(new Map([['s3', 1]]));
        await expect(store.recent('s3', 10)).resolves.toStrictEqual([keep]);
      });

      test('treats an empty keyword as a substring of everything', async () => {
        await addAll([makeItem('s1'), makeItem('s1'), makeItem('s2')]);
        await expect(store.removeMatching('s1', '')).resolves.toBe(2);
        await expect(store.sessions()).resolves.toStrictEqual(new Map([['s2', 1]]));
      });

      test('returns 0 and changes nothing when nothing matches', async () => {
        const items = [makeItem('s1', { content: 'alpha' }), makeItem('s1', { content: 'beta' })];
        await addAll(items);
        await expect(store.removeMatching('s1', 'gamma')).resolves.toBe(0);
        await expect(store.removeMatching('nobody', 'alpha')).resolves.toBe(0);
        await expect(store.recent('s1', 10)).resolves.toStrictEqual([...items].reverse());
      });
    });

    describe('removeIds', () => {
      test('removes exactly the given items, not other items with the same text', async () => {
        const earlierQuestion = makeItem('s1', {
          content: 'same words',
          contentHash: 'a'.repeat(64),
        });
        const earlierReply = makeItem('s1', { role: 'assistant', content: 'same reply' });
        const question = makeItem('s1', { content: 'same words', contentHash: 'a'.repeat(64) });
        const reply = makeItem('s1', {
          role: 'assistant',
          content: 'same reply',
          contentHash: earlierReply.contentHash,
        });
        await addAll([earlierQuestion, earlierReply, question, reply]);
        await expect(store.removeIds('s1', [question.id, reply.id])).resolves.toBe(2);
        await expect(store.recent('s1', 10)).resolves.toStrictEqual([
          earlierReply,
          earlierQuestion,
        ]);
      });

      test('touches only the given session, even when another session holds the same ids', async () => {
        const mine = makeItem('s1', { id: 'shared-id' });
        const theirs = makeItem('s2', { id: 'shared-id' });
        await addAll([mine, theirs]);
        await expect(store.removeIds('s1', ['shared-id'])).resolves.toBe(1);
        await expect(store.recent('s1', 10)).resolves.toStrictEqual([]);
        await expect(store.recent('s2', 10)).resolves.toStrictEqual([theirs]);
        await expect(store.sessions()).resolves.toStrictEqual(new Map([['s2', 1]]));
      });

      test('counts only items it held: unknown, repeated, expired or no ids remove nothing more', async () => {
        const kept = makeItem('s1');
        const gone = makeItem('s1');
        await addAll([gone]);
        clock.advance(30_000);
        await addAll([kept]);
        clock.advance(31_000);
        const fresh = makeItem('s1');
        await addAll([fresh]);
        await expect(store.removeIds('s1', [])).resolves.toBe(0);
        await expect(store.removeIds('s1', ['no-such-id', gone.id])).resolves.toBe(0);
        await expect(store.removeIds('nobody', [kept.id])).resolves.toBe(0);
        await expect(store.removeIds('s1', [fresh.id, fresh.id])).resolves.toBe(1);
        await expect(store.recent('s1', 10)).resolves.toStrictEqual([kept]);
      });
    });

    describe('byte caps', () => {
      test('refuses an item whose content is over the per-item byte cap, stores nothing and counts it', async () => {
        const kept = makeItem('s1', { id: 'same', content: 'the earlier version' });
        await store.add(kept, ttl);
        const exact = makeItem('s1', { content: 'x'.repeat(TEST_MAX_ITEM_BYTES) });
        await store.add(exact, ttl);
        const over = makeItem('s1', { id: 'same', content: 'x'.repeat(TEST_MAX_ITEM_BYTES + 1) });
        await expect(store.add(over, ttl)).rejects.toThrow(ShortTermItemTooLarge);
        await expect(store.add(over, ttl)).rejects.toThrow(/short_term_max_item_bytes/);
        await expect(store.recent('s1', 10)).resolves.toStrictEqual([exact, kept]);
        expect(dropped).toStrictEqual({ item_bytes: 2, store_bytes: 0 });
      });

      test('counts the cap in UTF-8 bytes, not characters', async () => {
        // Two bytes a character: half the cap in characters, one more than the cap in bytes.
        const wide = makeItem('s1', { content: 'é'.repeat(TEST_MAX_ITEM_BYTES / 2) + 'x' });
        expect(wide.content.length).toBeLessThan(TEST_MAX_ITEM_BYTES);
        await expect(store.add(wide, ttl)).rejects.toBeInstanceOf(RangeError);
        const emoji = makeItem('s1', { content: '🔥'.repeat(TEST_MAX_ITEM_BYTES / 4) });
        await store.add(emoji, ttl);
        await expect(store.recent('s1', 10)).resolves.toStrictEqual([emoji]);
        expect(dropped.item_bytes).toBe(1);
      });

      test('stays under its byte budget: the least recently written session loses its oldest items first', async () => {
        const big = (sessionId: string): ShortTermItem =>
          makeItem(sessionId, { content: 'y'.repeat(Math.floor(TEST_MAX_ITEM_BYTES * 0.9)) });
        const a1 = big('a');
        await store.add(a1, ttl);
        await store.add(big('b'), ttl);
        const a2 = big('a');
        await store.add(a2, ttl);
        // 'b' was written to less recently than 'a': it goes first, before any of 'a'.
        const most = Math.ceil(TEST_MAX_STORE_BYTES / (TEST_MAX_ITEM_BYTES * 0.9)) + 2;
        let written = 0;
        let newest: ShortTermItem | undefined;
        while ((await store.recent('b', 10)).length > 0) {
          expect(written).toBeLessThan(most);
          newest = big('c');
          await store.add(newest, ttl);
          written += 1;
        }
        await expect(store.recent('a', 10)).resolves.toStrictEqual([a2, a1]);
        expect(dropped.store_bytes).toBe(1);
        // Going on, 'a' loses its oldest item first, and the newest item is always kept.
        while ((await store.recent('a', 10)).length === 2) {
          expect(written).toBeLessThan(2 * most);
          newest = big('c');
          await store.add(newest, ttl);
          written += 1;
        }
        await expect(store.recent('a', 10)).resolves.toStrictEqual([a2]);
        expect(dropped.store_bytes).toBe(2);
        const [latest] = await store.recent('c', 1);
        expect(latest).toStrictEqual(newest);
        const held = [...(await store.sessions()).values()].reduce((sum, n) => sum + n, 0);
        expect(held * TEST_MAX_ITEM_BYTES * 0.9).toBeLessThanOrEqual(TEST_MAX_STORE_BYTES);
        expect(dropped.item_bytes).toBe(0);
      });

      test('frees the bytes of what is cleared, removed or expired', async () => {
        const big = (sessionId: string, content = 'z'): ShortTermItem =>
          makeItem(sessionId, {
            content: content.repeat(Math.floor(TEST_MAX_ITEM_BYTES * 0.9)),
          });
        // As many as fit with room to spare for what a store keeps beside the content.
        const rounds = Math.floor(TEST_MAX_STORE_BYTES / (TEST_MAX_ITEM_BYTES * 0.9 + 1_024));
        // Fill and empty the store several times over: nothing it no longer holds counts.
        for (let i = 0; i < rounds; i += 1) await store.add(big('cleared'), ttl);
        await store.clear('cleared');
        for (let i = 0; i < rounds; i += 1) await store.add(big('removed', 'q'), ttl);
        await store.removeMatching(null, 'q');
        for (let i = 0; i < rounds; i += 1) await store.add(big('expired'), 1);
        clock.advance(1_000);
        await expect(store.sessions()).resolves.toStrictEqual(new Map());
        for (let i = 0; i < rounds - 2; i += 1) await store.add(big(`kept-${i}`), ttl);
        expect(dropped.store_bytes).toBe(0);
        expect((await store.sessions()).size).toBe(rounds - 2);
      });
    });

    describe('clear and sessions', () => {
      test('clear(session) removes only that session and returns how many items it had', async () => {
        const other = makeItem('s2');
        await addAll([makeItem('s1'), makeItem('s1'), other]);
        await expect(store.clear('s1')).resolves.toBe(2);
        await expect(store.recent('s1', 10)).resolves.toStrictEqual([]);
        await expect(store.recent('s2', 10)).resolves.toStrictEqual([other]);
        await expect(store.clear('s1')).resolves.toBe(0);
      });

      test('clear(null) removes every session and returns the total', async () => {
        await addAll([makeItem('s1'), makeItem('s2'), makeItem('s2'), makeItem('s3')]);
        await expect(store.clear(null)).resolves.toBe(4);
        await expect(store.sessions()).resolves.toStrictEqual(new Map());
        await expect(store.clear(null)).resolves.toBe(0);
      });

      test('sessions() lists sessions with unexpired items and their counts', async () => {
        await expect(store.sessions()).resolves.toStrictEqual(new Map());
        await addAll([makeItem('a'), makeItem('b'), makeItem('b'), makeItem('c')]);
        await store.clear('c');
        await expect(store.sessions()).resolves.toStrictEqual(
          new Map([
            ['a', 1],
            ['b', 2],
          ]),
        );
      });

      test('keeps sessions apart, even with the same item ids and look-alike session ids', async () => {
        const ids = ['a', 'a:b', 'a:', 'A', 'd:a', 'o:a'];
        for (const sessionId of ids) {
          await store.add(
            makeItem(sessionId, { id: 'shared-id', content: `in ${sessionId}` }),
            ttl,
          );
        }
        for (const sessionId of ids) {
          await expect(store.recent(sessionId, 10).then(contents)).resolves.toStrictEqual([
            `in ${sessionId}`,
          ]);
        }
        await expect(store.clear('a')).resolves.toBe(1);
        const remaining = await store.sessions();
        expect([...remaining.keys()].sort()).toStrictEqual(['A', 'a:', 'a:b', 'd:a', 'o:a']);
      });
    });

    // Nested blocks are collected after this one returns: the titles are all known once tests run.
    it('skips only tests it has (a misspelt skip would hide nothing and pass silently)', () => {
      const unknown = [...skipped.keys()].filter((title) => !defined.has(title));
      expect(unknown, 'skip names an unknown conformance test').toStrictEqual([]);
    });
  });
}
