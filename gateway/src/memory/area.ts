import type { Logger } from 'pino';
import type { HearthConfig } from '../config/schema.ts';
import type { Area } from '../lifecycle/area.ts';
import { late } from '../lifecycle/late.ts';
import type { Metrics } from '../observability/metrics.ts';
import { runDailyMemoryJob, scheduleArchival } from './archival.ts';
import { buildMemory, type MemoryRuntime } from './build-memory.ts';
import type { Summarise } from './compaction.ts';
import type { Embedder, LongTermMemory } from './ports.ts';
import { memoryRoutes } from './routes.ts';

export interface MemoryAreaDeps {
  config: HearthConfig['memory'];
  /** `{data_dir}/models`, the local model cache. */
  modelDir: string;
  longTerm: () => LongTermMemory;
  summarise: Summarise;
  /** `/memory/compact`: the agent compacts a session's history. */
  compactSession: (sessionId: string) => Promise<boolean>;
  metrics: Metrics;
  logger: Logger;
  now: () => number;
  /** Replaces the local embedding model (tests use a deterministic one). */
  embedder?: Embedder;
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
  let daily: { stop(): void } | undefined;
  return {
    name: 'memory',
    routes: memoryRoutes({
      memory: () => memory.get().service,
      longTerm: deps.longTerm,
      compactSession: deps.compactSession,
    }),
    async start() {
      memory.set(
        await buildMemory({
          config: deps.config,
          modelDir: deps.modelDir,
          longTerm: deps.longTerm,
          summarise: deps.summarise,
          metrics: deps.metrics,
          logger: deps.logger,
          now: deps.now,
          embedder: deps.embedder,
        }),
      );
      const service = memory.get().service;
      daily = scheduleArchival(
        () =>
          runDailyMemoryJob({
            longTermDays: deps.config.long_term_days,
            expireOlderThan: (days) => service.expireOlderThan(days),
            longTerm: deps.longTerm,
            summarise: deps.summarise,
            store: (entry) => service.store(entry),
            removeEntries: (ids) => service.removeEntries(ids),
            logger: deps.logger,
            now: deps.now,
          }),
        deps.logger,
      );
    },
    status: () => memory.peek()?.backends() ?? {},
    memory: memory.get,
    semanticAvailable: () => memory.peek()?.service.semanticAvailable() ?? null,
    async close() {
      daily?.stop();
      await memory.peek()?.close();
    },
  };
}
