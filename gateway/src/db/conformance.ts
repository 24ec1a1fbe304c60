/**
 * The behaviour every `Database` adapter must show, as a vitest suite. An adapter's test calls
 * `runDatabaseConformance(name, open, expected)`; `open` must return a new handle on the SAME
 * store each time (same file, same PostgreSQL database), so that durability across close and
 * reopen can be checked. Each test starts from an emptied store.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AllowlistEntry, Database, DatabaseKind } from './database.ts';
import { storedSessionsConformance } from './stored-sessions-conformance.ts';

export interface ConformanceExpectations {
  kind: DatabaseKind;
  /** The exact `location` the adapter must report (password already removed). */
  location: string;
}

const jsonValues: [label: string, value: unknown][] = [
  ['a nested object', { model: 'gpt', limits: { tokens: 4096, tools: ['shell', 'web'] } }],
  ['an array', [1, 'two', { three: 3 }, null]],
  ['an integer', 42],
  ['a negative fraction', -3.25],
  ['zero', 0],
  ['true', true],
  ['false', false],
  ['a string', 'hello'],
  ['an empty string', ''],
  ['a string that looks like a number', '123'],
  ['a string that looks like JSON', '{"a":1}'],
  ['a non-ASCII string', 'héllo ✓ 日本語 🔥'],
  ['null', null],
];

const epochSeconds = (): number => Math.floor(Date.now() / 1000);

async function emptyStore(db: Database): Promise<void> {
  for (const key of Object.keys(await db.settings.all())) await db.settings.delete(key);
  for (const entry of await db.allowlist.list()) await db.allowlist.remove(entry.id);
  for (const channel of ['conformance-a', 'conformance-b']) await db.channels.forget(channel);
  await db.usageHistory.prune(Number.MAX_SAFE_INTEGER);
}

export function runDatabaseConformance(
  name: string,
  open: () => Promise<Database>,
  expected?: ConformanceExpectations,
): void {
  describe(`Database conformance: ${name}`, () => {
    let handles: Database[] = [];
    let db: Database;

    const openHandle = async (): Promise<Database> => {
      const handle = await open();
      handles.push(handle);
      return handle;
    };

    beforeEach(async () => {
      db = await openHandle();
      await emptyStore(db);
    });

    afterEach(async () => {
      const toClose = handles;
      handles = [];
      await Promise.all(toClose.map((handle) => handle.close()));
    });

    describe('identity and health', () => {
      it('reports its kind and where it lives', () => {
        if (expected === undefined) {
          expect(['sqlite', 'postgresql']).toContain(db.kind);
          expect(db.location).not.toBe('');
        } else {
          expect(db.kind).toBe(expected.kind);
          expect(db.location).toBe(expected.location);
        }
      });

      it('never shows a password in its location', () => {
        expect(db.location).not.toMatch(/:\/\/[^/@]*:[^/@]*@/);
        expect(db.location).not.toMatch(/password=/i);
      });

      it('says how memory search finds its rows, and why not through an index', () => {
        const { indexed, method, reason } = db.keywordSearch;
        expect(['fts5-trigram', 'pg_trgm', 'scan']).toContain(method);
        expect(indexed).toBe(method !== 'scan');
        if (!indexed) expect(reason).toMatch(/\S/);
      });

      it('answers ping() with true while open', async () => {
        await expect(db.ping()).resolves.toBe(true);
      });

      it('answers ping() with false once closed, and close() may be repeated', async () => {
        await db.close();
        await expect(db.ping()).resolves.toBe(false);
        await expect(db.close()).resolves.toBeUndefined();
      });
    });

    describe('settings', () => {
      it('returns undefined for a key that was never set', async () => {
        await expect(db.settings.get('never.set')).resolves.toBeUndefined();
      });

      it.each(jsonValues)('stores and returns %s unchanged', async (_label, value) => {
        await db.settings.set('probe', value);
        await expect(db.settings.get('probe')).resolves.toStrictEqual(value);
        await expect(db.settings.all()).resolves.toStrictEqual({ probe: value });
      });

      it('keeps a stored null distinct from a missing key', async () => {
        await db.settings.set('nothing', null);
        await expect(db.settings.get('nothing')).resolves.toBeNull();
        await expect(db.settings.get('missing')).resolves.toBeUndefined();
        await expect(db.settings.all()).resolves.toStrictEqual({ nothing: null });
      });

      it('overwrites the value of an existing key', async () => {
        await db.settings.set('ui.theme', 'dark');
        await db.settings.set('ui.theme', { name: 'light', contrast: 2 });
        await expect(db.settings.get('ui.theme')).resolves.toStrictEqual({
          name: 'light',
          contrast: 2,
        });
        await expect(db.settings.all()).resolves.toStrictEqual({
          'ui.theme': { name: 'light', contrast: 2 },
        });
      });

      it('treats keys as exact, case-sensitive strings', async () => {
        await db.settings.set('Model', 'upper');
        await db.settings.set('model', 'lower');
        await db.settings.set('model ', 'trailing space');
        await expect(db.settings.get('Model')).resolves.toBe('upper');
        await expect(db.settings.get('model')).resolves.toBe('lower');
        await expect(db.settings.get('model ')).resolves.toBe('trailing space');
      });

      it('delete() removes an existing key and returns true', async () => {
        await db.settings.set('keep', 1);
        await db.settings.set('drop', 2);
        await expect(db.settings.delete('drop')).resolves.toBe(true);
        await expect(db.settings.get('drop')).resolves.toBeUndefined();
        await expect(db.settings.all()).resolves.toStrictEqual({ keep: 1 });
      });

      it('delete() returns false for an unknown key', async () => {
        await db.settings.set('keep', 1);
        await expect(db.settings.delete('unknown')).resolves.toBe(false);
        await expect(db.settings.all()).resolves.toStrictEqual({ keep: 1 });
      });

      it('all() returns an empty object when nothing is stored', async () => {
        await expect(db.settings.all()).resolves.toStrictEqual({});
      });

      it('all() returns every key with its value', async () => {
        await db.settings.set('a.number', 7);
        await db.settings.set('a.flag', false);
        await db.settings.set('a.text', 'x');
        await db.settings.set('a.list', ['p', 'q']);
        await db.settings.set('a.null', null);
        await expect(db.settings.all()).resolves.toStrictEqual({
          'a.number': 7,
          'a.flag': false,
          'a.text': 'x',
          'a.list': ['p', 'q'],
          'a.null': null,
        });
      });

      it('rejects a value JSON cannot represent and stores nothing', async () => {
        await expect(db.settings.set('bad', undefined)).rejects.toThrow(TypeError);
        await expect(db.settings.get('bad')).resolves.toBeUndefined();
      });
    });

    describe('allowlist', () => {
      it('starts empty', async () => {
        await expect(db.allowlist.list()).resolves.toStrictEqual([]);
      });

      it('add() returns the stored entry with an integer id and created_at in epoch seconds', async () => {
        const before = epochSeconds();
        const entry = await db.allowlist.add({ pattern: 'git', arg_pattern: '^(status|log)\\b' });
        const after = epochSeconds();

        expect(Object.keys(entry).sort()).toStrictEqual([
          'arg_pattern',
          'created_at',
          'directory',
          'id',
          'pattern',
        ]);
        expect(Number.isInteger(entry.id)).toBe(true);
        expect(entry.id).toBeGreaterThan(0);
        expect(entry.pattern).toBe('git');
        expect(entry.arg_pattern).toBe('^(status|log)\\b');
        expect(Number.isInteger(entry.created_at)).toBe(true);
        expect(entry.created_at).toBeGreaterThanOrEqual(before);
        expect(entry.created_at).toBeLessThanOrEqual(after);
      });

      it('add() stores arg_pattern as null when it is omitted or null', async () => {
        const omitted = await db.allowlist.add({ pattern: 'ls' });
        const explicit = await db.allowlist.add({ pattern: 'cat', arg_pattern: null });
        expect(omitted.arg_pattern).toBeNull();
        expect(explicit.arg_pattern).toBeNull();
        const listed = await db.allowlist.list();
        expect(listed.map((entry) => entry.arg_pattern)).toStrictEqual([null, null]);
      });

      it('add() stores the directory an entry is limited to, null when it names none', async () => {
        const limited = await db.allowlist.add({
          pattern: 'rm',
          arg_pattern: '^rm -rf build$',
          directory: '/srv/project',
        });
        const anywhere = await db.allowlist.add({ pattern: 'ls' });
        expect(limited.directory).toBe('/srv/project');
        expect(anywhere.directory).toBeNull();
        await expect(db.allowlist.list()).resolves.toStrictEqual([limited, anywhere]);
      });

      it('list() returns the entries in insertion order, exactly as add() returned them', async () => {
        const added: AllowlistEntry[] = [];
        for (const pattern of ['zsh', 'awk', 'make', 'b*']) {
          added.push(await db.allowlist.add({ pattern }));
        }
        const listed = await db.allowlist.list();
        expect(listed).toStrictEqual(added);
        expect(listed.map((entry) => entry.pattern)).toStrictEqual(['zsh', 'awk', 'make', 'b*']);
        const ids = listed.map((entry) => entry.id);
        expect(new Set(ids).size).toBe(ids.length);
      });

      it('remove() deletes an existing entry and returns true, leaving the others', async () => {
        const first = await db.allowlist.add({ pattern: 'git' });
        const second = await db.allowlist.add({ pattern: 'npm', arg_pattern: '^test$' });
        const third = await db.allowlist.add({ pattern: 'ls' });
        await expect(db.allowlist.remove(second.id)).resolves.toBe(true);
        await expect(db.allowlist.list()).resolves.toStrictEqual([first, third]);
      });

      it('remove() returns false for an unknown id and changes nothing', async () => {
        const entry = await db.allowlist.add({ pattern: 'git' });
        await expect(db.allowlist.remove(entry.id + 1000)).resolves.toBe(false);
        await expect(db.allowlist.remove(-1)).resolves.toBe(false);
        await expect(db.allowlist.list()).resolves.toStrictEqual([entry]);
      });

      it('remove() returns false for an entry that was already removed', async () => {
        const entry = await db.allowlist.add({ pattern: 'git' });
        await expect(db.allowlist.remove(entry.id)).resolves.toBe(true);
        await expect(db.allowlist.remove(entry.id)).resolves.toBe(false);
        await expect(db.allowlist.list()).resolves.toStrictEqual([]);
      });

      it('never reuses the id of a removed entry', async () => {
        const removed = await db.allowlist.add({ pattern: 'rm' });
        await db.allowlist.remove(removed.id);
        const next = await db.allowlist.add({ pattern: 'mv' });
        expect(next.id).toBeGreaterThan(removed.id);
      });
    });

    describe('durability and migrations', () => {
      it('keeps settings and allowlist entries across close and reopen', async () => {
        await db.settings.set('persisted', { deep: [1, 2, { three: true }] });
        await db.settings.set('nullish', null);
        const entry = await db.allowlist.add({ pattern: 'make', arg_pattern: '^build$' });
        await db.close();

        const reopened = await openHandle();
        await expect(reopened.settings.all()).resolves.toStrictEqual({
          persisted: { deep: [1, 2, { three: true }] },
          nullish: null,
        });
        await expect(reopened.allowlist.list()).resolves.toStrictEqual([entry]);
      });

      it('opens an already-migrated store again without error, sharing its data', async () => {
        await db.settings.set('shared', 'yes');
        const second = await openHandle();
        await expect(second.ping()).resolves.toBe(true);
        await expect(second.settings.get('shared')).resolves.toBe('yes');
        await second.close();
        const third = await openHandle();
        await expect(third.settings.get('shared')).resolves.toBe('yes');
      });

      it('copes with two handles opened at the same time', async () => {
        const [one, two] = await Promise.all([openHandle(), openHandle()]);
        await one.allowlist.add({ pattern: 'from-one' });
        await two.allowlist.add({ pattern: 'from-two' });
        const patterns = (await db.allowlist.list()).map((entry) => entry.pattern);
        expect(patterns).toStrictEqual(['from-one', 'from-two']);
      });
    });

    describe('channels', () => {
      const message = (
        id: string,
        at: number,
        direction: 'in' | 'out',
        channel = 'conformance-a',
      ) => ({
        id,
        channel,
        direction,
        chat_id: 'chat-1',
        user: direction === 'in' ? 'alice' : null,
        text: `text ${id} ✓`,
        timestamp: at,
        read: direction === 'out',
      });

      it('stores messages in and out, lists them newest first, and counts unread ones', async () => {
        await db.channels.addMessage(message('m1', 1_000, 'in'));
        await db.channels.addMessage(message('m2', 2_000, 'out'));
        await db.channels.addMessage(message('m3', 3_000, 'in'));
        await db.channels.addMessage(message('other', 4_000, 'in', 'conformance-b'));
        const listed = await db.channels.listMessages('conformance-a', 10);
        expect(listed.map((m) => m.id)).toEqual(['m3', 'm2', 'm1']);
        expect(listed[2]).toEqual(message('m1', 1_000, 'in'));
        expect(await db.channels.listMessages('conformance-a', 1)).toHaveLength(1);
        expect(await db.channels.counts('conformance-a')).toEqual({
          total: 3,
          unread: 2,
          in: 2,
          out: 1,
          last_at: 3_000,
        });
        expect(await db.channels.markRead('conformance-a')).toBe(2);
        expect(await db.channels.markRead('conformance-a')).toBe(0);
        expect((await db.channels.counts('conformance-a')).unread).toBe(0);
        expect((await db.channels.counts('conformance-b')).unread).toBe(1);
        expect(await db.channels.counts('nothing-here')).toEqual({
          total: 0,
          unread: 0,
          in: 0,
          out: 0,
          last_at: null,
        });
      });

      it('keeps pairings across reopen, finds them by code, and replaces them on approval', async () => {
        const pending = {
          channel: 'conformance-a',
          sender_id: '+15550001',
          code: 'K7QX2M9P',
          status: 'pending' as const,
          created_at: 5_000,
          approved_at: null,
        };
        await db.channels.savePairing(pending);
        expect(await db.channels.pairingByCode('conformance-a', 'K7QX2M9P')).toEqual(pending);
        expect(await db.channels.pairingByCode('conformance-b', 'K7QX2M9P')).toBeUndefined();
        const approved = {
          ...pending,
          code: null,
          status: 'approved' as const,
          approved_at: 6_000,
        };
        await db.channels.savePairing(approved);
        const reopened = await openHandle();
        expect(await reopened.channels.pairing('conformance-a', '+15550001')).toEqual(approved);
        expect(await reopened.channels.listPairings('conformance-a')).toEqual([approved]);
        expect(await reopened.channels.pairingByCode('conformance-a', 'K7QX2M9P')).toBeUndefined();
        expect(await reopened.channels.forget('conformance-a')).toBe(1);
        expect(await reopened.channels.listPairings('conformance-a')).toEqual([]);
      });

      it('claims a key once per channel until it expires, across reopen', async () => {
        expect(await db.channels.claimSeen('conformance-a', 'sig:1', 2_000, 1_000)).toBe(true);
        expect(await db.channels.claimSeen('conformance-a', 'sig:1', 2_000, 1_000)).toBe(false);
        // Another channel, another key: claims of their own.
        expect(await db.channels.claimSeen('conformance-b', 'sig:1', 2_000, 1_000)).toBe(true);
        expect(await db.channels.claimSeen('conformance-a', 'sig:2', 2_000, 1_000)).toBe(true);
        // Still held at its expiry; a claim that expired before `now` is free again.
        expect(await db.channels.claimSeen('conformance-a', 'sig:1', 9_000, 2_000)).toBe(false);
        expect(await db.channels.claimSeen('conformance-a', 'sig:1', 9_000, 2_001)).toBe(true);
        const reopened = await openHandle();
        expect(await reopened.channels.claimSeen('conformance-a', 'sig:1', 9_500, 8_000)).toBe(
          false,
        );
        expect(await reopened.channels.claimSeen('conformance-a', 'sig:2', 9_500, 8_000)).toBe(
          true,
        );
      });

      it('gives a key raced for by two handles to exactly one claim', async () => {
        const other = await openHandle();
        const claims = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            (i % 2 === 0 ? db : other).channels.claimSeen('conformance-a', 'race', 5_000, 1_000),
          ),
        );
        expect(claims.filter(Boolean)).toHaveLength(1);
      });

      it('prunes the claims that expired and forgets a channel’s claims with it', async () => {
        await db.channels.claimSeen('conformance-a', 'old-1', 1_100, 1_000);
        await db.channels.claimSeen('conformance-b', 'old-2', 1_200, 1_000);
        await db.channels.claimSeen('conformance-a', 'fresh', 5_000, 1_000);
        expect(await db.channels.pruneSeen(1_500)).toBe(2);
        expect(await db.channels.pruneSeen(1_500)).toBe(0);
        // Pruned keys are free, the one still held is not.
        expect(await db.channels.claimSeen('conformance-a', 'old-1', 1_100, 0)).toBe(true);
        expect(await db.channels.claimSeen('conformance-a', 'fresh', 5_000, 1_500)).toBe(false);
        await db.channels.forget('conformance-a');
        expect(await db.channels.claimSeen('conformance-a', 'fresh', 5_000, 1_500)).toBe(true);
      });

      it("recentInbound: one chat's inbound messages but the sender's, newest first", async () => {
        const from = (id: string, at: number, user: string, chat = 'group-1') => ({
          ...message(id, at, 'in'),
          chat_id: chat,
          user,
        });
        await db.channels.addMessage(from('a1', 1_000, 'alice'));
        await db.channels.addMessage(from('m1', 2_000, 'mallory'));
        await db.channels.addMessage(from('o1', 3_000, 'owner'));
        await db.channels.addMessage(from('x1', 3_500, 'mallory', 'group-2'));
        await db.channels.addMessage({
          ...from('r1', 3_600, 'ignored'),
          direction: 'out',
          user: null,
        });
        await db.channels.addMessage(from('a2', 4_000, 'alice'));
        const recent = await db.channels.recentInbound('conformance-a', 'group-1', 'owner', 10);
        expect(recent.map((m) => m.id)).toEqual(['a2', 'm1', 'a1']);
        expect(recent[1]).toEqual(from('m1', 2_000, 'mallory'));
        expect(
          (await db.channels.recentInbound('conformance-a', 'group-1', 'owner', 2)).map(
            (m) => m.id,
          ),
        ).toEqual(['a2', 'm1']);
        expect(await db.channels.recentInbound('conformance-b', 'group-1', 'owner', 10)).toEqual(
          [],
        );
        expect(await db.channels.recentInbound('conformance-a', 'group-1', 'owner', 0)).toEqual([]);
      });
    });

    describe('conversation history', () => {
      const PAGE = {
        trust: 'untrusted' as const,
        sources: [{ kind: 'browser' as const, name: 'https://evil.example/' }],
      };
      const MAIL = {
        trust: 'untrusted' as const,
        sources: [{ kind: 'channel' as const, name: 'forwarded from mallory' }],
      };
      let session: string;
      beforeEach(() => {
        session = `conformance-${Math.random().toString(36).slice(2)}`;
      });
      afterEach(async () => {
        await db.conversations.clear(session);
      });

      it('an unknown session has no history', async () => {
        expect(await db.conversations.load(session, 10)).toEqual({
          summary: null,
          messages: [],
          truncated: false,
          earlier: [],
        });
      });

      it('keeps messages in order with their origins (null: the default), across reopen', async () => {
        const before = epochSeconds();
        const ids = await db.conversations.append(session, [
          { role: 'user', content: 'read https://evil.example/ ✓', origin: null },
          { role: 'assistant', content: 'It says: run the script.', origin: PAGE },
        ]);
        expect(ids).toHaveLength(2);
        expect(ids[0]).toBeLessThan(ids[1] ?? 0);
        const [more] = await db.conversations.append(session, [
          { role: 'user', content: 'ok', origin: null },
        ]);
        expect(more).toBeGreaterThan(ids[1] ?? Infinity);
        const reopened = await openHandle();
        const loaded = await reopened.conversations.load(session, 10);
        expect(loaded.summary).toBeNull();
        expect(loaded.truncated).toBe(false);
        expect(loaded.earlier).toEqual([]);
        expect(
          loaded.messages.map(({ id, role, content, origin }) => ({ id, role, content, origin })),
        ).toEqual([
          { id: ids[0], role: 'user', content: 'read https://evil.example/ ✓', origin: null },
          { id: ids[1], role: 'assistant', content: 'It says: run the script.', origin: PAGE },
          { id: more, role: 'user', content: 'ok', origin: null },
        ]);
        for (const message of loaded.messages) {
          expect(message.created_at).toBeGreaterThanOrEqual(before);
          expect(message.created_at).toBeLessThanOrEqual(epochSeconds());
        }
        // Another session's history is its own.
        expect((await db.conversations.load(`${session}-other`, 10)).messages).toEqual([]);
      });

      it('past the limit, the newest messages and the untrusted origins of the older ones', async () => {
        await db.conversations.append(session, [
          { role: 'user', content: 'one', origin: MAIL },
          { role: 'assistant', content: 'two', origin: PAGE },
          { role: 'assistant', content: 'two again', origin: PAGE },
          { role: 'user', content: 'three', origin: { trust: 'owner', sources: [] } },
          { role: 'user', content: 'four', origin: null },
          { role: 'assistant', content: 'five', origin: null },
        ]);
        const loaded = await db.conversations.load(session, 2);
        expect(loaded.messages.map((m) => m.content)).toEqual(['four', 'five']);
        expect(loaded.truncated).toBe(true);
        expect(loaded.earlier).toHaveLength(2);
        expect(loaded.earlier).toEqual(expect.arrayContaining([PAGE, MAIL]));
        const none = await db.conversations.load(session, 0);
        expect(none.messages).toEqual([]);
        expect(none.earlier).toEqual(expect.arrayContaining([PAGE, MAIL]));
        expect(await db.conversations.load(session, 6)).toMatchObject({
          truncated: false,
          earlier: [],
        });
        // Older messages that are all trusted: truncated, no origin to carry.
        const clean = `${session}-clean`;
        await db.conversations.append(clean, [
          { role: 'user', content: 'a', origin: null },
          { role: 'assistant', content: 'b', origin: null },
        ]);
        expect(await db.conversations.load(clean, 1)).toMatchObject({
          truncated: true,
          earlier: [],
        });
        await db.conversations.clear(clean);
      });

      it('summarise() replaces the messages up to an id and the old summary, in one go', async () => {
        const ids = await db.conversations.append(session, [
          { role: 'user', content: 'a', origin: null },
          { role: 'assistant', content: 'b', origin: PAGE },
          { role: 'user', content: 'c', origin: null },
        ]);
        await db.conversations.summarise(session, ids[1] ?? 0, {
          content: 'They read a page.',
          origin: PAGE,
        });
        let loaded = await db.conversations.load(session, 10);
        expect(loaded.summary).toMatchObject({
          role: 'summary',
          content: 'They read a page.',
          origin: PAGE,
        });
        expect(loaded.messages.map((m) => m.content)).toEqual(['c']);
        await db.conversations.summarise(session, ids[2] ?? 0, {
          content: 'Later summary.',
          origin: null,
        });
        loaded = await db.conversations.load(session, 10);
        expect(loaded.summary).toMatchObject({ content: 'Later summary.', origin: null });
        expect(loaded.messages).toEqual([]);
      });

      it('clear() deletes the session, summary included, and counts the rows', async () => {
        await db.conversations.append(session, [
          { role: 'user', content: 'a', origin: null },
          { role: 'assistant', content: 'b', origin: PAGE },
        ]);
        await db.conversations.summarise(session, 0, { content: 's', origin: null });
        await db.conversations.append(`${session}-kept`, [
          { role: 'user', content: 'x', origin: null },
        ]);
        expect(await db.conversations.clear(session)).toBe(3);
        expect(await db.conversations.load(session, 10)).toEqual({
          summary: null,
          messages: [],
          truncated: false,
          earlier: [],
        });
        expect(await db.conversations.clear(`${session}-kept`)).toBe(1);
        expect(await db.conversations.clear(session)).toBe(0);
      });

      it('refuses a malformed origin before writing anything; reads an unreadable one as untrusted', async () => {
        await expect(
          db.conversations.append(session, [
            { role: 'user', content: 'fine', origin: null },
            {
              role: 'assistant',
              content: 'bad',
              origin: { trust: 'owner', sources: [{ kind: 'browser', name: 'x' }] },
            },
          ]),
        ).rejects.toThrow(/origin/);
        await expect(
          db.conversations.append(session, [
            {
              role: 'assistant',
              content: 'bad',
              origin: { trust: 'nobody', sources: [] } as unknown as typeof PAGE,
            },
          ]),
        ).rejects.toThrow(/origin/);
        expect((await db.conversations.load(session, 10)).messages).toEqual([]);
      });

      it('dropLastExchange() deletes the newest user message and what followed it, not the summary', async () => {
        expect(await db.conversations.dropLastExchange(session)).toBe(0);
        await db.conversations.append(session, [
          { role: 'user', content: 'first', origin: null },
          { role: 'assistant', content: 'one', origin: null },
        ]);
        await db.conversations.summarise(session, 0, { content: 'gist', origin: null });
        await db.conversations.append(session, [
          { role: 'user', content: 'second', origin: null },
          { role: 'assistant', content: 'two', origin: null },
        ]);
        await db.conversations.append(`${session}-other`, [
          { role: 'user', content: 'elsewhere', origin: null },
        ]);
        expect(await db.conversations.dropLastExchange(session)).toBe(2);
        const loaded = await db.conversations.load(session, 10);
        expect(loaded.summary?.content).toBe('gist');
        expect(loaded.messages.map((m) => m.content)).toEqual(['first', 'one']);
        expect((await db.conversations.load(`${session}-other`, 10)).messages).toHaveLength(1);
        await db.conversations.clear(`${session}-other`);
      });

      it('keeps a title per session, replaced by the next; clear() removes it', async () => {
        expect(await db.conversations.titles([session])).toEqual(new Map());
        await db.conversations.setTitle(session, 'Boat names');
        await db.conversations.setTitle(session, 'Boat names, final');
        await db.conversations.setTitle(`${session}-b`, "Robert'); drop table session_titles;--");
        expect(await db.conversations.titles([session, `${session}-b`, 'nobody'])).toEqual(
          new Map([
            [session, 'Boat names, final'],
            [`${session}-b`, "Robert'); drop table session_titles;--"],
          ]),
        );
        expect(await db.conversations.titles([])).toEqual(new Map());
        await db.conversations.clear(session);
        await db.conversations.clear(`${session}-b`);
        expect(await db.conversations.titles([session, `${session}-b`])).toEqual(new Map());
      });
    });

    storedSessionsConformance(() => db);

    describe('usage history', () => {
      const row = (hour: number, model: string, tokens: number) => ({
        hour,
        provider: 'openai',
        model,
        input_tokens: tokens,
        output_tokens: 1,
        cost_usd: 0.25,
        requests: 1,
        unpriced: 0,
      });

      it('adds to an existing (hour, provider, model) row, reads a range oldest first, and prunes', async () => {
        await db.usageHistory.add(row(7200, 'b', 10));
        await db.usageHistory.add(row(3600, 'a', 5));
        await db.usageHistory.add(row(7200, 'b', 20));
        await db.usageHistory.add(row(10_800, 'a', 1));
        await expect(db.usageHistory.range(3600, 10_800)).resolves.toStrictEqual([
          row(3600, 'a', 5),
          { ...row(7200, 'b', 30), output_tokens: 2, cost_usd: 0.5, requests: 2 },
        ]);
        await expect(db.usageHistory.prune(7200)).resolves.toBe(1);
        const reopened = await openHandle();
        const hours = (await reopened.usageHistory.range(0, 20_000)).map((r) => r.hour);
        expect(hours).toStrictEqual([7200, 10_800]);
      });

      it('refuses an hour that is not on an hour boundary', async () => {
        await expect(db.usageHistory.add(row(3601, 'a', 1))).rejects.toThrow();
      });
    });
  });
}
