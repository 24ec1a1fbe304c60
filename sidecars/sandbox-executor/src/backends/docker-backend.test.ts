/**
 * The Docker backend against a scripted stand-in for the engine API: what it asks the engine
 * for (the isolation settings), how it reads and caps output, and how it kills and removes.
 * The real engine is exercised in e2e/sandbox-docker.e2e.test.ts.
 */
import { PassThrough } from 'node:stream';
import Dockerode from 'dockerode';
import type { ContainerCreateOptions } from 'dockerode';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.ts';
import { createDockerBackend } from './docker-backend.ts';
import type { DockerClient, DockerContainer } from './docker-backend.ts';
import { ExecRequestError } from './ports.ts';
import type { BackendRequest } from './ports.ts';

/** What a fake container does once started. */
interface Script {
  frames?: [1 | 2, string | Buffer][];
  exitCode?: number;
  /** Runs until killed. */
  hang?: boolean;
}

/** docker's multiplexed stream framing: [stream, 0, 0, 0, size (u32 BE)] + payload. */
function frame(stream: 1 | 2, payload: string | Buffer): Buffer {
  const body = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(body.length, 4);
  return Buffer.concat([header, body]);
}

function fakeEngine(script: (options: ContainerCreateOptions) => Script = () => ({})) {
  const realModem = new Dockerode({ socketPath: '/nonexistent/docker.sock' }).modem;
  const log = {
    created: [] as ContainerCreateOptions[],
    started: [] as string[],
    killed: [] as string[],
    removed: [] as string[],
    pulled: [] as string[],
  };
  let imagePresent = true;
  let engineUp = true;
  let leftovers: { Id: string }[] = [];
  let next = 0;

  const client: DockerClient = {
    ping: () => (engineUp ? Promise.resolve('OK') : Promise.reject(new Error('ECONNREFUSED'))),
    createContainer(options) {
      log.created.push(options);
      const id = `c${++next}`;
      const plan = script(options);
      const stream = new PassThrough();
      let exited!: (value: { StatusCode: number }) => void;
      const waited = new Promise<{ StatusCode: number }>((resolve) => (exited = resolve));
      let running = false;
      const container: DockerContainer = {
        id,
        attach: () => Promise.resolve(stream),
        start() {
          log.started.push(id);
          running = true;
          setImmediate(() => {
            for (const [kind, payload] of plan.frames ?? []) stream.write(frame(kind, payload));
            if (plan.hang) return;
            running = false;
            stream.end();
            exited({ StatusCode: plan.exitCode ?? 0 });
          });
          return Promise.resolve();
        },
        wait: () => waited,
        kill() {
          log.killed.push(id);
          if (!running) return Promise.reject(new Error('409 container is not running'));
          running = false;
          stream.end();
          exited({ StatusCode: 137 });
          return Promise.resolve();
        },
        remove() {
          log.removed.push(id);
          return Promise.resolve();
        },
      };
      return Promise.resolve(container);
    },
    getContainer: (id) => ({
      remove() {
        log.removed.push(id);
        return Promise.resolve();
      },
    }),
    listContainers: () => Promise.resolve(leftovers),
    getImage: () => ({
      inspect: () => (imagePresent ? Promise.resolve({}) : Promise.reject(new Error('404'))),
    }),
    pull(image) {
      log.pulled.push(image);
      const progress = new PassThrough();
      setImmediate(() => progress.end(`${JSON.stringify({ status: 'Downloaded' })}\n`));
      return Promise.resolve(progress);
    },
    modem: realModem,
  };
  return {
    client,
    log,
    setImagePresent: (value: boolean) => (imagePresent = value),
    setEngineUp: (value: boolean) => (engineUp = value),
    setLeftovers: (value: { Id: string }[]) => (leftovers = value),
  };
}

const request = (overrides: Partial<BackendRequest> = {}): BackendRequest => ({
  command: 'echo hi',
  timeoutSeconds: 5,
  env: { PATH: '/usr/bin:/bin', GREETING: 'a=b' },
  maxOutputBytes: 1024,
  ...overrides,
});

describe('docker backend', () => {
  it('creates a locked-down throwaway container for each command', async () => {
    const engine = fakeEngine();
    const backend = createDockerBackend({
      docker: engine.client,
      image: 'debian:bookworm-slim',
      logger: silentLogger(),
    });
    expect(backend).toMatchObject({ name: 'docker', isolation: 'container' });
    await backend.run(request());
    const [created] = engine.log.created;
    expect(created).toMatchObject({
      Image: 'debian:bookworm-slim',
      Cmd: ['/bin/sh', '-c', 'echo hi'],
      Env: ['PATH=/usr/bin:/bin', 'GREETING=a=b'],
      WorkingDir: '/work',
      User: '65534:65534',
      Tty: false,
      OpenStdin: false,
      HostConfig: {
        NetworkMode: 'none',
        ReadonlyRootfs: true,
        Tmpfs: {
          '/work': 'rw,nosuid,nodev,size=64m,mode=1777',
          '/tmp': 'rw,nosuid,nodev,size=64m,mode=1777',
        },
        Mounts: [],
        Memory: 512 * 1024 * 1024,
        MemorySwap: 512 * 1024 * 1024,
        NanoCpus: 1_000_000_000,
        PidsLimit: 128,
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges'],
        Init: true,
        LogConfig: { Type: 'none', Config: {} },
      },
    });
    expect(created?.HostConfig?.Privileged).toBeUndefined();
    expect(created?.HostConfig?.CapAdd).toBeUndefined();
    expect(engine.log.removed).toEqual(['c1']);
  });

  it('gives network access only when the call asks, and mounts the workspace volume', async () => {
    const engine = fakeEngine();
    const backend = createDockerBackend({
      docker: engine.client,
      image: 'img',
      workspaceVolume: 'hearth_sandbox-work',
      logger: silentLogger(),
      memoryBytes: 1 << 28,
      pidsLimit: 32,
    });
    await backend.run(request({ network: true, workdir: '/work/project/' }));
    expect(engine.log.created[0]).toMatchObject({
      WorkingDir: '/work/project',
      HostConfig: {
        NetworkMode: 'bridge',
        Tmpfs: { '/tmp': 'rw,nosuid,nodev,size=64m,mode=1777' },
        Mounts: [
          {
            Type: 'volume',
            Source: 'hearth_sandbox-work',
            Target: '/work',
            ReadOnly: false,
            VolumeOptions: { NoCopy: true },
          },
        ],
        Memory: 1 << 28,
        PidsLimit: 32,
      },
    });
  });

  it('refuses a workdir outside /work', async () => {
    const engine = fakeEngine();
    const backend = createDockerBackend({
      docker: engine.client,
      image: 'img',
      logger: silentLogger(),
    });
    for (const workdir of ['/etc', '/work/../etc', 'work', '/workspace']) {
      await expect(backend.run(request({ workdir }))).rejects.toThrow(ExecRequestError);
    }
    expect(engine.log.created).toHaveLength(0);
  });

  it('separates stdout from stderr, keeps the exit code, caps each stream', async () => {
    const engine = fakeEngine(() => ({
      frames: [
        [1, 'out-1\n'],
        [2, 'err-1\n'],
        [1, Buffer.alloc(5000, 'y')],
        [2, 'err-2\n'],
      ],
      exitCode: 3,
    }));
    const backend = createDockerBackend({
      docker: engine.client,
      image: 'img',
      logger: silentLogger(),
    });
    const result = await backend.run(request({ maxOutputBytes: 100 }));
    expect(result).toMatchObject({
      exitCode: 3,
      signal: null,
      stderr: 'err-1\nerr-2\n',
      timedOut: false,
      truncated: true,
    });
    expect(result.stdout).toBe(`out-1\n${'y'.repeat(94)}`);
  });

  it('kills the container at the timeout and removes it', async () => {
    const engine = fakeEngine(() => ({ frames: [[1, 'partial\n']], hang: true }));
    const backend = createDockerBackend({
      docker: engine.client,
      image: 'img',
      logger: silentLogger(),
    });
    const result = await backend.run(request({ timeoutSeconds: 0.2 }));
    expect(result).toMatchObject({
      exitCode: null,
      signal: 'SIGKILL',
      timedOut: true,
      stdout: 'partial\n',
    });
    expect(engine.log.killed).toEqual(['c1']);
    expect(engine.log.removed).toEqual(['c1']);
  });

  it('kills the container on abort; an already aborted call creates nothing', async () => {
    const engine = fakeEngine(() => ({ hang: true }));
    const backend = createDockerBackend({
      docker: engine.client,
      image: 'img',
      logger: silentLogger(),
    });
    const controller = new AbortController();
    const pending = backend.run(request({ signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toMatchObject({ exitCode: null, signal: 'SIGKILL', timedOut: false });
    expect(engine.log.removed).toEqual(['c1']);

    expect(await backend.run(request({ signal: AbortSignal.abort() }))).toMatchObject({
      exitCode: null,
    });
    expect(engine.log.created).toHaveLength(1);
  });

  it('close() kills the running containers', async () => {
    const engine = fakeEngine(() => ({ hang: true }));
    const backend = createDockerBackend({
      docker: engine.client,
      image: 'img',
      logger: silentLogger(),
    });
    const pending = backend.run(request({ timeoutSeconds: 60 }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await backend.close();
    expect((await pending).exitCode).toBeNull();
    expect(engine.log.removed).toEqual(['c1']);
    await expect(backend.run(request())).rejects.toThrow(/closed/);
  });

  it('ping() is false when the engine does not answer', async () => {
    const engine = fakeEngine();
    const backend = createDockerBackend({
      docker: engine.client,
      image: 'img',
      logger: silentLogger(),
    });
    expect(await backend.ping()).toBe(true);
    engine.setEngineUp(false);
    expect(await backend.ping()).toBe(false);
  });

  it('prepare() pulls a missing image, sweeps leftovers, hands the volume to the user', async () => {
    const engine = fakeEngine();
    engine.setImagePresent(false);
    engine.setLeftovers([{ Id: 'old-1' }]);
    const backend = createDockerBackend({
      docker: engine.client,
      image: 'debian:bookworm-slim',
      workspaceVolume: 'vol',
      logger: silentLogger(),
    });
    await backend.prepare();
    expect(engine.log.pulled).toEqual(['debian:bookworm-slim']);
    expect(engine.log.removed).toContain('old-1');
    const [chown] = engine.log.created;
    expect(chown).toMatchObject({
      User: '0:0',
      HostConfig: { CapDrop: ['ALL'], CapAdd: ['CHOWN'], NetworkMode: 'none' },
    });
    expect(chown?.Cmd?.[2]).toContain('chown 65534:65534 /work');
  });
});
