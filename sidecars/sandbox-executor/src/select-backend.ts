/**
 * Chooses the backend at start-up: `docker` when asked for (the engine must answer), `process`
 * when asked for, else docker when the engine answers and process when it does not. The
 * choice and its reason are logged, and /health reports it.
 */
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BackendChoice } from './config/env.ts';
import { createDockerBackend } from './backends/docker-backend.ts';
import type { DockerClient } from './backends/docker-backend.ts';
import { createProcessBackend } from './backends/process-backend.ts';
import type { Backend } from './backends/ports.ts';
import type { Logger } from './logger.ts';

export interface SelectBackendOptions {
  choice: BackendChoice;
  image: string;
  workspaceVolume: string | undefined;
  /** Builds the engine client (lazily: never called for the process backend). */
  docker: () => DockerClient;
  logger: Logger;
  /** Work area of the process backend (default: <tmpdir>/hearth-sandbox-work). */
  processWorkdir?: string;
}

export async function selectBackend(options: SelectBackendOptions): Promise<Backend> {
  const { choice, logger } = options;
  if (choice !== 'process') {
    const backend = createDockerBackend({
      docker: options.docker(),
      image: options.image,
      workspaceVolume: options.workspaceVolume,
      logger,
    });
    if (await backend.ping()) {
      await backend.prepare();
      logger.info(
        { backend: 'docker', isolation: 'container', image: options.image, choice },
        'backend: docker (a throwaway container per command)',
      );
      return backend;
    }
    await backend.close();
    if (choice === 'docker') {
      throw new Error(
        'SANDBOX_BACKEND=docker but the Docker engine does not answer: is the socket mounted ' +
          'and readable by this user (compose: DOCKER_GID = the group id of /var/run/docker.sock)?',
      );
    }
    logger.warn(
      { backend: 'process', isolation: 'process-group', choice },
      'backend: process (no Docker engine answered; commands run as process groups of this ' +
        'machine, not in containers)',
    );
  } else {
    logger.info(
      { backend: 'process', isolation: 'process-group', choice },
      'backend: process (SANDBOX_BACKEND=process)',
    );
  }
  const workdir = options.processWorkdir ?? join(tmpdir(), 'hearth-sandbox-work');
  await mkdir(workdir, { recursive: true, mode: 0o700 });
  return createProcessBackend({ defaultWorkdir: workdir, logger });
}
