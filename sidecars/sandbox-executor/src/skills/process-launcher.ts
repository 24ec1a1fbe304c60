/**
 * The process backend's skill hosts: on this machine, in a fresh folder per host (the skill's
 * files and the runtime, read-only for the skill) with a per-skill data folder that lasts
 * across hosts. Node skills run under `node --permission` (reads: runtime, skill, data; writes:
 * data; no processes, workers, addons, WASI, code from strings), inside bubblewrap as well when
 * it works here (only the system libraries, the interpreter, runtime and skill bound read-only,
 * the data folder writable, a private /tmp, new namespaces, never a network (the gateway makes
 * a skill's requests, checks and records them), a seccomp filter refusing new processes). skill.py runs only inside bubblewrap.
 * The environment is built from nothing: PATH, HOME and TMPDIR (the data folder).
 * The walls mirror the gateway's local ones (gateway/src/skills/host/), resource limits
 * included: prlimit around the host, and a watch of its memory, threads and data folder
 * (resource-limits.ts, host-watch.ts, shared copies); a host over one is killed and its end
 * reported as `over a resource limit: <reason>`. No prlimit here: skills are refused.
 */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import type { Logger } from '../logger.ts';
import type { SkillLauncher, SkillProcess, SkillProcessEvents } from './launcher.ts';
import { SkillStartError } from './launcher.ts';
import { dataFolderProblem, watchHost } from '../../../../common/sandbox/host-watch.ts';
import {
  DEFAULT_RESOURCE_LIMITS,
  LIMIT_EXIT_PREFIX,
  limitOfExit,
  probeLimitSupport,
  PYTHON_HOST_ENV,
  wrapInLimits,
  type ResourceLimits,
} from '../../../../common/sandbox/resource-limits.ts';
import { noNewProcessesFilter } from '../../../../common/sandbox/seccomp.ts';
import { writeSkillFiles } from './skill-files.ts';
import { detectWall, type SkillWall } from './wall.ts';
import type { SkillStart } from './start-frame.ts';

export interface ProcessLauncherOptions {
  /** Where host folders and data folders live (created 0700). */
  root: string;
  logger: Logger;
  /** The bwrap binary; undefined looks in the usual places, null disables the wall. */
  bwrapPath?: string | null;
  pythonPath?: string;
  /** The sidecar listens only on a Unix socket (SANDBOX_SOCKET): see wall.ts. */
  socketOnly?: boolean;
  /** Interface names for the wall check (default: this machine's). */
  interfaces?: readonly string[];
  /** Each host's resource limits (SANDBOX_SKILL_* in the environment). */
  limits?: Partial<ResourceLimits>;
  /** The prlimit binary; undefined looks in the usual places, null: none (skills refused). */
  prlimitPath?: string | null;
}

const SKILL_PATH = '/usr/local/bin:/usr/bin:/bin';
const BWRAP_CANDIDATES = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'];
const SYSTEM_DIRS = ['/usr', '/lib', '/lib64', '/lib32', '/libx32', '/bin', '/sbin'];

interface Command {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  fd3?: Buffer;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Whether bwrap can build a sandbox here (user namespaces may be forbidden in containers). */
export function findBubblewrap(option: string | null | undefined): string | null {
  if (option === null) return null;
  const path = option ?? BWRAP_CANDIDATES.find(executable);
  if (!path) return null;
  const probe = spawnSync(
    path,
    [
      '--unshare-all',
      '--die-with-parent',
      '--ro-bind',
      '/',
      '/',
      '--proc',
      '/proc',
      '--dev',
      '/dev',
      'true',
    ],
    { stdio: 'ignore', timeout: 5000 },
  );
  return probe.status === 0 ? path : null;
}

function systemBinds(): string[] {
  const args: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    if (!existsSync(dir)) continue;
    if (lstatSync(dir).isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else args.push('--ro-bind', dir, dir);
  }
  return args;
}

function inBubblewrap(
  inner: Command,
  bwrap: string,
  readOnly: string[],
  writable: string[],
): Command {
  const seccomp = noNewProcessesFilter();
  return {
    file: bwrap,
    args: [
      '--unshare-all',
      '--die-with-parent',
      '--new-session',
      '--cap-drop',
      'ALL',
      '--clearenv',
      ...Object.entries(inner.env).flatMap(([name, value]) => ['--setenv', name, value]),
      ...systemBinds(),
      '--proc',
      '/proc',
      '--dev',
      '/dev',
      '--tmpfs',
      '/tmp',
      ...readOnly.flatMap((dir) => ['--ro-bind', dir, dir]),
      ...writable.flatMap((dir) => ['--bind', dir, dir]),
      '--chdir',
      inner.cwd,
      ...(seccomp ? ['--seccomp', '3'] : []),
      '--',
      inner.file,
      ...inner.args,
    ],
    env: inner.env,
    cwd: inner.cwd,
    ...(seccomp ? { fd3: seccomp } : {}),
  };
}

function resolvePython(pythonPath: string): { executable: string; prefix: string } {
  const probe = spawnSync(
    pythonPath,
    ['-I', '-c', 'import sys; print(sys.executable); print(sys.base_prefix)'],
    { encoding: 'utf8', timeout: 10_000, env: { PATH: SKILL_PATH } },
  );
  const [file, prefix] = (probe.stdout ?? '').trim().split('\n');
  if (probe.status !== 0 || !file || !prefix)
    throw new SkillStartError(`skill.py skills need python3 in the sandbox, which did not start`);
  return { executable: realpathSync(file), prefix: realpathSync(prefix) };
}

export function createProcessLauncher(options: ProcessLauncherOptions): SkillLauncher & {
  readonly bubblewrap: boolean;
  readonly refusal: string | null;
  /** Why resource limits cannot be set here (every skill is then refused), or null. */
  readonly limits: string | null;
} {
  const bwrap = findBubblewrap(options.bwrapPath);
  const wall: SkillWall = detectWall({
    bubblewrap: bwrap !== null,
    socketOnly: options.socketOnly === true,
    ...(options.interfaces ? { interfaces: options.interfaces } : {}),
  });
  const nodePath = realpathSync(process.execPath);
  // The sidecar cannot tell a call from idle time (it only relays lines): no idle-CPU check.
  const limits: ResourceLimits = {
    ...DEFAULT_RESOURCE_LIMITS,
    ...options.limits,
    setBy: 'sidecar',
  };
  const limitSupport = probeLimitSupport(options.prlimitPath);
  let python: { executable: string; prefix: string } | undefined;

  function command(
    start: SkillStart,
    runtimeDir: string,
    skillDir: string,
    dataDir: string,
  ): Command {
    const env = { PATH: SKILL_PATH, HOME: dataDir, TMPDIR: dataDir };
    const entry = start.files.find((file) => /^skill\.(mjs|js|py)$/.test(file.path))!.path;
    const skillFile = join(skillDir, entry);
    if (start.kind === 'py') {
      if (!bwrap)
        throw new SkillStartError(
          'skill.py skills run only inside bubblewrap, which does not work in the sandbox (install bubblewrap there)',
        );
      python ??= resolvePython(options.pythonPath ?? 'python3');
      const inner: Command = {
        file: python.executable,
        args: ['-I', '-B', join(runtimeDir, 'runtime.py'), skillFile, dataDir],
        env: { ...env, ...PYTHON_HOST_ENV },
        cwd: dataDir,
      };
      return inBubblewrap(inner, bwrap, [python.prefix, runtimeDir, skillDir], [dataDir]);
    }
    const inner: Command = {
      file: nodePath,
      args: [
        '--permission',
        `--allow-fs-read=${runtimeDir}`,
        `--allow-fs-read=${skillDir}`,
        `--allow-fs-read=${dataDir}`,
        `--allow-fs-write=${dataDir}`,
        `--max-old-space-size=${start.maxOldSpaceMb}`,
        '--disallow-code-generation-from-strings',
        '--no-addons',
        '--no-experimental-sqlite',
        '--disable-warning=ExperimentalWarning',
        join(runtimeDir, 'runtime.mjs'),
        skillFile,
      ],
      env,
      cwd: dataDir,
    };
    if (!bwrap) return inner;
    return inBubblewrap(inner, bwrap, [dirname(nodePath), runtimeDir, skillDir], [dataDir]);
  }

  return {
    isolation: 'process',
    wall: wall.description,
    bubblewrap: bwrap !== null,
    refusal: wall.refusal,
    limits: limitSupport.error ?? null,
    async start(start: SkillStart, events: SkillProcessEvents): Promise<SkillProcess> {
      if (wall.refusal !== null) throw new SkillStartError(wall.refusal);
      const prlimitPath = limitSupport.prlimit;
      if (!prlimitPath) throw new SkillStartError(String(limitSupport.error));
      await mkdir(join(options.root, 'hosts'), { recursive: true, mode: 0o700 });
      const dataDir = join(options.root, 'data', start.name);
      await mkdir(dataDir, { recursive: true, mode: 0o700 });
      const over = dataFolderProblem(dataDir, limits);
      if (over) throw new SkillStartError(`${LIMIT_EXIT_PREFIX}${over}`);
      const hostDir = await mkdtemp(join(options.root, 'hosts', `${start.name}-`));
      const removeHost = () => rm(hostDir, { recursive: true, force: true }).catch(() => {});
      let built: Command;
      try {
        const runtimeDir = join(hostDir, 'runtime');
        const skillDir = join(hostDir, 'skill');
        await writeSkillFiles(runtimeDir, start.runtime);
        await writeSkillFiles(skillDir, start.files);
        built = wrapInLimits(
          command(start, realpathSync(runtimeDir), realpathSync(skillDir), realpathSync(dataDir)),
          { prlimitPath, limits, interpreter: start.kind === 'py' ? 'python' : 'node' },
        );
      } catch (error) {
        await removeHost();
        throw error;
      }
      const child = spawn(built.file, built.args, {
        cwd: built.cwd,
        env: built.env,
        stdio: built.fd3 ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
      });
      if (built.fd3) {
        const fd3 = child.stdio[3] as Writable;
        fd3.on('error', () => {});
        fd3.end(built.fd3);
      }
      let ended = false;
      let overLimit: string | null = null;
      const kill = () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      };
      const unwatch = watchHost(
        {
          pid: child.pid,
          busy: () => true,
          exceeded: (reason) => {
            overLimit = reason;
            options.logger.warn({ skill: start.name, reason }, 'skill host over a resource limit');
            kill();
          },
        },
        limits,
        realpathSync(dataDir),
      );
      const end = (how: string) => {
        if (ended) return;
        ended = true;
        unwatch();
        void removeHost();
        const limit = overLimit ?? limitOfExit(how, limits);
        events.exit(limit ? `${LIMIT_EXIT_PREFIX}${limit}` : how);
      };
      child.stdout.on('data', (chunk: Buffer) => events.stdout(chunk));
      child.stderr.on('data', (chunk: Buffer) => events.stderr(chunk));
      child.stdin.on('error', () => {});
      child.on('error', (error) => end(`could not start: ${error.message}`));
      child.on('exit', (code, signal) => end(signal ? `signal ${signal}` : `exit code ${code}`));
      options.logger.debug({ skill: start.name, pid: child.pid }, 'skill host started');
      return {
        write: (bytes) => {
          if (!ended) child.stdin.write(bytes);
        },
        kill,
      };
    },
  };
}
