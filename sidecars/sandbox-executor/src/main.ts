/**
 * Entry point: `node src/main.ts`. Reads the environment (config/env.ts), picks the backend,
 * listens, and on SIGTERM/SIGINT stops accepting calls, kills running commands and exits.
 */
import Docker from 'dockerode';
import { ConfigError, loadConfig } from './config/env.ts';
import { createJsonLogger } from './logger.ts';
import { selectBackend } from './select-backend.ts';
import { createSandboxServer } from './server.ts';

let config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  createJsonLogger('info').error({}, error.message);
  process.exit(1);
}

const logger = createJsonLogger(config.logLevel);
let backend;
try {
  backend = await selectBackend({
    choice: config.backend,
    image: config.image,
    workspaceVolume: config.workspaceVolume,
    docker: () => new Docker(),
    logger,
  });
} catch (error) {
  logger.error({}, error instanceof Error ? error.message : String(error));
  process.exit(1);
}

const server = createSandboxServer({ backend, token: config.token, logger });
server.listen(config.port, config.host, () => {
  logger.info(
    { host: config.host, port: config.port, backend: backend.name, isolation: backend.isolation },
    'sandbox-executor listening',
  );
});

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping');
  server.close();
  void backend.close().finally(() => {
    server.closeAllConnections();
    process.exit(0);
  });
};
process.once('SIGTERM', () => stop('SIGTERM'));
process.once('SIGINT', () => stop('SIGINT'));
