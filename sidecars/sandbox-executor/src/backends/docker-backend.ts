/**
 * The sandbox proper: every command runs in a throwaway container created through the Docker
 * engine API (dockerode) and removed afterwards. The container has no network unless the call
 * asks for it, a read-only root file system, a tmpfs work area at /work (or a mounted workspace
 * volume), a non-root user, no capabilities, no-new-privileges, memory/CPU/pids limits and no
 * log driver (output is read through attach, capped, never stored by the engine). The timeout
 * or an abort kills the container; it is always removed.
 *
 * Containers are created without AutoRemove: an auto-removed container can be gone before the
 * exit code is read (dockerode cannot wait for the engine to acknowledge a wait before the
 * start), so each call removes its container itself, and `prepare()` sweeps exited leftovers
 * of a crashed sidecar by label.
 */
import { posix } from 'node:path';
import { Writable } from 'node:stream';
import type Dockerode from 'dockerode';
import type { Logger } from '../logger.ts';
import { createCappedOutput } from '../../../../common/sandbox/output-cap.ts';
import { abortedResult, ExecRequestError } from './ports.ts';
import type { Backend, BackendRequest, BackendResult } from './ports.ts';

/** The part of a dockerode `Container` this backend uses. */
export interface DockerContainer {
  readonly id: string;
  attach(options: Dockerode.ContainerAttachOptions): Promise<NodeJS.ReadableStream>;
  start(): Promise<unknown>;
  wait(): Promise<{ StatusCode: number }>;
  kill(options: { signal: string }): Promise<unknown>;
  remove(options: { force: boolean }): Promise<unknown>;
}

/** The part of a dockerode client this backend uses (a `new Dockerode()` fits). */
export interface DockerClient {
  ping(): Promise<unknown>;
  createContainer(options: Dockerode.ContainerCreateOptions): Promise<DockerContainer>;
  getContainer(id: string): Pick<DockerContainer, 'remove'>;
  listContainers(options: {
    all: boolean;
    filters: Record<string, string[]>;
  }): Promise<{ Id: string }[]>;
  getImage(name: string): { inspect(): Promise<unknown> };
  pull(image: string): Promise<NodeJS.ReadableStream>;
  modem: {
    demuxStream(
      stream: NodeJS.ReadableStream,
      stdout: NodeJS.WritableStream,
      stderr: NodeJS.WritableStream,
    ): void;
    followProgress(
      stream: NodeJS.ReadableStream,
      onFinished: (error: Error | null, result: unknown[]) => void,
    ): void;
  };
}

export interface DockerBackendOptions {
  docker: DockerClient;
  image: string;
  logger: Logger;
  /** A Docker volume mounted at /work instead of a tmpfs (files then outlive the call). */
  workspaceVolume?: string;
  /** Default 512 MiB, no swap on top. */
  memoryBytes?: number;
  /** Default 1 CPU (1e9). */
  nanoCpus?: number;
  /** Default 128 processes. */
  pidsLimit?: number;
  /** Default 65534:65534 (nobody). */
  user?: string;
  /** Size of the tmpfs work area and of /tmp, default 64m. */
  tmpfsSize?: string;
  /** How long to wait for the output stream after the container ended (default 1 s). */
  drainGraceMs?: number;
}

export interface DockerBackend extends Backend {
  /** Pulls the image when missing, sweeps leftovers, hands the workspace volume to the user. */
  prepare(): Promise<void>;
}

export const WORK_DIR = '/work';
export const SANDBOX_LABEL = 'io.hearth.sandbox';
const PING_TIMEOUT_MS = 3_000;

export function createDockerBackend(options: DockerBackendOptions): DockerBackend {
  const { docker, image, logger } = options;
  const user = options.user ?? '65534:65534';
  const memory = options.memoryBytes ?? 512 * 1024 * 1024;
  const tmpfs = `rw,nosuid,nodev,size=${options.tmpfsSize ?? '64m'},mode=1777`;
  const drainGraceMs = options.drainGraceMs ?? 1_000;
  const running = new Map<string, () => Promise<void>>();
  let closed = false;

  const hostConfig = (network: boolean): Dockerode.HostConfig => ({
    NetworkMode: network ? 'bridge' : 'none',
    ReadonlyRootfs: true,
    Tmpfs: options.workspaceVolume ? { '/tmp': tmpfs } : { [WORK_DIR]: tmpfs, '/tmp': tmpfs },
    Mounts: options.workspaceVolume ? [workspaceMount(options.workspaceVolume)] : [],
    Memory: memory,
    MemorySwap: memory,
    NanoCpus: options.nanoCpus ?? 1_000_000_000,
    PidsLimit: options.pidsLimit ?? 128,
    CapDrop: ['ALL'],
    SecurityOpt: ['no-new-privileges'],
    Init: true, // a tiny init as PID 1 reaps what the command leaves behind
    AutoRemove: false, // removed by `run` itself, see above
    LogConfig: { Type: 'none', Config: {} },
  });

  /** Creates, runs and removes one container; output is read through attach and capped. */
  async function runContainer(
    create: Dockerode.ContainerCreateOptions,
    request: BackendRequest,
  ): Promise<BackendResult> {
    if (request.signal?.aborted) return abortedResult();
    const started = performance.now();
    const stdout = createCappedOutput(request.maxOutputBytes);
    const stderr = createCappedOutput(request.maxOutputBytes);
    const container = await docker.createContainer(create);
    let killed: 'timeout' | 'abort' | null = null;
    let timer: NodeJS.Timeout | undefined;
    const kill = async () => {
      await container.kill({ signal: 'SIGKILL' }).catch(() => undefined); // 409: not running
    };
    const onAbort = () => {
      killed ??= 'abort';
      void kill();
    };
    running.set(container.id, () => {
      killed ??= 'abort'; // close(): ends like an abort
      return kill();
    });
    request.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const stream = await container.attach({ stream: true, stdout: true, stderr: true });
      const ended = new Promise<void>((resolve) => {
        stream.once('end', resolve);
        stream.once('close', resolve);
        stream.once('error', () => resolve());
      });
      docker.modem.demuxStream(
        stream,
        sink((chunk) => stdout.push(chunk)),
        sink((chunk) => stderr.push(chunk)),
      );
      if (request.signal?.aborted) return abortedResult(performance.now() - started);
      await container.start();
      timer = setTimeout(() => {
        killed ??= 'timeout';
        void kill();
      }, request.timeoutSeconds * 1000);
      if (request.signal?.aborted) onAbort();
      const { StatusCode } = await container.wait();
      clearTimeout(timer);
      await Promise.race([ended, delay(drainGraceMs)]);
      destroy(stream);
      return {
        exitCode: killed ? null : StatusCode,
        signal: killed ? 'SIGKILL' : null,
        stdout: stdout.text(),
        stderr: stderr.text(),
        timedOut: killed === 'timeout',
        truncated: stdout.truncated || stderr.truncated,
        durationMs: performance.now() - started,
      };
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      running.delete(container.id);
      await container.remove({ force: true }).catch((error: unknown) => {
        logger.warn({ container: container.id, error }, 'could not remove a sandbox container');
      });
    }
  }

  return {
    name: 'docker',
    isolation: 'container',

    async run(request) {
      if (closed) throw new Error('the docker backend is closed');
      const workdir = containerWorkdir(request.workdir);
      return runContainer(
        {
          Image: image,
          Cmd: ['/bin/sh', '-c', request.command],
          Env: Object.entries(request.env).map(([name, value]) => `${name}=${value}`),
          WorkingDir: workdir,
          User: user,
          Tty: false,
          OpenStdin: false,
          AttachStdin: false,
          AttachStdout: true,
          AttachStderr: true,
          Labels: { [SANDBOX_LABEL]: 'exec' },
          HostConfig: hostConfig(request.network === true),
        },
        request,
      );
    },

    async ping() {
      try {
        await withTimeout(docker.ping(), PING_TIMEOUT_MS);
        return !closed;
      } catch {
        return false;
      }
    },

    async close() {
      closed = true;
      await Promise.all([...running.values()].map((kill) => kill()));
    },

    async prepare() {
      await ensureImage(docker, image, logger);
      await sweepLeftovers(docker, logger);
      if (options.workspaceVolume) {
        // A new volume belongs to root: hand its top directory to the sandbox user, once.
        const [uid = '65534', gid = uid] = user.split(':');
        const result = await runContainer(
          {
            Image: image,
            Cmd: [
              '/bin/sh',
              '-c',
              `[ "$(stat -c %u:%g ${WORK_DIR})" = "${uid}:${gid}" ] || ` +
                `{ chmod 0755 ${WORK_DIR} && chown ${uid}:${gid} ${WORK_DIR}; }`,
            ],
            User: '0:0',
            Labels: { [SANDBOX_LABEL]: 'prepare' },
            AttachStdout: true,
            AttachStderr: true,
            HostConfig: { ...hostConfig(false), CapAdd: ['CHOWN'] },
          },
          { command: 'prepare', timeoutSeconds: 60, env: {}, maxOutputBytes: 4096 },
        );
        if (result.exitCode !== 0) {
          throw new Error(
            `could not prepare the workspace volume ${options.workspaceVolume}: ${result.stderr.trim()}`,
          );
        }
      }
    },
  };
}

/**
 * The workspace volume at /work. NoCopy: without it the engine copies the image's /work (its
 * owner and mode too) into the volume whenever the volume is empty, undoing `prepare()`.
 */
function workspaceMount(volume: string): Dockerode.MountSettings {
  // @types/dockerode marks Labels and DriverConfig required; the engine API does not.
  const volumeOptions = { NoCopy: true } as Dockerode.MountSettings['VolumeOptions'];
  return {
    Type: 'volume',
    Source: volume,
    Target: WORK_DIR,
    ReadOnly: false,
    VolumeOptions: volumeOptions,
  };
}

/** `/work` or a path below it: the only writable place in the container. */
function containerWorkdir(requested: string | undefined): string {
  if (requested === undefined) return WORK_DIR;
  const normalised = posix.normalize(requested);
  if (!posix.isAbsolute(normalised) || normalised.includes('\0')) {
    throw new ExecRequestError('workdir must be an absolute path inside the container');
  }
  const trimmed = normalised.length > 1 ? normalised.replace(/\/+$/, '') : normalised;
  if (trimmed !== WORK_DIR && !trimmed.startsWith(`${WORK_DIR}/`)) {
    throw new ExecRequestError(`workdir must be ${WORK_DIR} or a directory below it`);
  }
  return trimmed;
}

async function ensureImage(docker: DockerClient, image: string, logger: Logger): Promise<void> {
  try {
    await docker.getImage(image).inspect();
    return;
  } catch {
    logger.info({ image }, 'pulling the sandbox image');
  }
  const stream = await docker.pull(image);
  await new Promise<void>((resolve, reject) => {
    docker.modem.followProgress(stream, (error) => (error ? reject(error) : resolve()));
  });
  logger.info({ image }, 'pulled the sandbox image');
}

/** Removes exited containers a previous sidecar left behind (e.g. after a crash). */
async function sweepLeftovers(docker: DockerClient, logger: Logger): Promise<void> {
  const leftovers = await docker.listContainers({
    all: true,
    filters: { label: [`${SANDBOX_LABEL}`], status: ['exited', 'dead'] },
  });
  for (const { Id } of leftovers) {
    await docker
      .getContainer(Id)
      .remove({ force: true })
      .catch(() => undefined);
  }
  if (leftovers.length > 0) {
    logger.info({ count: leftovers.length }, 'removed leftover sandbox containers');
  }
}

function sink(push: (chunk: Buffer) => void): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      push(chunk);
      callback();
    },
  });
}

function destroy(stream: NodeJS.ReadableStream): void {
  if ('destroy' in stream && typeof stream.destroy === 'function') {
    (stream as NodeJS.ReadableStream & { destroy(): void }).destroy();
  }
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
