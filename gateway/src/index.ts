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
export { PROVIDER_NAMES, PROVIDERS, resolveModel, resolveProviderName, type ProviderName } from './providers/catalog.ts';
export { providerStatuses, type ProviderStatus } from './providers/status.ts';
export { THINKING_LEVELS, type ThinkingLevel } from './providers/thinking.ts';
export type { UsageReport } from './usage/usage-tracker.ts';
