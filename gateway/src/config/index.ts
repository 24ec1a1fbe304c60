export { DEFAULT_CONFIG_TOML } from './default-file.ts';
export { readEnvironment, type HearthEnvironment } from './environment.ts';
export { formatIssues, loadConfig, parseConfig, redactSecrets, type LoadedConfig } from './load.ts';
export { createOnePasswordReader } from './one-password.ts';
export {
  CHANNEL_TYPES,
  channelNameSchema,
  channelSchema,
  configSchema,
  defaultConfig,
  isSecretKey,
  KEY_PROVIDERS,
  type ChannelConfig,
  type ChannelType,
  type GatewayConfig,
  type HearthConfig,
} from './schema.ts';
export { tuneThisProcess, type RuntimeReport } from './runtime-tuning.ts';
export { resolveSecret, type SecretResolverDeps } from './secrets.ts';
export { ensureStateDir, resolveDbPath, statePaths, type StatePaths } from './state-dir.ts';
export {
  setConfigTable,
  updateConfigFile,
  updateConfigTable,
  writeFileAtomic,
  type ConfigValue,
} from './write.ts';
