/**
 * The providers area's public face: the model router, the provider catalog (names, models,
 * context windows, thinking levels) and the chat message types every generation uses. Other
 * areas import only this file.
 */
export type {
  Attempt,
  LlmRouter,
  RouteRequest,
  RoutedEvent,
  RoutedGeneration,
  RuntimeModelSettings,
} from './router.ts';
export {
  PROVIDER_NAMES,
  providerSpec,
  resolveModel,
  resolveProviderName,
  type ModelsConfig,
  type ProviderName,
  type ProviderSpec,
  type ResolvedModel,
} from './catalog.ts';
export { contextWindowOf, estimateTokens, estimateTokensOfLength } from './context-windows.ts';
export type {
  ChatMessage,
  FinishReason,
  Generation,
  GenerationEvent,
  ToolCall,
  ToolSpec,
  Usage,
} from './messages.ts';
export { MODEL_ID_PATTERN, modelIdSchema, modelLabel } from './model-label.ts';
export { THINKING_LEVELS, isThinkingLevel, type ThinkingLevel } from './thinking-levels.ts';
