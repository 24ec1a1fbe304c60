/**
 * Entry point: `node src/main.ts`. Reads the environment (config/env.ts), picks the backend,
 * listens, and on SIGTERM/SIGINT stops accepting calls, kills running commands and exits.
 */
import { chmodSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { ConfigError, loadConfig } from './config/env.ts';
import { createJsonLogger } from './logger.ts';
import { selectBackend } from './select-backend.ts';
import { createSandboxServer } from './server.ts';
import { createDockerLauncher } from './skills/docker-launcher.ts';
import { createProcessLauncher } from './skills/process-launcher.ts';
import type { SkillLauncher } from './skills/launcher.ts';

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

// Skill hosts (GET /skills/host) run where this backend runs commands.
let launcher: SkillLauncher | undefined;
let closeLauncher = (): Promise<void> => Promise.resolve();
if (backend.name === 'process') {
  const processLauncher = createProcessLauncher({
    root: config.skillsDir ?? join(tmpdir(), 'hearth-sandbox-skills'),
    logger,
    socketOnly: config.socket !== undefined,
    bwrapPath: config.bwrap,
    limits: config.skillLimits,
  });
  if (processLauncher.limits) logger.warn({}, `skill hosts refused: ${processLauncher.limits}`);
  if (processLauncher.refusal !== null)
    logger.error({ bubblewrap: false, wall: null }, processLauncher.refusal);
  else
    logger.info(
      { bubblewrap: processLauncher.bubblewrap, wall: processLauncher.wall },
      processLauncher.bubblewrap
        ? 'skill hosts: node --permission inside bubblewrap'
        : `skill hosts: node --permission, wall: ${processLauncher.wall} (skill.py is refused without bubblewrap)`,
    );
  launcher = processLauncher;
} else {
  const dockerLauncher = createDockerLauncher({
    docker: new Docker(),
    image: config.skillImage,
    logger,
    limits: config.skillLimits,
  });
  closeLauncher = () => dockerLauncher.close();
  launcher = dockerLauncher;
  logger.info({ image: config.skillImage }, 'skill hosts: a throwaway container each');
}

const server = createSandboxServer({
  backend,
  token: config.token,
  logger,
  ...(launcher ? { skills: { launcher } } : {}),
});
if (config.socket !== undefined) {
  const socket = config.socket;
  rmSync(socket, { force: true }); // a socket file left by a previous run
  const mask = process.umask(0o177);
  server.listen(socket, () => {
    process.umask(mask);
    chmodSync(socket, 0o600);
    logger.info(
      { socket, backend: backend.name, isolation: backend.isolation },
      'sandbox-executor listening',
    );
  });
} else {
  server.listen(config.port, config.host, () => {
    // The bound port (SANDBOX_PORT=0 picks a free one).
    const { port } = server.address() as AddressInfo;
    logger.info(
      { host: config.host, port, backend: backend.name, isolation: backend.isolation },
      'sandbox-executor listening',
    );
  });
}

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping');
  server.close();
  void Promise.all([backend.close(), closeLauncher()]).finally(() => {
    server.closeAllConnections();
    process.exit(0);
  });
};
process.once('SIGTERM', () => stop('SIGTERM'));
process.once('SIGINT', () => stop('SIGINT'));
