import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Everything Hearth reads from the process environment, read in one place. */
export interface HearthEnvironment {
  /** The state directory ({data_dir}): HEARTH_HOME, else ~/.hearth. */
  home: string;
  /** config.toml path: HEARTH_CONFIG, else {home}/config.toml. */
  configPath: string;
  /** The privacy audit database: HEARTH_AUDIT_DB_PATH, else {home}/privacy_audit.db. */
  auditDbPath: string;
  /** Overrides [gateway] log_level when set (HEARTH_LOG_LEVEL). */
  logLevel: string | undefined;
  /** The editor for `hearth config edit`: VISUAL, EDITOR, else vi. */
  editor: string;
  /**
   * The gateway `hearth mcp` talks to (HEARTH_GATEWAY_URL) and its key (HEARTH_API_KEY): set by
   * the gateway for the `hearth mcp` it spawns; otherwise the CLI locates the gateway itself.
   */
  gatewayUrl: string | undefined;
  apiKey: string | undefined;
  /** The whole environment, for resolving ENV: secret references and child processes. */
  variables: Readonly<Record<string, string | undefined>>;
}

export function readEnvironment(env: NodeJS.ProcessEnv = process.env): HearthEnvironment {
  const home = resolve(env.HEARTH_HOME || join(homedir(), '.hearth'));
  return {
    home,
    configPath: resolve(env.HEARTH_CONFIG || join(home, 'config.toml')),
    auditDbPath: resolve(env.HEARTH_AUDIT_DB_PATH || join(home, 'privacy_audit.db')),
    logLevel: env.HEARTH_LOG_LEVEL || undefined,
    editor: env.VISUAL || env.EDITOR || 'vi',
    gatewayUrl: env.HEARTH_GATEWAY_URL || undefined,
    apiKey: env.HEARTH_API_KEY || undefined,
    variables: env,
  };
}
