import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { HearthConfig } from '../config/schema.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { RedisPool } from '../redis/pool.ts';
import { createCompactor, type Summarise } from './compaction.ts';
import { createConversationHistory } from './conversation-history.ts';
import { embedderBackend } from './embedder/embedder-status.ts';
import { DEFAULT_EMBEDDING_MODEL_ID, inspectModelFolder } from './embedder/model-files.ts';
import { createTransformersEmbedder } from './embedder/transformers-embedder.ts';
import { createMemoryService } from './memory-service.ts';
import type {
  ConversationHistoryStore,
  Embedder,
  LongTermMemory,
  MemoryRuntime,
  MemoryService,
  ShortTermStore,
  VectorStore,
} from './ports.ts';
import { createInProcessShortTermStore } from './short-term/in-process.ts';
import { createResilientShortTermStore } from './short-term/resilient.ts';
import type { OnShortTermDropped } from './short-term/rules.ts';
import { createInMemoryVectorStore } from './vectors/in-memory.ts';
import { createResilientVectorStore } from './vectors/resilient.ts';

export type { MemoryRuntime } from './ports.ts';

export interface BuildMemoryDeps {
  config: HearthConfig['memory'];
  /** The gateway's Redis connections, one link per URL (`cache_url`). */
  redis: RedisPool;
  /** `{data_dir}/models`, the local model cache. */
  modelDir: string;
  longTerm: () => LongTermMemory;
  /** Sessions' stored conversation history (the SQL store's `conversation_messages`). */
  historyStore: () => ConversationHistoryStore;
  summarise: Summarise;
  metrics: Metrics;
  logger: Logger;
  now?: () => number;
  /** Replaces the local transformers embedder (tests). */
  embedder?: Embedder;
}

/**
 * Builds the three tiers from `[memory]`: Redis when `cache_url` is set (in-process while it is
 * unreachable), Qdrant when `vector_store_url` is set (the in-memory index while it is
 * unreachable), the SQL store; the embedder is local and loads on first use. Without Qdrant
 * the in-memory index is rebuilt from the embeddings stored with the long-term rows.
 */
export async function buildMemory(deps: BuildMemoryDeps): Promise<MemoryRuntime> {
  const now = deps.now ?? Date.now;
  const logger = deps.logger.child({ area: 'memory' });
  const embedder = deps.embedder ?? createTransformersEmbedder({ modelDir: deps.modelDir, logger });
  // Whether the local model's files are there (a folder check, no load): absent, it is off.
  const modelFilesPresent =
    deps.embedder === undefined
      ? (await inspectModelFolder(deps.modelDir, DEFAULT_EMBEDDING_MODEL_ID)).ok
      : null;

  // The Redis and Qdrant clients are imported only when configured: loaded, they hold ~40 MB
  // resident in a gateway that never uses them.
  const onDropped: OnShortTermDropped = (reason, count) =>
    deps.metrics.shortTermItemsDroppedTotal.inc({ reason }, count);
  const maxItemBytes = deps.config.short_term_max_item_bytes;
  const inProcess = createInProcessShortTermStore({
    now,
    maxItemBytes,
    maxStoreBytes: deps.config.short_term_max_bytes,
    onDropped,
  });
  let shortTerm: ShortTermStore = inProcess;
  if (deps.config.cache_url !== '') {
    const { createRedisShortTermStore } = await import('./short-term/redis.ts');
    shortTerm = await createResilientShortTermStore({
      primary: createRedisShortTermStore({
        link: await deps.redis.open(deps.config.cache_url),
        logger,
        now,
        maxItemBytes,
        onDropped,
      }),
      fallback: inProcess,
      logger,
    });
  }

  const inMemory = createInMemoryVectorStore(embedder.dimensions);
  const late: { service?: MemoryService } = {};
  let vectors: VectorStore = inMemory;
  if (deps.config.vector_store_url !== '') {
    const { createQdrantVectorStore } = await import('./vectors/qdrant.ts');
    vectors = await createResilientVectorStore({
      primary: createQdrantVectorStore({
        url: deps.config.vector_store_url,
        dimensions: embedder.dimensions,
        logger,
      }),
      fallback: inMemory,
      logger,
      warmFallback: async (fallback) => {
        await late.service?.rebuildVectorIndex(fallback);
      },
    });
  }

  const service = createMemoryService({
    shortTerm,
    vectors,
    longTerm: deps.longTerm,
    embedder,
    shortTermTtlSeconds: deps.config.short_term_ttl,
    metrics: deps.metrics,
    logger,
    now,
    randomId: randomUUID,
  });
  late.service = service;
  const history = createConversationHistory({ store: deps.historyStore, logger });
  const compactor = createCompactor({
    summarise: deps.summarise,
    store: (entry) => service.store(entry),
    originsOf: (sessionId, hashes) => service.originsOf(sessionId, hashes),
    history,
    logger,
  });

  // Without Qdrant, the index is rebuilt from the stored embeddings; with Qdrant configured the
  // resilient store warms its in-memory fallback itself when (and if) it is first needed.
  if (deps.config.vector_store_url === '') {
    const started = performance.now();
    service
      .rebuildVectorIndex()
      .then((loaded) =>
        logger.info(
          { loaded, ms: Math.round(performance.now() - started) },
          'vector index rebuilt',
        ),
      )
      .catch((error: unknown) =>
        logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'vector index rebuild failed',
        ),
      );
  }

  return {
    service,
    compactor,
    history,
    shortTerm,
    vectors,
    embedder,
    backends: () => ({
      short_term: shortTerm.kind,
      vectors: vectors.kind,
      embedder: embedderBackend(embedder.state, modelFilesPresent),
    }),
    async close() {
      await compactor.idle();
      await shortTerm.close();
      await vectors.close();
      await (embedder as { close?: () => Promise<void> }).close?.();
    },
  };
}
