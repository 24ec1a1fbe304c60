import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DockerClient } from './backends/docker-backend.ts';
import { createJsonLogger } from './logger.ts';
import { selectBackend } from './select-backend.ts';

/** An engine that never answers: every call fails. */
const deadEngine = (): DockerClient =>
  new Proxy({} as DockerClient, {
    get: () => () => Promise.reject(new Error('connect ENOENT /var/run/docker.sock')),
  });

describe('backend selection', () => {
  let workdir: string;
  beforeAll(async () => {
    workdir = await mkdtemp(join(tmpdir(), 'hearth-select-backend-'));
  });
  afterAll(async () => {
    await rm(workdir, { recursive: true, force: true });
  });

  const base = { image: 'img', workspaceVolume: undefined };

  it('auto: falls back to the process backend when no engine answers, and logs why', async () => {
    const lines: string[] = [];
    const backend = await selectBackend({
      ...base,
      choice: 'auto',
      docker: deadEngine,
      logger: createJsonLogger('info', (line) => lines.push(line)),
      processWorkdir: workdir,
    });
    expect(backend).toMatchObject({ name: 'process', isolation: 'process-group' });
    expect(lines.join('')).toMatch(/"level":"warn".*backend: process \(no Docker engine answered/);
  });

  it('docker: refuses to start when the engine does not answer', async () => {
    await expect(
      selectBackend({
        ...base,
        choice: 'docker',
        docker: deadEngine,
        logger: createJsonLogger('silent'),
      }),
    ).rejects.toThrow(/SANDBOX_BACKEND=docker but the Docker engine does not answer/);
  });

  it('process: never touches the engine', async () => {
    const backend = await selectBackend({
      ...base,
      choice: 'process',
      docker: () => {
        throw new Error('the engine client must not be built');
      },
      logger: createJsonLogger('silent'),
      processWorkdir: workdir,
    });
    expect(backend.name).toBe('process');
    await backend.close();
  });
});
