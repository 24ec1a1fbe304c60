/**
 * The retention part of `runLongTermMemoryConformance` (long-term-conformance.ts): spec
 * "Long-term retention `long_term_days`, default 90". A row created more than `days` days
 * before now (the injected clock) is deleted by the daily memory job, from the store and from
 * the vector tier, in batches; `0` keeps everything. POST /memory/prune goes the same way.
 * Runs on every store adapter through the real memory service, with an in-memory vector index
 * and the hash embedder.
 */
import { tmpdir } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHostStats } from '../observability/host-stats.ts';
import { createMetrics } from '../observability/metrics.ts';
import { runDailyMemoryJob } from './archival.ts';
import { createHashEmbedder, hashEmbed } from './embedder/hash-embedder.ts';
import { createMemoryService, type MemoryService } from './memory-service.ts';
import type { LongTermMemory, MemoryEntry, VectorStore } from './ports.ts';
import { createInProcessShortTermStore } from './short-term/in-process.ts';
import { capturingLogger } from '../observability/testing/log-capture.ts';
import { createInMemoryVectorStore } from './vectors/in-memory.ts';

const DAY = 86_400;
const DIMENSIONS = 32;
/** The injected clock: 2026-06-01T03:00:00Z, epoch milliseconds. */
const NOW_MS = Date.UTC(2026, 5, 1, 3);
const NOW = NOW_MS / 1000;

export function describeRetentionConformance(memoryOf: () => LongTermMemory): void {
  describe('pruneIds (the batches of prune and retention)', () => {
    let memory: LongTermMemory;
    beforeEach(() => {
      memory = memoryOf();
    });
    const add = (created_at: number, importance_score = 0.5): Promise<MemoryEntry> =>
      memory.insert({ session_id: 's1', content: 'x', importance_score, created_at });

    it('lists what prune would delete, oldest first, up to the limit', async () => {
      const oldest = await add(NOW - 10 * DAY);
      const tieA = await add(NOW - 6 * DAY, 0.9);
      const tieB = await add(NOW - 6 * DAY, 0.1);
      const edge = await add(NOW - 5 * DAY, 0.1);
      await add(NOW - DAY);
      await expect(memory.pruneIds({ days: 5, now: NOW }, 10)).resolves.toStrictEqual([
        oldest.id,
        tieA.id,
        tieB.id,
      ]);
      await expect(memory.pruneIds({ days: 5, now: NOW }, 2)).resolves.toStrictEqual([
        oldest.id,
        tieA.id,
      ]);
      await expect(memory.pruneIds({ threshold: 0.5 }, 10)).resolves.toStrictEqual([
        tieB.id,
        edge.id,
      ]);
      await expect(
        memory.pruneIds({ days: 5, threshold: 0.5, now: NOW }, 10),
      ).resolves.toStrictEqual([tieB.id]);
      // A fractional now: rows created at now - 5 days are before (now + 0.5) - 5 days.
      await expect(memory.pruneIds({ days: 5, now: NOW + 0.5 }, 10)).resolves.toContain(edge.id);
      await expect(memory.pruneIds({}, 10)).resolves.toStrictEqual([]);
      await expect(memory.pruneIds({ days: 5, now: NOW }, 0)).resolves.toStrictEqual([]);
      await expect(memory.count()).resolves.toBe(5);
    });

    it('rejects options or a limit that prune would not accept', async () => {
      await add(1_000);
      for (const [options, limit] of [
        [{ days: -1 }, 10],
        [{ days: Number.NaN }, 10],
        [{ days: 1, now: Infinity }, 10],
        [{ threshold: Number.NaN }, 10],
        [{ days: 1 }, -1],
        [{ days: 1 }, 1.5],
      ] as const) {
        await expect(memory.pruneIds(options, limit)).rejects.toMatchObject({ code: 'validation' });
      }
      await expect(memory.count()).resolves.toBe(1);
    });
  });

  describe('retention ([memory] long_term_days)', () => {
    let memory: LongTermMemory;
    let vectors: VectorStore;
    let service: MemoryService;
    let closeShortTerm: () => Promise<void>;

    beforeEach(() => {
      memory = memoryOf();
      vectors = createInMemoryVectorStore(DIMENSIONS);
      const shortTerm = createInProcessShortTermStore({ now: () => NOW_MS });
      closeShortTerm = () => shortTerm.close();
      service = createMemoryService({
        shortTerm,
        vectors,
        longTerm: () => memory,
        embedder: createHashEmbedder({ dimensions: DIMENSIONS }),
        shortTermTtlSeconds: 3600,
        metrics: createMetrics(createHostStats(tmpdir())),
        logger: capturingLogger().logger,
        now: () => NOW_MS,
        randomId: () => 'item',
      });
    });
    afterEach(async () => {
      await vectors.close();
      await closeShortTerm();
    });

    /** A row stored through the service (so it has a vector), `daysAgo` days before NOW. */
    const remember = (content: string, daysAgo: number, importance_score = 0.5) =>
      service.store({
        session_id: 'retention',
        content,
        importance_score,
        created_at: NOW - daysAgo * DAY,
      });
    const contents = async () =>
      (await memory.list({ limit: 1_000 })).map((entry) => entry.content).sort();
    const vectorHits = async (content: string) =>
      (await vectors.search(hashEmbed(content, DIMENSIONS), 100)).map((hit) => hit.id);

    it('deletes the rows created more than N days ago, with their vectors, whatever their importance', async () => {
      const expired = await remember('from last winter, very important', 120, 1);
      await remember('from last autumn', 91);
      await remember('exactly ninety days old', 90);
      await remember('from last week', 7);
      await expect(vectors.count()).resolves.toBe(4);

      await expect(service.expireOlderThan(90)).resolves.toBe(2);

      await expect(contents()).resolves.toStrictEqual([
        'exactly ninety days old',
        'from last week',
      ]);
      await expect(vectors.count()).resolves.toBe(2);
      await expect(vectorHits(expired.content)).resolves.not.toContain(expired.id);
      await expect(service.expireOlderThan(90)).resolves.toBe(0);
    });

    it('0 days keeps every row', async () => {
      await remember('ten years old', 3_650);
      await expect(service.expireOlderThan(0)).resolves.toBe(0);
      await expect(contents()).resolves.toStrictEqual(['ten years old']);
      await expect(vectors.count()).resolves.toBe(1);
    });

    it('works through a backlog larger than one batch', async () => {
      for (let index = 0; index < 7; index += 1) await remember(`old ${index}`, 100 + index);
      await remember('recent', 1);
      await expect(service.expireOlderThan(30, 3)).resolves.toBe(7);
      await expect(contents()).resolves.toStrictEqual(['recent']);
      await expect(vectors.count()).resolves.toBe(1);
    });

    it('prune (POST /memory/prune) removes the vectors of the rows it deletes too', async () => {
      const unimportant = await remember('small talk', 1, 0.1);
      await remember('a fact worth keeping', 1, 0.9);
      await expect(service.prune({ threshold: 0.5 })).resolves.toBe(1);
      await expect(contents()).resolves.toStrictEqual(['a fact worth keeping']);
      await expect(vectors.count()).resolves.toBe(1);
      await expect(vectorHits(unimportant.content)).resolves.not.toContain(unimportant.id);
    });

    it('runs in the daily memory job with the configured days and logs what it removed', async () => {
      await remember('past retention', 40);
      await remember('within retention', 10);
      const capture = capturingLogger();
      const result = await runDailyMemoryJob({
        longTermDays: 30,
        expireOlderThan: (days) => service.expireOlderThan(days),
        longTerm: () => memory,
        summarise: () => Promise.resolve('summary'),
        store: (entry) => service.store(entry),
        removeEntries: (ids) => service.removeEntries(ids),
        logger: capture.logger,
        now: () => NOW_MS,
      });
      expect(result.retention).toStrictEqual({ days: 30, removed: 1 });
      await expect(contents()).resolves.toStrictEqual(['within retention']);
      expect(capture.lines).toContainEqual(
        expect.objectContaining({ msg: 'retention finished', days: 30, removed: 1 }),
      );
    });
  });
}
