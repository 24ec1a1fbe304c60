import type { Area } from '../lifecycle/area.ts';
import { late } from '../lifecycle/late.ts';
import {
  dailyJobStatus,
  runDailyMemoryJob,
  scheduleArchival,
  type DailySchedule,
} from './archival.ts';
import { buildMemory, type BuildMemoryDeps, type MemoryRuntime } from './build-memory.ts';
import { memoryRoutes } from './routes.ts';
import { join } from 'node:path';
import { defineArea } from '../lifecycle/install.ts';
import type { ConversationHistoryStore, Embedder, LongTermMemory } from './ports.ts';
import { createSummariser, type SummaryModel } from './summarise.ts';

export interface MemoryAreaDeps extends BuildMemoryDeps {
  now: () => number;
}

export interface MemoryArea extends Area {
  /** The three tiers; 503 "Memory is starting" before the phase has run. */
  readonly memory: () => MemoryRuntime;
  /** Null until the embedding model's load state is known (never triggers a load). */
  readonly semanticAvailable: () => boolean | null;
}

/**
 * The three memory tiers, their REST routes, and the daily job at 03:00 (retention after
 * `long_term_days`, then archival of inactive sessions).
 */
export function memoryArea(deps: MemoryAreaDeps): MemoryArea {
  const memory = late<MemoryRuntime>('Memory');
  let daily: DailySchedule | undefined;
  let startRun: Promise<unknown> | undefined;
  return {
    name: 'memory',
    routes: memoryRoutes({
      memory: () => memory.get().service,
      longTerm: deps.longTerm,
    }),
    async start() {
      memory.set(await buildMemory(deps));
      const service = memory.get().service;
      const runJob = () =>
        runDailyMemoryJob({
          longTermDays: deps.config.long_term_days,
          expireOlderThan: (days) => service.expireOlderThan(days),
          longTerm: deps.longTerm,
          summarise: deps.summarise,
          store: (entry) => service.store(entry),
          removeEntries: (ids) => service.removeEntries(ids),
          logger: deps.logger,
          now: deps.now,
        });
      daily = scheduleArchival(runJob, deps.logger);
      // Once at start too: a gateway that is off at 03:00 (a laptop) would otherwise never apply
      // retention or archival. In the background; close() waits for it.
      startRun = runJob().catch((error: unknown) =>
        deps.logger.error(
          { err: error instanceof Error ? error.message : String(error) },
          'daily memory job at start failed',
        ),
      );
    },
    status: () => ({ ...(memory.peek()?.backends() ?? {}), ...dailyJobStatus(daily) }),
    memory: memory.get,
    semanticAvailable: () => memory.peek()?.service.semanticAvailable() ?? null,
    async close() {
      daily?.stop();
      await startRun;
      await memory.peek()?.close();
    },
  };
}

/** The memory area's options. */
export interface MemoryOptions {
  /** Replaces the local embedding model (tests use a deterministic one). */
  embedder?: Embedder;
}

export const memory = defineArea(
  'memory',
  (
    kernel,
    needs: {
      database: {
        database: () => { memory: LongTermMemory; conversations: ConversationHistoryStore };
      };
      providers: { router: SummaryModel };
    },
    options: MemoryOptions | undefined,
  ) =>
    memoryArea({
      config: kernel.config.memory,
      redis: kernel.redis,
      modelDir: join(kernel.paths.home, 'models'),
      longTerm: () => needs.database.database().memory,
      historyStore: () => needs.database.database().conversations,
      summarise: createSummariser(needs.providers.router),
      metrics: kernel.metrics,
      logger: kernel.logger,
      now: kernel.now,
      embedder: options?.embedder,
    }),
);
