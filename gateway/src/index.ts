/** The gateway as a library: build one with `createGateway`, or run one with `runGateway`. */
export * from './config/index.ts';
export { errorCodes, HearthError, type ErrorCode } from './errors.ts';
export {
  AGENT_NAME,
  createGateway,
  type Gateway,
  type GatewayDeps,
  type ListeningAddress,
} from './gateway.ts';
export { assertSafeBinding, isLoopbackHost } from './http/binding.ts';
export { createLogger, silentLogger, type Logger } from './observability/logger.ts';
export { runGateway, type RunningGateway, type RunOptions } from './run.ts';
export { installSignalHandlers } from './lifecycle/signals.ts';
export { VERSION } from './version.ts';
export {
  PROVIDER_NAMES,
  PROVIDERS,
  resolveModel,
  resolveProviderName,
  type ProviderName,
} from './providers/catalog.ts';
export { providerStatuses, type ProviderStatus } from './providers/status.ts';
export { THINKING_LEVELS, type ThinkingLevel } from './providers/thinking.ts';
export type { UsageReport } from './usage/usage-tracker.ts';
export { openDatabase } from './db/open-database.ts';
export type { Database } from './db/ports.ts';
export type { MemoryEntry } from './memory/ports.ts';
export { archiveInactiveSessions } from './memory/archival.ts';
export { pullEmbeddingModel } from './memory/embedder/pull-model.ts';
// `hearth memory search --semantic` without a gateway: the local model on the stored embeddings.
export {
  createTransformersEmbedder,
  DEFAULT_EMBEDDING_MODEL_ID,
  inspectModelFolder,
} from './memory/embedder/index.ts';
export { searchStoredEmbeddings } from './memory/semantic-local.ts';
export type { SemanticMatch } from './memory/ports.ts';
export { createLlmRouter } from './providers/router.ts';
export { createUsageTracker } from './usage/usage-tracker.ts';
export { createMetrics } from './observability/metrics.ts';
export { createHostStats } from './observability/host-stats.ts';
export { SUMMARY_PROMPT } from './memory/summarise.ts';
