/**
 * The sandbox-executor sidecar with its Docker backend on a real engine: the shared executor
 * conformance suite through the sidecar's HTTP API (the gateway's sidecar executor against the
 * sidecar server, in this process), then the isolation a throwaway container must have: no
 * network unless asked, read-only root, non-root user, no capabilities, pids and memory limits,
 * a fresh work area per call, nothing left behind.
 *
 * Needs a Docker engine (found with `docker info`) and the image (default hearth-sandbox:local,
 * which scripts/build-images.sh makes without pulling; pulled when missing; override with
 * SANDBOX_E2E_IMAGE, e.g. debian:bookworm-slim where Docker Hub is reachable). Without an engine the whole file is
 * skipped and the title says why.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONFORMANCE_PATH,
  runExecutorConformance,
} from '../gateway/src/tools/executors/conformance.ts';
import type { ConformanceScratch } from '../gateway/src/tools/executors/conformance.ts';
import type { ExecRequest, Executor } from '../gateway/src/tools/executors/ports.ts';
import { createSidecarExecutor } from '../gateway/src/tools/executors/sidecar/sidecar-executor.ts';
import { silentLogger as silentGatewayLogger } from '../gateway/src/observability/logger.ts';
import {
  createDockerBackend,
  createSandboxServer,
  Docker,
  SANDBOX_LABEL,
  silentLogger,
} from '../sidecars/sandbox-executor/src/index.ts';
import type { Backend, DockerOptions } from '../sidecars/sandbox-executor/src/index.ts';

const run = promisify(execFile);
const IMAGE = process.env.SANDBOX_E2E_IMAGE || 'hearth-sandbox:local';
const TOKEN = `e2e-${randomBytes(16).toString('hex')}`;
const PIDS_LIMIT = 64;
const MEMORY_BYTES = 256 * 1024 * 1024;

interface Engine {
  ok: boolean;
  reason: string;
  docker?: DockerOptions;
}

/** `docker info` with a short timeout; the endpoint of the current context for dockerode. */
async function detectEngine(): Promise<Engine> {
  try {
    const { stdout } = await run('docker', ['info', '--format', '{{.ServerVersion}}'], {
      timeout: 5_000,
    });
    const version = stdout.trim();
    if (version === '') return { ok: false, reason: 'docker info reported no server version' };
    const host = await run(
      'docker',
      ['context', 'inspect', '--format', '{{.Endpoints.docker.Host}}'],
      { timeout: 5_000 },
    )
      .then(({ stdout: out }) => out.trim())
      .catch(() => '');
    const docker = host.startsWith('unix://') ? { socketPath: host.slice('unix://'.length) } : {};
    return { ok: true, reason: `engine ${version}`, docker };
  } catch (error) {
    if ((error as { killed?: boolean }).killed) {
      return { ok: false, reason: 'no Docker engine reachable (docker info timed out after 5 s)' };
    }
    const message = (error as Error).message
      .split('\n')
      .find((line) => /daemon|not found|ENOENT|timed out/i.test(line));
    return {
      ok: false,
      reason: `no Docker engine reachable (docker info: ${message?.trim() ?? 'failed'})`,
    };
  }
}

const engine = await detectEngine();
const title = engine.ok
  ? `sandbox-executor Docker backend (${engine.reason})`
  : `sandbox-executor Docker backend — skipped: ${engine.reason}`;

describe.skipIf(!engine.ok)(title, () => {
  let docker: Docker;
  let volume: string;
  let backend: Backend & { prepare(): Promise<void> };
  let server: Server;
  let url: string;

  beforeAll(async () => {
    docker = new Docker(engine.docker);
    volume = `hearth-sandbox-e2e-${randomBytes(4).toString('hex')}`;
    await docker.createVolume({ Name: volume, Labels: { [SANDBOX_LABEL]: 'e2e' } });
    backend = createDockerBackend({
      docker,
      image: IMAGE,
      workspaceVolume: volume,
      pidsLimit: PIDS_LIMIT,
      memoryBytes: MEMORY_BYTES,
      logger: silentLogger(),
    });
    await backend.prepare(); // pulls the image when missing, hands the volume to 65534
    server = createSandboxServer({ backend, token: TOKEN, logger: silentLogger() });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 300_000);

  afterAll(async () => {
    await backend?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await docker
      ?.getVolume(volume)
      .remove({ force: true })
      .catch(() => undefined);
  });

  /** A directory on the shared workspace volume, made and removed through the sandbox. */
  const volumeScratch: ConformanceScratch = {
    async create(executor) {
      const path = `/work/conformance-${randomBytes(4).toString('hex')}`;
      const made = await executor.run({
        command: `mkdir -p ${path}`,
        timeoutSeconds: 60,
        workdir: '/work',
        env: { PATH: CONFORMANCE_PATH },
      });
      if (made.exitCode !== 0) throw new Error(`could not make ${path}: ${made.stderr}`);
      return path;
    },
    async remove(executor, path) {
      await executor.run({
        command: `rm -rf ${path}`,
        timeoutSeconds: 60,
        workdir: '/work',
        env: { PATH: CONFORMANCE_PATH },
      });
    },
  };

  runExecutorConformance(
    'sidecar (Docker backend, over HTTP)',
    () => createSidecarExecutor({ url, token: TOKEN, fetch, logger: silentGatewayLogger() }),
    {
      scratch: volumeScratch,
      // The engine adds HOSTNAME, and HOME from the image's /etc/passwd.
      runtimeEnvNames: ['PWD', 'OLDPWD', 'SHLVL', '_', 'HOSTNAME', 'HOME'],
    },
  );

  describe('isolation of a throwaway container', () => {
    let executor: Executor;
    let tmpfsBackend: Backend;

    beforeAll(async () => {
      executor = await createSidecarExecutor({
        url,
        token: TOKEN,
        fetch,
        logger: silentGatewayLogger(),
      });
      tmpfsBackend = createDockerBackend({
        docker,
        image: IMAGE,
        pidsLimit: PIDS_LIMIT,
        logger: silentLogger(),
      });
    });

    afterAll(async () => {
      await executor?.close();
      await tmpfsBackend?.close();
    });

    const sh = (command: string, extra: Partial<ExecRequest> = {}) =>
      executor.run({ command, timeoutSeconds: 60, env: { PATH: CONFORMANCE_PATH }, ...extra });

    it('reports kind sandbox-docker and isolation container', () => {
      expect(executor.kind).toBe('sandbox-docker');
      expect(executor.isolation).toBe('container');
    });

    it('has no network unless the call asks for it', async () => {
      const none = await sh('ls /sys/class/net');
      expect(none.stdout.split(/\s+/).filter(Boolean)).toEqual(['lo']);
      const bridged = await sh('ls /sys/class/net', { network: true });
      expect(bridged.stdout.split(/\s+/).filter(Boolean).length).toBeGreaterThan(1);
    });

    it('has a read-only root file system and writable /work and /tmp', async () => {
      const root = await sh('touch /etc/hearth-probe');
      expect(root.exitCode).not.toBe(0);
      expect(root.stderr).toMatch(/read-only file system/i);
      const work = await sh('touch /work/probe /tmp/probe && echo ok');
      expect(work).toMatchObject({ exitCode: 0, stdout: 'ok\n' });
    });

    it('runs as a non-root user without capabilities or new privileges', async () => {
      const ids = await sh('id -u; id -g; grep -E "^(CapEff|NoNewPrivs):" /proc/self/status');
      const [uid, gid, ...status] = ids.stdout.trim().split('\n');
      expect([uid, gid]).toEqual(['65534', '65534']);
      expect(status.join('\n')).toMatch(/CapEff:\s+0{16}/);
      expect(status.join('\n')).toMatch(/NoNewPrivs:\s+1/);
    });

    it('limits the number of processes', async () => {
      const forks = await sh(
        `i=0; while [ $i -lt ${PIDS_LIMIT * 2} ]; do sleep 5 & i=$((i+1)); done; echo spawned`,
        { timeoutSeconds: 30 },
      );
      expect(forks.stderr).toMatch(/fork|resource temporarily unavailable/i);
    });

    it('limits memory', async () => {
      const limit = await sh(
        'cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes',
      );
      expect(Number(limit.stdout.trim())).toBe(MEMORY_BYTES);
    });

    it('gives each call a fresh tmpfs work area when no volume is configured', async () => {
      const request = { timeoutSeconds: 60, env: { PATH: CONFORMANCE_PATH }, maxOutputBytes: 1024 };
      const write = await tmpfsBackend.run({
        ...request,
        command: 'echo x > /work/left; grep " /work " /proc/mounts',
      });
      expect(write.exitCode).toBe(0);
      expect(write.stdout).toMatch(/tmpfs/);
      const read = await tmpfsBackend.run({
        ...request,
        command: 'test -e /work/left && echo left || echo fresh',
      });
      expect(read.stdout).toBe('fresh\n');
    });

    it('leaves no container behind', async () => {
      const left = await docker.listContainers({
        all: true,
        filters: { label: [`${SANDBOX_LABEL}=exec`] },
      });
      expect(left).toEqual([]);
    });
  });
});
