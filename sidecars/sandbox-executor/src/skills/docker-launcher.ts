/**
 * The docker backend's skill hosts: one throwaway container per host, from `SANDBOX_SKILL_IMAGE`
 * (Node 24; python3 too for skill.py), with the /exec containers' walls: no network ever (a
 * skill's requests are made by the gateway, which checks and records them), read-only root,
 * tmpfs /skillhost and /tmp, user 65534, all capabilities dropped, no-new-privileges,
 * memory/CPU/pids limits, ulimits (open files, file size, CPU seconds, no core files;
 * resource-limits.ts: a host the kernel stops at one ends as `over a resource limit: <reason>`;
 * the data folder is capped by its tmpfs), an init, no log driver. Inside, a small
 * bootstrap (trusted, ours) reads the start frame's files from the first stdin line into
 * /skillhost, then runs the skill runtime under `node --permission` (reads: runtime, skill, data;
 * writes: /skillhost/data) or `python3 -I` with its stdin, stdout and stderr; the data folder lives
 * and dies with the container. Closing the socket kills and removes the container.
 */
import { PassThrough } from 'node:stream';
import type { DockerClient } from '../backends/docker-backend.ts';
import { SANDBOX_LABEL } from '../backends/docker-backend.ts';
import type { Logger } from '../logger.ts';
import type { SkillLauncher, SkillProcess, SkillProcessEvents } from './launcher.ts';
import {
  DEFAULT_RESOURCE_LIMITS,
  LIMIT_EXIT_PREFIX,
  limitOfExit,
  type ResourceLimits,
} from '../../../../common/sandbox/resource-limits.ts';
import type { SkillStart } from './start-frame.ts';

export interface DockerLauncherOptions {
  docker: DockerClient;
  image: string;
  logger: Logger;
  memoryBytes?: number;
  /** Open files, file size, CPU seconds and threads of each host (SANDBOX_SKILL_*). */
  limits?: Partial<ResourceLimits>;
}

/** Runs in the container: files from the first stdin line, then the runtime behind --permission. */
const BOOTSTRAP = `
const fs = require('node:fs'), path = require('node:path'), { spawn } = require('node:child_process');
let buffer = Buffer.alloc(0), child = null;
process.stdin.on('data', (chunk) => {
  if (child) return child.stdin.write(chunk);
  buffer = Buffer.concat([buffer, chunk]);
  const end = buffer.indexOf(10);
  if (end === -1) return;
  const frame = JSON.parse(buffer.subarray(0, end).toString('utf8'));
  const rest = buffer.subarray(end + 1);
  for (const [folder, files] of [['/skillhost/runtime', frame.runtime], ['/skillhost/skill', frame.files]])
    for (const [name, content] of Object.entries(files)) {
      const target = path.join(folder, name);
      if (!target.startsWith(folder + '/')) process.exit(70);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, Buffer.from(content, 'base64'));
    }
  fs.mkdirSync('/skillhost/data', { recursive: true });
  const entry = Object.keys(frame.files).find((name) => /^skill\\.(mjs|js|py)$/.test(name));
  const args = frame.kind === 'py'
    ? ['-I', '-B', '/skillhost/runtime/runtime.py', '/skillhost/skill/' + entry, '/skillhost/data']
    : ['--permission', '--allow-fs-read=/skillhost/runtime', '--allow-fs-read=/skillhost/skill', '--allow-fs-read=/skillhost/data',
       '--allow-fs-write=/skillhost/data', '--max-old-space-size=' + frame.heap, '--disallow-code-generation-from-strings',
       '--no-addons', '--no-experimental-sqlite', '--disable-warning=ExperimentalWarning',
       '/skillhost/runtime/runtime.mjs', '/skillhost/skill/' + entry];
  child = spawn(frame.kind === 'py' ? 'python3' : process.execPath, args, {
    cwd: '/skillhost/data', stdio: ['pipe', 'inherit', 'inherit'],
    env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/skillhost/data', TMPDIR: '/skillhost/data' },
  });
  child.on('error', (error) => { process.stderr.write(String(error.message) + '\\n'); process.exit(71); });
  child.on('exit', (code, signal) => process.exit(signal ? 128 + (require('node:os').constants.signals[signal] || 9) : code));
  child.stdin.on('error', () => {});
  if (rest.length) child.stdin.write(rest);
});
process.stdin.on('end', () => child ? child.stdin.end() : process.exit(0));
`;

export function createDockerLauncher(
  options: DockerLauncherOptions,
): SkillLauncher & { close(): Promise<void> } {
  const { docker, logger } = options;
  const memory = options.memoryBytes ?? 512 * 1024 * 1024;
  const tmpfs = 'rw,nosuid,nodev,size=64m,mode=1777';
  const limits: ResourceLimits = {
    ...DEFAULT_RESOURCE_LIMITS,
    ...options.limits,
    setBy: 'sidecar',
  };
  const fileBytes = limits.maxFileMb * 1024 * 1024;
  /** Removals in flight, per container: close() waits for them. */
  const removals = new Map<string, Promise<unknown>>();
  const live = new Set<() => Promise<unknown>>();
  return {
    isolation: 'container',
    wall: 'a container per host',
    async close() {
      await Promise.all([...live].map((remove) => remove()));
      await Promise.all(removals.values());
    },
    async start(start: SkillStart, events: SkillProcessEvents): Promise<SkillProcess> {
      const container = await docker.createContainer({
        Image: options.image,
        Cmd: ['node', '-e', BOOTSTRAP],
        Env: ['PATH=/usr/local/bin:/usr/bin:/bin'],
        User: '65534:65534',
        Tty: false,
        OpenStdin: true,
        StdinOnce: false,
        AttachStdin: true,
        AttachStdout: true,
        AttachStderr: true,
        Labels: { [SANDBOX_LABEL]: 'skill' },
        HostConfig: {
          // Never a network, whatever the frame says: the gateway makes the skill's requests.
          NetworkMode: 'none',
          ReadonlyRootfs: true,
          Tmpfs: { '/skillhost': tmpfs, '/tmp': tmpfs },
          Memory: memory,
          MemorySwap: memory,
          NanoCpus: 1_000_000_000,
          // The bootstrap's threads and the host's.
          PidsLimit: 2 * limits.maxTasks,
          Ulimits: [
            { Name: 'nofile', Soft: limits.maxFiles, Hard: limits.maxFiles },
            { Name: 'fsize', Soft: fileBytes, Hard: fileBytes },
            { Name: 'cpu', Soft: limits.cpuSeconds, Hard: limits.cpuSeconds + 2 },
            { Name: 'core', Soft: 0, Hard: 0 },
          ],
          CapDrop: ['ALL'],
          SecurityOpt: ['no-new-privileges'],
          Init: true,
          AutoRemove: false,
          LogConfig: { Type: 'none', Config: {} },
        },
      });
      let ended = false;
      // Force removal kills it too; one removal per container.
      const remove = (): Promise<unknown> => {
        live.delete(remove);
        if (!removals.has(container.id)) {
          const removal = container.remove({ force: true }).catch(() => {});
          removals.set(container.id, removal);
          void removal.finally(() => removals.delete(container.id));
        }
        return removals.get(container.id)!;
      };
      live.add(remove);
      const end = (how: string) => {
        if (ended) return;
        ended = true;
        void remove();
        const limit = limitOfExit(how, limits);
        events.exit(limit ? `${LIMIT_EXIT_PREFIX}${limit}` : how);
      };
      let stream: NodeJS.ReadWriteStream;
      try {
        // With hijack and stdin the engine hands back the raw connection, writable too.
        stream = (await container.attach({
          stream: true,
          stdin: true,
          stdout: true,
          stderr: true,
          hijack: true,
        })) as NodeJS.ReadWriteStream;
        const stdout = new PassThrough();
        const stderr = new PassThrough();
        stdout.on('data', (chunk: Buffer) => events.stdout(chunk));
        stderr.on('data', (chunk: Buffer) => events.stderr(chunk));
        docker.modem.demuxStream(stream, stdout, stderr);
        await container.start();
      } catch (error) {
        await remove();
        throw error;
      }
      const frame = {
        kind: start.kind,
        heap: start.maxOldSpaceMb,
        files: Object.fromEntries(start.files.map((f) => [f.path, f.bytes.toString('base64')])),
        runtime: Object.fromEntries(start.runtime.map((f) => [f.path, f.bytes.toString('base64')])),
      };
      stream.write(`${JSON.stringify(frame)}\n`);
      container.wait().then(
        (result) => end(`exit code ${result.StatusCode}`),
        (error: unknown) => end(`the container failed: ${String(error)}`),
      );
      logger.debug({ skill: start.name, container: container.id }, 'skill container started');
      return {
        write: (bytes) => {
          if (!ended) stream.write(bytes);
        },
        kill: () => {
          if (ended) return;
          void remove();
        },
      };
    },
  };
}
