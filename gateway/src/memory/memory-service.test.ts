import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteDatabase } from '../db/sqlite/open-sqlite.ts';
import type { Database } from '../db/ports.ts';
import { createHostStats } from '../observability/host-stats.ts';
import { silentLogger } from '../observability/logger.ts';
import { createMetrics } from '../observability/metrics.ts';
import { contentHash } from './content-hash.ts';
import { cosineSimilarity, createHashEmbedder, hashEmbed } from './embedder/hash-embedder.ts';
import { createMemoryService, type MemoryService } from './memory-service.ts';
import type { Embedder, EmbedderState, ShortTermStore, VectorStore } from './ports.ts';
import { createInProcessShortTermStore } from './short-term/in-process.ts';
import { createInMemoryVectorStore } from './vectors/in-memory.ts';

const DIMENSIONS = 64;
const OWNER = { trust: 'owner', sources: [] };
const HEARTH = { trust: 'hearth', sources: [] };
/** 2026-03-01T12:00:00Z, epoch milliseconds. */
const NOW = Date.UTC(2026, 2, 1, 12);

/**
 * An embedder whose state the test sets. While not 'available' it rejects like a missing model;
 * once 'available' it embeds like the hash embedder. It counts the embed calls it receives.
 */
function stubEmbedder(initial: EmbedderState): Embedder & { state: EmbedderState; calls: number } {
  const stub = {
    state: initial,
    get detail() {
      return stub.state === 'unavailable' ? 'model files missing (test stub)' : null;
    },
    dimensions: DIMENSIONS,
    calls: 0,
    embed(texts: readonly string[]): Promise<Float32Array[]> {
      stub.calls += 1;
      if (stub.state !== 'available')
        return Promise.reject(new Error('the stub embedder has no model'));
      return Promise.resolve(texts.map((text) => hashEmbed(text, DIMENSIONS)));
    },
  };
  return stub;
}

interface Tiers {
  service: MemoryService;
  db: Database;
  shortTerm: ShortTermStore;
  vectors: VectorStore;
}

const opened: { close(): Promise<void> }[] = [];

async function tiers(
  options: { db?: Database; embedder?: Embedder; clock?: { now: number } } = {},
): Promise<Tiers> {
  const clock = options.clock ?? { now: NOW };
  const now = () => clock.now;
  const db = options.db ?? (await openSqliteDatabase(':memory:'));
  const shortTerm = createInProcessShortTermStore({ now });
  const vectors = createInMemoryVectorStore(DIMENSIONS);
  opened.push(shortTerm, vectors, db);
  let nextId = 0;
  const service = createMemoryService({
    shortTerm,
    vectors,
    longTerm: () => db.memory,
    embedder: options.embedder ?? createHashEmbedder({ dimensions: DIMENSIONS }),
    shortTermTtlSeconds: 3600,
    metrics: createMetrics(createHostStats(tmpdir())),
    logger: silentLogger(),
    now,
    randomId: () => `item-${(nextId += 1)}`,
  });
  return { service, db, shortTerm, vectors };
}

afterEach(async () => {
  for (const store of opened.splice(0).reverse()) await store.close();
});

const ADA = {
  sessionId: 'ada',
  user: 'My name is Ada and I live in Leeds',
  assistant: 'Nice to meet you, Ada.',
};
const ADA_ROW = `User: ${ADA.user}\nAssistant: ${ADA.assistant}`;

describe('memory service: write path', () => {
  it('puts both messages of a turn in short-term, newest first', async () => {
    const { service, shortTerm } = await tiers();
    await service.rememberTurn(ADA);
    expect(await shortTerm.recent('ada', 10)).toEqual([
      {
        id: 'item-2',
        sessionId: 'ada',
        role: 'assistant',
        content: ADA.assistant,
        contentHash: contentHash(ADA.assistant),
        createdAt: NOW + 1,
        origin: HEARTH,
      },
      {
        id: 'item-1',
        sessionId: 'ada',
        role: 'user',
        content: ADA.user,
        contentHash: contentHash(ADA.user),
        createdAt: NOW,
        origin: OWNER,
      },
    ]);
  });

  it('persists an important turn long-term with its embedding, and finds it semantically', async () => {
    const { service, db, shortTerm, vectors } = await tiers();
    const written = await service.rememberTurn(ADA);
    expect(written).toEqual({
      importance: 0.65,
      longTermId: 1,
      shortTermIds: ['item-1', 'item-2'],
    });

    expect(await db.memory.get(1)).toMatchObject({
      session_id: 'ada',
      content: ADA_ROW,
      content_hash: contentHash(ADA_ROW),
      importance_score: 0.65,
      type: 'turn',
    });
    const stored = await db.memory.embeddings(0, 10);
    expect(stored).toEqual([{ id: 1, session_id: 'ada', embedding: hashEmbed(ADA_ROW, 64) }]);
    expect(await vectors.count()).toBe(1);

    // Only the vector tier can answer now: short-term is emptied and "Ada" (three letters)
    // yields no keyword for the long-term substring search.
    await shortTerm.clear('ada');
    const found = await service.retrieve({ sessionId: 'ada', query: 'Ada', topK: 8 });
    const expected = cosineSimilarity(hashEmbed('Ada', 64), hashEmbed(ADA_ROW, 64));
    expect(expected).toBeGreaterThan(0.3);
    expect(found).toEqual([
      {
        content: ADA_ROW,
        contentHash: contentHash(ADA_ROW),
        source: 'semantic',
        score: expect.closeTo(expected * (0.75 + 0.25 * 0.65), 5) as number,
        createdAt: expect.any(Number) as number,
        origin: HEARTH,
      },
    ]);
  });

  it('keeps an unimportant turn out of the long-term store and the vector tier', async () => {
    const { service, db, shortTerm, vectors } = await tiers();
    const written = await service.rememberTurn({
      sessionId: 'smalltalk',
      user: 'hi',
      assistant: 'Hello! How can I help?',
    });
    expect(written).toEqual({
      importance: 0.05,
      longTermId: null,
      shortTermIds: ['item-1', 'item-2'],
    });
    expect(await db.memory.count()).toBe(0);
    expect(await vectors.count()).toBe(0);
    expect((await shortTerm.recent('smalltalk', 10)).map((item) => item.content)).toEqual([
      'Hello! How can I help?',
      'hi',
    ]);
  });
});

describe('memory service: forgetting a replaced turn', () => {
  it('removes exactly what rememberTurn wrote for it, not an earlier copy of the same words', async () => {
    const { service, db, shortTerm, vectors } = await tiers();
    const earlier = await service.rememberTurn(ADA);
    const replaced = await service.rememberTurn(ADA);
    expect(await service.forgetTurn(ADA, replaced)).toBe(3);
    expect((await shortTerm.recent('ada', 10)).map((item) => item.id)).toEqual(
      [...earlier.shortTermIds].reverse(),
    );
    expect((await db.memory.list({ limit: 10 })).map((entry) => entry.id)).toEqual([
      earlier.longTermId,
    ]);
    expect(await vectors.count()).toBe(1);
  });

  it('without what was written (an earlier run), removes the newest pair written for that text', async () => {
    const { service, db, shortTerm } = await tiers();
    const earlier = await service.rememberTurn(ADA);
    const other = await service.rememberTurn({ ...ADA, assistant: 'Hello again, Ada.' });
    const replaced = await service.rememberTurn(ADA);
    expect(await service.forgetTurn(ADA)).toBe(2);
    expect((await shortTerm.recent('ada', 10)).map((item) => item.id)).toEqual(
      [...earlier.shortTermIds, ...other.shortTermIds].reverse(),
    );
    // Its long-term row cannot be told apart from the earlier one's: it stays.
    expect(await db.memory.count()).toBe(3);
    expect(replaced.longTermId).not.toBeNull();
    // A lone copy of either message is no pair: nothing is removed.
    await shortTerm.removeIds('ada', [earlier.shortTermIds[1] ?? '']);
    expect(await service.forgetTurn(ADA)).toBe(0);
    expect(await service.forgetTurn({ ...ADA, sessionId: 'nobody' })).toBe(0);
  });
});

describe('memory service: retrieval', () => {
  const TEA = 'I drink green tea every morning';

  it('returns a fact held in short-term and long-term once, from short-term', async () => {
    const { service } = await tiers();
    // Importance 0.3: the turn stays in short-term only; the same sentence is then stored long-term.
    await service.rememberTurn({ sessionId: 's', user: TEA, assistant: 'Noted.' });
    const row = await service.store({ session_id: 's', content: TEA, importance_score: 0.9 });
    expect(row.content_hash).toBe(contentHash(TEA));

    const found = await service.retrieve({ sessionId: 's', query: 'green tea morning', topK: 8 });
    const tea = found.filter((memory) => memory.contentHash === contentHash(TEA));
    expect(tea).toEqual([
      {
        content: `user: ${TEA}`,
        contentHash: contentHash(TEA),
        source: 'short-term',
        score: expect.any(Number) as number,
        createdAt: NOW / 1000,
        // The owner's message and a Hearth row of the same text: the least trusted of the two.
        origin: HEARTH,
      },
    ]);
    expect(found.map((memory) => memory.content)).toEqual([`user: ${TEA}`, 'assistant: Noted.']);
  });

  it('ranks a short-term item above an equally similar long-term one', async () => {
    const { service } = await tiers();
    // Same words (identical hash embeddings), different punctuation (different content hashes).
    const longTermText = 'I drink green tea, every morning!';
    expect(hashEmbed(longTermText, 64)).toEqual(hashEmbed(TEA, 64));
    await service.store({ session_id: 's', content: longTermText, importance_score: 1 });
    await service.rememberTurn({ sessionId: 's', user: TEA, assistant: 'Noted.' });

    const found = await service.retrieve({ sessionId: 's', query: 'green tea morning', topK: 8 });
    const similarity = cosineSimilarity(hashEmbed('green tea morning', 64), hashEmbed(TEA, 64));
    expect(found.slice(0, 2)).toEqual([
      expect.objectContaining({
        content: `user: ${TEA}`,
        source: 'short-term',
        score: expect.closeTo(0.2 + similarity, 5) as number,
      }),
      expect.objectContaining({
        content: longTermText,
        source: 'semantic',
        score: expect.closeTo(similarity, 5) as number,
      }),
    ]);
  });

  it('caps the results at topK, best first, and leaves out excluded hashes', async () => {
    const clock = { now: NOW };
    const { service } = await tiers({ clock });
    for (let turn = 0; turn < 6; turn += 1) {
      clock.now += 1_000;
      await service.rememberTurn({
        sessionId: 'cap',
        user: `Remember that locker ${turn} holds my tennis racket`,
        assistant: `Locker ${turn} noted.`,
      });
    }
    const all = await service.retrieve({ sessionId: 'cap', query: 'tennis locker', topK: 100 });
    // 12 short-term items; the 6 long-term rows repeat those turns, so they are left out.
    expect(all).toHaveLength(12);
    expect(all.every((memory) => memory.source === 'short-term')).toBe(true);
    const scores = all.map((memory) => memory.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));

    const top3 = await service.retrieve({ sessionId: 'cap', query: 'tennis locker', topK: 3 });
    expect(top3).toEqual(all.slice(0, 3));

    const exclude = new Set(all.slice(0, 2).map((memory) => memory.contentHash));
    const rest = await service.retrieve({
      sessionId: 'cap',
      query: 'tennis locker',
      topK: 3,
      exclude,
    });
    expect(rest).toEqual(all.slice(2, 5));
    expect(rest.some((memory) => exclude.has(memory.contentHash))).toBe(false);
  });

  it('only looks at the asking session', async () => {
    const { service } = await tiers();
    await service.rememberTurn(ADA);
    expect(
      await service.retrieve({ sessionId: 'someone-else', query: 'Ada Leeds', topK: 8 }),
    ).toEqual([]);
  });
});

describe('memory service: embedder states', () => {
  it('without an embedding model, still serves short-term and keyword long-term results', async () => {
    const embedder = stubEmbedder('unavailable');
    const { service, db, vectors } = await tiers({ embedder });
    expect(service.semanticAvailable()).toBe(false);

    expect(await service.rememberTurn(ADA)).toMatchObject({ importance: 0.65, longTermId: 1 });
    expect(await db.memory.embeddings(0, 10)).toEqual([]);
    expect(await vectors.count()).toBe(0);

    const found = await service.retrieve({ sessionId: 'ada', query: 'Where in Leeds?', topK: 8 });
    expect(found).toEqual([
      {
        content: `assistant: ${ADA.assistant}`,
        contentHash: contentHash(ADA.assistant),
        source: 'short-term',
        score: 1,
        createdAt: Math.floor((NOW + 1) / 1000),
        origin: HEARTH,
      },
      {
        content: `user: ${ADA.user}`,
        contentHash: contentHash(ADA.user),
        source: 'short-term',
        score: expect.closeTo(0.2 + 0.8 - 0.4 / 50, 10) as number,
        createdAt: NOW / 1000,
        origin: OWNER,
      },
      // The long-term row of the same turn repeats both short-term messages: not offered twice.
    ]);
    expect(service.semanticAvailable()).toBe(false);
  });

  it('uses the embedder again, without a restart, once its model becomes available', async () => {
    const embedder = stubEmbedder('unavailable');
    const { service, db, vectors } = await tiers({ embedder });
    await service.rememberTurn(ADA);
    // The embedder was asked (it decides when to retry its load) and refused.
    expect(embedder.calls).toBe(1);
    expect(await vectors.count()).toBe(0);

    embedder.state = 'available';
    expect(service.semanticAvailable()).toBe(true);
    const coffee = {
      sessionId: 'ada',
      user: 'I prefer my coffee black',
      assistant: 'Black it is.',
    };
    const written = await service.rememberTurn(coffee);
    expect(written.longTermId).toBe(2);
    expect((await db.memory.embeddings(0, 10)).map((row) => row.id)).toEqual([2]);
    expect(await vectors.count()).toBe(1);
  });

  it('reports null while the model state is unknown, and reading it loads nothing', async () => {
    const embedder = stubEmbedder('unknown');
    const { service } = await tiers({ embedder });
    expect(service.semanticAvailable()).toBeNull();
    expect(service.semanticAvailable()).toBeNull();
    expect(embedder.calls).toBe(0);
  });

  it('reports true once the model is available', async () => {
    const { service } = await tiers();
    expect(service.semanticAvailable()).toBe(true);
  });
});

describe('memory service: rebuilding the vector index after a restart', () => {
  let folder: string | undefined;
  afterEach(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
    folder = undefined;
  });

  it('restores semantic hits from the embeddings stored with the rows', async () => {
    folder = await mkdtemp(join(tmpdir(), 'hearth-memory-service-'));
    const file = join(folder, 'memory.db');

    const before = await tiers({ db: await openSqliteDatabase(file) });
    await before.service.rememberTurn(ADA);
    await before.service.rememberTurn({
      sessionId: 'ada',
      user: 'I prefer my coffee black',
      assistant: 'Black coffee it is.',
    });
    await before.db.close();

    // A new process: same file, empty short-term tier, empty in-memory index.
    const after = await tiers({ db: await openSqliteDatabase(file) });
    expect(await after.vectors.count()).toBe(0);
    expect(await after.service.retrieve({ sessionId: 'ada', query: 'Ada', topK: 8 })).toEqual([]);

    expect(await after.service.rebuildVectorIndex()).toBe(2);
    expect(await after.vectors.count()).toBe(2);
    const found = await after.service.retrieve({ sessionId: 'ada', query: 'Ada', topK: 8 });
    expect(found.map((memory) => [memory.source, memory.content])).toContainEqual([
      'semantic',
      ADA_ROW,
    ]);
    expect(found[0]?.content).toBe(ADA_ROW);
  });
});

describe('memory service: provenance', () => {
  const PAGE = {
    trust: 'untrusted' as const,
    sources: [{ kind: 'browser' as const, name: 'evil.example' }],
  };
  const TURN = {
    sessionId: 'web',
    user: 'Remember what the page evil.example said about my Leeds address',
    assistant: 'The page says your Leeds address is 1 Fake Street; I will remember it.',
  };

  it('gives every row written from an untrusted turn the turn’s origin', async () => {
    const { service, db, shortTerm } = await tiers();
    const written = await service.rememberTurn({ ...TURN, origin: PAGE });
    expect(written.longTermId).not.toBeNull();
    expect((await shortTerm.recent('web', 10)).map((item) => item.origin)).toEqual([PAGE, PAGE]);
    expect((await db.memory.get(written.longTermId ?? 0))?.origin).toEqual(PAGE);
  });

  it('without an origin keeps today’s behaviour: the user’s words the owner’s, the rest Hearth’s', async () => {
    const { service, db, shortTerm } = await tiers();
    const written = await service.rememberTurn(TURN);
    expect((await shortTerm.recent('web', 10)).map((item) => item.origin)).toEqual([HEARTH, OWNER]);
    expect((await db.memory.get(written.longTermId ?? 0))?.origin).toEqual(HEARTH);
  });

  it('refuses a malformed turn origin before writing anything', async () => {
    const { service, db, shortTerm } = await tiers();
    const bad = { trust: 'owner', sources: [{ kind: 'browser', name: 'x' }] } as const;
    await expect(
      service.rememberTurn({ ...TURN, origin: bad as unknown as typeof PAGE }),
    ).rejects.toThrow(TypeError);
    expect(await shortTerm.recent('web', 10)).toEqual([]);
    expect(await db.memory.count()).toBe(0);
  });

  it('returns the origin with every recalled memory, from every tier', async () => {
    const { service, db, shortTerm } = await tiers();
    const written = await service.rememberTurn({ ...TURN, origin: PAGE });
    const fromShortTerm = await service.retrieve({
      sessionId: 'web',
      query: 'Leeds address',
      topK: 8,
    });
    expect(fromShortTerm.length).toBeGreaterThan(0);
    for (const memory of fromShortTerm) expect(memory.origin).toEqual(PAGE);

    // Long-term only (semantic and keyword): short-term emptied.
    await shortTerm.clear('web');
    const fromLongTerm = await service.retrieve({
      sessionId: 'web',
      query: 'Leeds address',
      topK: 8,
    });
    expect(fromLongTerm.map((m) => [m.contentHash, m.origin])).toEqual([
      [(await db.memory.get(written.longTermId ?? 0))?.content_hash, PAGE],
    ]);
  });

  it('copies of one text recalled from several tiers keep the least trusted origin', async () => {
    const { service } = await tiers();
    const text = 'The spare key is under the blue flowerpot';
    // The owner said it (short-term, owner) and a page said it too (long-term, untrusted).
    await service.rememberTurn({ sessionId: 'dup', user: text, assistant: 'Noted.' });
    await service.store({ session_id: 'dup', content: text, importance_score: 1, origin: PAGE });
    const found = await service.retrieve({
      sessionId: 'dup',
      query: 'spare key flowerpot',
      topK: 8,
    });
    const copies = found.filter((m) => m.contentHash === contentHash(text));
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatchObject({ source: 'short-term', origin: PAGE });
  });

  it('tells compaction the origins short-term memory holds for a session’s messages', async () => {
    const { service } = await tiers();
    await service.rememberTurn({ ...TURN, origin: PAGE });
    await service.rememberTurn({ sessionId: 'web', user: 'thanks', assistant: 'You are welcome.' });
    const origins = await service.originsOf(
      'web',
      new Set([contentHash(TURN.assistant), contentHash('thanks'), contentHash('not there')]),
    );
    expect(origins).toEqual([OWNER, PAGE]);
    expect(await service.originsOf('web', new Set())).toEqual([]);
  });
});
