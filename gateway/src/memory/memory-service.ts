import { setImmediate as nextTick } from 'node:timers/promises';
import type { Logger } from 'pino';
import { unavailable } from '../errors.ts';
import type { Metrics } from '../observability/metrics.ts';
import { contentHash } from './content-hash.ts';
import { importanceOf, LONG_TERM_THRESHOLD } from './importance.ts';
import { keywordsOf } from './keywords.ts';
import {
  defaultItemOrigin,
  HEARTH_ORIGIN,
  leastTrusted,
  normaliseOrigin,
  OWNER_ORIGIN,
  type MemoryOrigin,
} from './origin.ts';
import type {
  Embedder,
  LongTermMemory,
  MemoryEntry,
  MemoryService,
  NewMemoryEntry,
  RememberedTurn,
  SemanticMatch,
  ShortTermItem,
  ShortTermStore,
  TurnToRemember,
  VectorStore,
} from './ports.ts';
import type { RetrievedMemory } from './prompt-blocks.ts';
import { MIN_SEMANTIC_SIMILARITY, semanticScore } from './semantic-rank.ts';
import { ShortTermItemTooLarge } from './short-term/rules.ts';

export type { MemoryService, TurnToRemember } from './ports.ts';

export interface MemoryServiceDeps {
  shortTerm: ShortTermStore;
  vectors: VectorStore;
  /** The long-term tier; available once the database is open. */
  longTerm: () => LongTermMemory;
  embedder: Embedder;
  shortTermTtlSeconds: number;
  metrics: Metrics;
  logger: Logger;
  /** Epoch milliseconds. */
  now: () => number;
  randomId: () => string;
}

/** How many recent short-term items one retrieval looks at. */
const SHORT_TERM_WINDOW = 50;
/** How long retrieval and writes skip an unavailable embedder before asking it again. */
const EMBED_RETRY_MS = 30_000;
/** Rows one prune or retention batch deletes (one query and one delete each). */
const PRUNE_BATCH = 500;
/** Embeddings of recent turns kept in process, for semantic ranking of short-term items. */
const EMBEDDING_CACHE = 5_000;
/** Long-term rows whose message hashes are kept in process (see turnPartsOf). */
const TURN_PARTS_CACHE = 1_000;

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) sum += (a[i] ?? 0) * (b[i] ?? 0);
  return sum;
}

/**
 * The three-tier memory behind one interface the chat pipeline uses.
 *
 * Write: every turn goes to short-term (expiring after short_term_ttl) and is embedded; turns
 * whose importance reaches LONG_TERM_THRESHOLD are persisted long-term with their embedding and
 * indexed in the vector tier. Embedding failures never block a write.
 *
 * Retrieval, one pass (scores, higher first):
 * - short-term, highest priority: 0.2 + similarity to the query (cosine when embeddings exist,
 *   else a recency weight from 0.8 down to 0.4);
 * - semantic: cosine × (0.75 + 0.25 × importance) over the vector tier (skipped when the
 *   embedder is unavailable);
 * - long-term substring match on the query's keywords: 0.3 × matched fraction + 0.3 × importance.
 * Then deduplicated by content hash (best score kept), sorted, capped at top_k.
 */
export function createMemoryService(deps: MemoryServiceDeps): MemoryService {
  const turnEmbeddings = new Map<string, Float32Array>();

  /**
   * The content hashes of a long-term turn row's two messages (null: not a turn row), by the
   * row's content: the same rows come back turn after turn, and hashing them again each time
   * was a retrieval's largest cost after the queries.
   */
  const turnParts = new Map<string, readonly [string, string] | null>();
  function turnPartsOf(entry: MemoryEntry): readonly [string, string] | null {
    let parts = turnParts.get(entry.content);
    if (parts === undefined) {
      const match = /^User: ([\s\S]*)\nAssistant: ([\s\S]*)$/.exec(entry.content);
      parts = match === null ? null : [contentHash(match[1] ?? ''), contentHash(match[2] ?? '')];
      if (turnParts.size >= TURN_PARTS_CACHE) turnParts.clear();
      turnParts.set(entry.content, parts);
    }
    return parts;
  }

  function cacheEmbedding(hash: string, vector: Float32Array): void {
    turnEmbeddings.delete(hash);
    turnEmbeddings.set(hash, vector);
    if (turnEmbeddings.size > EMBEDDING_CACHE) {
      const oldest = turnEmbeddings.keys().next().value;
      if (oldest !== undefined) turnEmbeddings.delete(oldest);
    }
  }

  /**
   * Embeddings, or null when the embedder is unavailable or fails (semantic search is skipped
   * for this turn). An unavailable embedder is still asked: it rejects at once and decides
   * itself when to retry its load (the local model retries at most every few minutes), so a
   * model that becomes loadable is picked up without a restart. Only a failure of an embedder
   * that was not already unavailable is logged here; the embedder logs its own load failures.
   */
  /** While the embedder is unavailable it is asked again at most every EMBED_RETRY_MS. */
  let skipEmbeddingUntil = 0;
  async function tryEmbed(texts: readonly string[]): Promise<Float32Array[] | null> {
    const wasUnavailable = deps.embedder.state === 'unavailable';
    if (wasUnavailable && deps.now() < skipEmbeddingUntil) return null;
    try {
      return await deps.embedder.embed(texts);
    } catch (error) {
      skipEmbeddingUntil = deps.now() + EMBED_RETRY_MS;
      if (!wasUnavailable) {
        deps.logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'embedding failed; semantic search skipped',
        );
      }
      return null;
    }
  }

  /**
   * Sets the entry gauge from the store: after the current tick, once for all the writes of
   * that tick (a count is a scan of the table's smallest index).
   */
  let countScheduled = false;
  function refreshEntryCount(): void {
    if (countScheduled) return;
    countScheduled = true;
    setImmediate(() => {
      countScheduled = false;
      Promise.resolve()
        .then(() => deps.longTerm().count())
        .then(
          (rows) => deps.metrics.memoryEntriesTotal.set(rows),
          () => undefined, // the store is not open (yet, or any more)
        );
    });
  }

  /**
   * One turn's item into the short-term tier. An item over the per-item byte cap is left out of
   * that tier only (counted by the store, logged here): the turn's history and long-term memory
   * still have it.
   */
  async function addShortTerm(item: ShortTermItem): Promise<void> {
    try {
      await deps.shortTerm.add(item, deps.shortTermTtlSeconds);
    } catch (error) {
      if (!(error instanceof ShortTermItemTooLarge)) throw error;
      deps.logger.warn(
        { sessionId: item.sessionId, role: item.role, bytes: error.bytes, cap: error.maxBytes },
        'a turn too large for the short-term cache was left out of it',
      );
    }
  }

  async function storeLongTerm(entry: NewMemoryEntry): Promise<MemoryEntry> {
    const stored = await deps.longTerm().insert(entry);
    if (entry.embedding) {
      await deps.vectors.upsert([
        { id: stored.id, vector: entry.embedding, sessionId: stored.session_id },
      ]);
    }
    refreshEntryCount();
    return stored;
  }

  async function removeEntries(ids: readonly number[]): Promise<number> {
    if (ids.length === 0) return 0;
    const removed = await deps.longTerm().removeMany(ids);
    // Deleted texts are not kept in process either.
    turnParts.clear();
    await deps.vectors.remove(ids);
    refreshEntryCount();
    return removed;
  }

  /**
   * Deletes the rows the store's `prune` matches (created before now − days and/or importance
   * below threshold) with their vectors, `batchSize` rows at a time, yielding to the event loop
   * between batches so a large backlog never blocks requests.
   */
  async function pruneInBatches(
    options: { days?: number; threshold?: number },
    batchSize = PRUNE_BATCH,
  ): Promise<number> {
    const matching = { ...options, now: Math.floor(deps.now() / 1000) };
    let removed = 0;
    for (;;) {
      const ids = await deps.longTerm().pruneIds(matching, batchSize);
      if (ids.length === 0) break;
      const batch = await removeEntries(ids);
      removed += batch;
      // A batch that deleted nothing would be asked for again forever; the next run retries.
      if (batch === 0) break;
      await nextTick();
    }
    return removed;
  }

  return {
    /** Null until the embedder's load state is known; reading never triggers a load. */
    semanticAvailable(): boolean | null {
      const state = deps.embedder.state;
      return state === 'unknown' ? null : state === 'available';
    },

    async rememberTurn(turn: TurnToRemember): Promise<RememberedTurn> {
      const at = deps.now();
      // Every row written from the turn takes its least trusted origin (today's defaults without one).
      const turnOrigin = turn.origin === undefined ? undefined : normaliseOrigin(turn.origin);
      const userOrigin = leastTrusted([OWNER_ORIGIN, turnOrigin]);
      const replyOrigin = leastTrusted([HEARTH_ORIGIN, turnOrigin]);
      const items: ShortTermItem[] = [
        {
          id: deps.randomId(),
          sessionId: turn.sessionId,
          role: 'user',
          content: turn.user,
          contentHash: contentHash(turn.user),
          createdAt: at,
          origin: userOrigin,
        },
        {
          id: deps.randomId(),
          sessionId: turn.sessionId,
          role: 'assistant',
          content: turn.assistant,
          contentHash: contentHash(turn.assistant),
          createdAt: at + 1,
          origin: replyOrigin,
        },
      ];
      for (const item of items) await addShortTerm(item);

      const combined = `User: ${turn.user}\nAssistant: ${turn.assistant}`;
      const vectors = await tryEmbed([turn.user, turn.assistant, combined]);
      if (vectors)
        items.forEach((item, i) => vectors[i] && cacheEmbedding(item.contentHash, vectors[i]));

      const importance = importanceOf(turn.user, turn.assistant);
      const shortTermIds = items.map((item) => item.id);
      if (importance < LONG_TERM_THRESHOLD) return { importance, longTermId: null, shortTermIds };
      const stored = await storeLongTerm({
        session_id: turn.sessionId,
        content: combined,
        importance_score: importance,
        type: 'turn',
        embedding: vectors?.[2] ?? null,
        origin: leastTrusted([userOrigin, replyOrigin]),
      });
      return { importance, longTermId: stored.id, shortTermIds };
    },

    async forgetTurn(turn: TurnToRemember, remembered?: RememberedTurn | null): Promise<number> {
      let ids = remembered?.shortTermIds;
      if (ids === undefined) {
        // A turn of an earlier run: the newest pair rememberTurn wrote for exactly this text
        // (the user item, then the reply one millisecond later), never a lone copy of either.
        const userHash = contentHash(turn.user);
        const replyHash = contentHash(turn.assistant);
        const recent = await deps.shortTerm.recent(turn.sessionId, 10_000);
        const at = recent.findIndex(
          (item, i) =>
            item.role === 'assistant' &&
            item.contentHash === replyHash &&
            recent[i + 1]?.role === 'user' &&
            recent[i + 1]?.contentHash === userHash &&
            recent[i + 1]?.createdAt === item.createdAt - 1,
        );
        const reply = recent[at];
        const user = recent[at + 1];
        ids = reply && user ? [user.id, reply.id] : [];
      }
      const removed = ids.length > 0 ? await deps.shortTerm.removeIds(turn.sessionId, ids) : 0;
      const longTermId = remembered?.longTermId ?? null;
      return removed + (longTermId === null ? 0 : await removeEntries([longTermId]));
    },

    async retrieve(request: {
      sessionId: string;
      query: string;
      topK: number;
      /** Hashes already in the prompt (the live history), left out. */
      exclude?: ReadonlySet<string>;
    }): Promise<RetrievedMemory[]> {
      const found = new Map<string, RetrievedMemory>();
      const shortTermHashes = new Set<string>();
      /** A long-term turn row whose two messages are both in short-term already adds nothing. */
      const coveredByShortTerm = (entry: MemoryEntry): boolean => {
        const parts = turnPartsOf(entry);
        return parts !== null && shortTermHashes.has(parts[0]) && shortTermHashes.has(parts[1]);
      };
      /** Copies of one text keep the best score and the least trusted origin of them all. */
      const offer = (memory: RetrievedMemory) => {
        if (request.exclude?.has(memory.contentHash)) return;
        const current = found.get(memory.contentHash);
        if (!current) {
          found.set(memory.contentHash, memory);
          return;
        }
        const best = current.score < memory.score ? memory : current;
        found.set(memory.contentHash, {
          ...best,
          origin: leastTrusted([current.origin, memory.origin]),
        });
      };
      const [queryVector] = (await tryEmbed([request.query])) ?? [];

      const recent = await deps.shortTerm.recent(request.sessionId, SHORT_TERM_WINDOW);
      recent.forEach((item, rank) => {
        shortTermHashes.add(item.contentHash);
        const cached = queryVector ? turnEmbeddings.get(item.contentHash) : undefined;
        const similarity =
          cached && queryVector ? dot(cached, queryVector) : 0.8 - (0.4 * rank) / SHORT_TERM_WINDOW;
        offer({
          content: `${item.role}: ${item.content}`,
          contentHash: item.contentHash,
          source: 'short-term',
          score: 0.2 + similarity,
          createdAt: Math.floor(item.createdAt / 1000),
          origin: item.origin ?? defaultItemOrigin(item.role),
        });
      });

      let longTerm: LongTermMemory | undefined;
      try {
        longTerm = deps.longTerm();
      } catch {
        longTerm = undefined;
      }
      if (longTerm && queryVector) {
        try {
          const hits = await deps.vectors.search(queryVector, request.topK + 8, request.sessionId);
          const entries = new Map(
            (await longTerm.getMany(hits.map((h) => h.id))).map((e) => [e.id, e]),
          );
          for (const hit of hits) {
            const entry = entries.get(hit.id);
            // Unrelated rows (no positive similarity) are not memories of this query.
            if (!entry || hit.score < MIN_SEMANTIC_SIMILARITY || coveredByShortTerm(entry))
              continue;
            offer({
              content: entry.content,
              contentHash: entry.content_hash,
              source: 'semantic',
              score: semanticScore(hit.score, entry.importance_score),
              createdAt: entry.created_at,
              origin: entry.origin,
            });
          }
        } catch (error) {
          deps.logger.warn(
            { err: error instanceof Error ? error.message : String(error) },
            'semantic search failed',
          );
        }
      }
      if (longTerm) {
        const keywords = keywordsOf(request.query);
        const matches = new Map<number, { entry: MemoryEntry; hits: number }>();
        const options = { limit: request.topK, session_id: request.sessionId };
        // One entry list per keyword, all asked at once where the store can.
        let perKeyword: MemoryEntry[][] = [];
        if (keywords.length > 0 && longTerm.searchMany)
          perKeyword = await longTerm.searchMany(keywords, options);
        else
          for (const keyword of keywords) perKeyword.push(await longTerm.search(keyword, options));
        for (const entries of perKeyword) {
          for (const entry of entries) {
            const match = matches.get(entry.id) ?? { entry, hits: 0 };
            match.hits += 1;
            matches.set(entry.id, match);
          }
        }
        for (const { entry, hits } of matches.values()) {
          if (coveredByShortTerm(entry)) continue;
          offer({
            content: entry.content,
            contentHash: entry.content_hash,
            source: 'long-term',
            score: (0.3 * hits) / keywords.length + 0.3 * entry.importance_score,
            createdAt: entry.created_at,
            origin: entry.origin,
          });
        }
      }
      return [...found.values()].sort((a, b) => b.score - a.score).slice(0, request.topK);
    },

    /** `/forget <keyword>`: what would be deleted, without deleting. */
    async forgetPreview(
      sessionId: string,
      keyword: string,
    ): Promise<{ count: number; snippets: string[] }> {
      const longTerm = await deps
        .longTerm()
        .search(keyword, { limit: 1_000, session_id: sessionId });
      const lower = keyword.toLowerCase();
      const shortTerm = (await deps.shortTerm.recent(sessionId, 10_000)).filter((i) =>
        i.content.toLowerCase().includes(lower),
      );
      const snippets = [...longTerm.map((e) => e.content), ...shortTerm.map((i) => i.content)]
        .slice(0, 5)
        .map((text) => (text.length > 80 ? `${text.slice(0, 77)}…` : text).replace(/\s+/g, ' '));
      return { count: longTerm.length + shortTerm.length, snippets };
    },

    /** `/forget <keyword> confirm`: deletes matches from every tier. */
    async forget(sessionId: string, keyword: string): Promise<number> {
      const entries = await deps
        .longTerm()
        .search(keyword, { limit: 100_000, session_id: sessionId });
      const removed = await removeEntries(entries.map((e) => e.id));
      return removed + (await deps.shortTerm.removeMatching(sessionId, keyword));
    },

    /** `/tag <name>`: attaches a tag to every long-term memory of the session; count tagged. */
    async tag(sessionId: string, tag: string): Promise<number> {
      const longTerm = deps.longTerm();
      const entries = await longTerm.list({ session_id: sessionId, limit: 100_000 });
      let tagged = 0;
      for (const entry of entries) {
        if (entry.tags.includes(tag)) continue;
        await longTerm.update(entry.id, { tags: [...entry.tags, tag] });
        tagged += 1;
      }
      return tagged;
    },

    /** `/tags`: the tags on the session's memories with their counts. */
    async tags(sessionId: string): Promise<Record<string, number>> {
      const counts: Record<string, number> = {};
      for (const entry of await deps.longTerm().list({ session_id: sessionId, limit: 100_000 })) {
        for (const tag of entry.tags) counts[tag] = (counts[tag] ?? 0) + 1;
      }
      return counts;
    },

    /**
     * The origins short-term memory holds for these content hashes of a session (compaction
     * lowers a summary's origin by them). Hashes it no longer holds add nothing.
     */
    async originsOf(sessionId: string, hashes: ReadonlySet<string>): Promise<MemoryOrigin[]> {
      if (hashes.size === 0) return [];
      const recent = await deps.shortTerm.recent(sessionId, 10_000);
      return recent
        .filter((item) => hashes.has(item.contentHash))
        .map((item) => item.origin ?? defaultItemOrigin(item.role));
    },

    /** Stores a row (POST /memory, summaries, archives), embedded when possible. */
    async store(entry: Omit<NewMemoryEntry, 'embedding'>): Promise<MemoryEntry> {
      const [embedding] = (await tryEmbed([entry.content])) ?? [];
      return storeLongTerm({ ...entry, embedding: embedding ?? null });
    },

    async update(
      id: number,
      patch: { content?: string; importance_score?: number },
    ): Promise<MemoryEntry | undefined> {
      const longTerm = deps.longTerm();
      if (patch.content === undefined) return longTerm.update(id, patch);
      const [embedding] = (await tryEmbed([patch.content])) ?? [];
      const updated = await longTerm.update(id, { ...patch, embedding: embedding ?? null });
      turnParts.clear();
      if (updated && embedding)
        await deps.vectors.upsert([{ id, vector: embedding, sessionId: updated.session_id }]);
      else if (updated) await deps.vectors.remove([id]);
      return updated;
    },

    removeEntries,

    async removeSession(sessionId: string): Promise<number> {
      const ids = (await deps.longTerm().list({ session_id: sessionId, limit: 1_000_000 })).map(
        (e) => e.id,
      );
      const removed = await removeEntries(ids);
      return removed + (await deps.shortTerm.clear(sessionId));
    },

    async removeAll(): Promise<{ long_term: number; short_term: number }> {
      let longTerm = 0;
      for (;;) {
        const ids = (await deps.longTerm().list({ limit: PRUNE_BATCH })).map((e) => e.id);
        if (ids.length === 0) break;
        const batch = await removeEntries(ids);
        longTerm += batch;
        // A batch that deleted nothing would be listed again forever.
        if (batch === 0) break;
        await nextTick();
      }
      const shortTerm = await deps.shortTerm.clear(null);
      turnEmbeddings.clear();
      return { long_term: longTerm, short_term: shortTerm };
    },

    async searchSemantic(
      query: string,
      options: { limit: number; session_id?: string },
    ): Promise<SemanticMatch[]> {
      let vector: Float32Array | undefined;
      try {
        [vector] = await deps.embedder.embed([query]);
      } catch (error) {
        throw unavailable(
          `semantic search needs the local embedding model, which is not available: ${
            deps.embedder.detail ?? (error instanceof Error ? error.message : String(error))
          }`,
          error,
        );
      }
      if (vector === undefined) return [];
      const hits = await deps.vectors.search(vector, options.limit, options.session_id);
      const entries = new Map(
        (await deps.longTerm().getMany(hits.map((hit) => hit.id))).map((e) => [e.id, e]),
      );
      return hits
        .flatMap((hit) => {
          const entry = entries.get(hit.id);
          // Unrelated rows (no positive similarity) are no match, as in retrieval.
          if (!entry || hit.score < MIN_SEMANTIC_SIMILARITY) return [];
          return [
            {
              ...entry,
              similarity: hit.score,
              score: semanticScore(hit.score, entry.importance_score),
            },
          ];
        })
        .sort((a, b) => b.score - a.score);
    },

    /** Deletes old and/or unimportant rows (POST /memory/prune) from every tier, in batches. */
    prune(options: { days?: number; threshold?: number }): Promise<number> {
      return pruneInBatches(options);
    },

    /**
     * Retention (`[memory] long_term_days`): deletes the long-term rows created more than `days`
     * days ago, with their vectors, `batchSize` rows at a time, yielding to the event loop
     * between batches so a large backlog never blocks requests. `days` 0 keeps everything.
     */
    async expireOlderThan(days: number, batchSize = PRUNE_BATCH): Promise<number> {
      return days > 0 ? pruneInBatches({ days }, batchSize) : 0;
    },

    /** Loads every stored embedding into an in-memory vector index (at start, without Qdrant). */
    async rebuildVectorIndex(target: VectorStore = deps.vectors): Promise<number> {
      if (target.kind !== 'in-memory') return 0;
      let after = 0;
      let loaded = 0;
      for (;;) {
        const page = await deps.longTerm().embeddings(after, 1_000);
        if (page.length === 0) break;
        await target.upsert(
          page.map((row) => ({ id: row.id, vector: row.embedding, sessionId: row.session_id })),
        );
        loaded += page.length;
        after = page[page.length - 1]?.id ?? after;
      }
      refreshEntryCount();
      return loaded;
    },
  };
}
