import { access, constants } from 'node:fs/promises';
import type { HearthEnvironment } from './config/environment.ts';
import { DEFAULT_CONFIG_TOML } from './config/default-file.ts';
import { loadConfig } from './config/load.ts';
import { createOnePasswordReader } from './config/one-password.ts';
import { ensureStateDir, statePaths } from './config/state-dir.ts';
import { writeFileAtomic } from './config/write.ts';
import { openDatabase } from './db/open-database.ts';
import { createGateway, type Gateway, type ListeningAddress } from './gateway.ts';
import { createLogTail } from './observability/log-tail.ts';
import { createLogger, type Logger } from './observability/logger.ts';
import type { EarlyStart } from './lifecycle/early-start.ts';
import { recordListeningGateway, removeRuntimeFile } from './lifecycle/runtime-file.ts';
import type { RuntimeReport } from './config/runtime-tuning.ts';
import type { McpServerCommand } from './mcp/ports.ts';

export interface RunOptions {
  env: HearthEnvironment;
  /** `-c/--config`; defaults to the environment's config path. */
  configPath?: string;
  /** `--bind` / `--port` overrides of `[gateway] host` / `port`. */
  host?: string;
  port?: number;
  /** Human-readable logs (a terminal); JSON lines otherwise. */
  pretty: boolean;
  /** The process's memory set-up (config/runtime-tuning.ts), for /status. */
  runtime?: RuntimeReport;
  /** How `POST /mcp/spawn` starts `hearth mcp`: the CLI that started this gateway. */
  mcpServerCommand?: McpServerCommand;
  /**
   * The port main.ts bound before loading the gateway: the server takes its listening socket
   * over instead of binding again (`--bind`/`--port` and the config file agreed on it).
   */
  listenOn?: EarlyStart;
}

export interface RunningGateway {
  gateway: Gateway;
  address: ListeningAddress;
  logger: Logger;
  /** Stops the gateway; a second call waits for the first. */
  stop(): Promise<void>;
}

/**
 * Starts a gateway the way a user runs one: state directory (0700), a commented config.toml
 * on first start, configuration loaded and secrets resolved, the port bound, start-up phases
 * running in the background (/ready says when they are done).
 */
export async function runGateway(options: RunOptions): Promise<RunningGateway> {
  const { env } = options;
  const configPath = options.configPath ?? env.configPath;
  await ensureStateDir(env.home);
  if (!(await exists(configPath))) await writeFileAtomic(configPath, DEFAULT_CONFIG_TOML);

  const secrets = { env: env.variables, readOnePassword: createOnePasswordReader(env.variables) };
  const loaded = await loadConfig(configPath, secrets);
  const config = loaded.config;
  if (options.host !== undefined) config.gateway.host = options.host;
  if (options.port !== undefined) config.gateway.port = options.port;

  const logTail = createLogTail();
  const logger = createLogger({
    level: env.logLevel ?? config.gateway.log_level,
    pretty: options.pretty,
    tail: logTail,
  });
  const gateway = createGateway(config, {
    logger,
    paths: statePaths(env.home, configPath, env.auditDbPath),
    openDatabase,
    secrets,
    processEnv: env.variables,
    areas: {
      status: { runtime: options.runtime },
      mcp: { serverCommand: options.mcpServerCommand },
      logs: { tail: logTail },
    },
  });
  // Where this gateway listens, for `hearth status|chat|stop` (removed on a clean exit): written
  // before the first request is answered, so whoever sees /health answer finds it (main.ts
  // wrote it already when it bound the port early).
  const warnNoRuntimeFile = (error: unknown) =>
    logger.warn(
      { err: error },
      'could not write the runtime file: the CLI may not find this gateway',
    );
  const early = options.listenOn;
  if (early?.runtimeFileError !== undefined) warnNoRuntimeFile(early.runtimeFileError);
  const address = await gateway.listen((bound) => {
    if (early !== undefined) return;
    try {
      recordListeningGateway(env.home, bound, configPath);
    } catch (error) {
      warnNoRuntimeFile(error);
    }
  }, early?.listener);
  logger.info({ url: address.url, config: configPath }, `Hearth listening on ${address.url}`);
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= gateway
      .close()
      .finally(() =>
        removeRuntimeFile(env.home, { pid: process.pid, port: address.port }).catch(
          (error: unknown) => logger.warn({ err: error }, 'could not remove the runtime file'),
        ),
      ));
  return { gateway, address, logger, stop };
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path, constants.F_OK);
    return true;
  } catch {
    return false;
  }
}
