/**
 * OS resource limits of a local skill host, set by the kernel before the host's first
 * instruction: the command is wrapped in util-linux `prlimit`, which sets the limits on itself
 * and execs the host (bubblewrap and the interpreter inherit them):
 *   RLIMIT_AS      address space: the interpreter's own reservations (V8 reserves ~1.3 GB that
 *                  it never touches) plus `memoryMb`, so a burst of allocations between two
 *                  samples of host-watch.ts fails instead of taking the machine's memory
 *   RLIMIT_CPU     CPU seconds over the host's life (soft: SIGXCPU ends it; the hard limit two
 *                  seconds later is SIGKILL); the idle stop and every restart start afresh
 *   RLIMIT_NOFILE  open files: opening more fails with EMFILE
 *   RLIMIT_FSIZE   the largest file it may write: a write past it fails with EFBIG
 *   RLIMIT_CORE 0  no core files in its data folder
 * RLIMIT_NPROC is not used: it counts every process of the user on the machine, not the host's.
 * A host cannot start processes (the seccomp filter under bubblewrap, the permission model
 * without it); its threads are counted by host-watch.ts. Resident memory, CPU while no call
 * runs, threads and the data folder's total size are watched from the gateway (host-watch.ts).
 *
 * The gateway and the sandbox sidecar (which is deployed on its own image) both import this one
 * file from common/sandbox/; the sidecar's image copies that folder beside its sources.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

export interface ResourceLimits {
  /** Resident memory of the host's processes (MB): above it the host is stopped. */
  memoryMb: number;
  /** CPU seconds over one host's life (RLIMIT_CPU). */
  cpuSeconds: number;
  /** Open files (RLIMIT_NOFILE). */
  maxFiles: number;
  /** The largest file the host may write (MB, RLIMIT_FSIZE). */
  maxFileMb: number;
  /** The data folder's total size (MB): over it the host is stopped and refused until emptied. */
  dataQuotaMb: number;
  /** Threads and processes of the host together: above it the host is stopped. */
  maxTasks: number;
  /** CPU share of one core (%) a host may use while none of its calls runs… */
  idleCpuPercent: number;
  /** …for this long before it is stopped (ms). */
  idleGraceMs: number;
  /** How often the host is sampled (ms). */
  sampleMs: number;
  /** Where the limits are set, named in the reasons: the gateway's config or the sidecar's environment. */
  setBy: 'gateway' | 'sidecar';
}

/** The setting behind each limit, as the operator finds it. */
export const LIMIT_SETTINGS = {
  gateway: {
    memoryMb: '[skills] host_memory_mb',
    cpuSeconds: '[skills] host_cpu_seconds',
    maxFiles: '[skills] host_max_files',
    maxFileMb: '[skills] host_max_file_mb',
    dataQuotaMb: '[skills] data_quota_mb',
    maxTasks: '[skills] host_max_threads',
  },
  sidecar: {
    memoryMb: 'SANDBOX_SKILL_MEMORY_MB',
    cpuSeconds: 'SANDBOX_SKILL_CPU_SECONDS',
    maxFiles: 'SANDBOX_SKILL_MAX_FILES',
    maxFileMb: 'SANDBOX_SKILL_MAX_FILE_MB',
    dataQuotaMb: 'SANDBOX_SKILL_DATA_QUOTA_MB',
    maxTasks: 'SANDBOX_SKILL_MAX_THREADS',
  },
} as const;

/** `(setting)` for a reason naming one limit. */
export function settingOf(
  limits: ResourceLimits,
  limit: keyof (typeof LIMIT_SETTINGS)['gateway'],
): string {
  return `(${LIMIT_SETTINGS[limits.setBy][limit]})`;
}

export const DEFAULT_RESOURCE_LIMITS: ResourceLimits = {
  memoryMb: 256,
  cpuSeconds: 600,
  maxFiles: 256,
  maxFileMb: 64,
  dataQuotaMb: 256,
  maxTasks: 64,
  idleCpuPercent: 50,
  idleGraceMs: 5_000,
  sampleMs: 1_000,
  setBy: 'gateway',
};

/** The limits `[skills]` in config.toml sets (the rest keep their defaults). */
export function resourceLimitsOf(skills: {
  host_memory_mb: number;
  host_cpu_seconds: number;
  host_max_files: number;
  host_max_file_mb: number;
  host_max_threads: number;
  data_quota_mb: number;
}): ResourceLimits {
  return {
    ...DEFAULT_RESOURCE_LIMITS,
    memoryMb: skills.host_memory_mb,
    cpuSeconds: skills.host_cpu_seconds,
    maxFiles: skills.host_max_files,
    maxFileMb: skills.host_max_file_mb,
    maxTasks: skills.host_max_threads,
    dataQuotaMb: skills.data_quota_mb,
  };
}

/**
 * Address space an interpreter reserves beyond what it uses: Node 24 peaks at ~1.3 GB before
 * the skill loads (V8's reservations); Python needs little, plus 8 MB of stack per thread
 * (its malloc arenas are capped by PYTHON_HOST_ENV).
 */
const RESERVED_ADDRESS_SPACE_MB = { node: 1536, python: 512 } as const;

/** Added to a Python host's environment: glibc reserves 64 MB per thread arena otherwise. */
export const PYTHON_HOST_ENV = { MALLOC_ARENA_MAX: '2' } as const;

const MB = 1024 * 1024;
const PRLIMIT_CANDIDATES = ['/usr/bin/prlimit', '/bin/prlimit', '/usr/local/bin/prlimit'];

export const LIMITS_NEED_PRLIMIT =
  'skill hosts run only under OS resource limits, set with prlimit, which does not work here: install util-linux (Debian/Ubuntu: apt install util-linux)';
export const LIMITS_NEED_PROC =
  'skill hosts run only while the gateway can watch their memory and CPU in /proc, which it cannot read here';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where limits can be set here, or why not (`error`). */
export interface LimitSupport {
  prlimit?: string;
  error?: string;
}

/** Finds prlimit and checks it can set every limit used (and that /proc can be read). */
export function probeLimitSupport(prlimitPath?: string | null): LimitSupport {
  if (prlimitPath === null) return { error: LIMITS_NEED_PRLIMIT };
  const path = prlimitPath ?? PRLIMIT_CANDIDATES.find(executable);
  if (!path) return { error: LIMITS_NEED_PRLIMIT };
  const probe = spawnSync(
    path,
    ['--as=1073741824', '--cpu=5:7', '--nofile=64', '--fsize=1048576', '--core=0', '--', 'true'],
    { stdio: 'ignore', timeout: 5000, env: { PATH: '/usr/bin:/bin' } },
  );
  if (probe.status !== 0) return { error: LIMITS_NEED_PRLIMIT };
  try {
    accessSync(`/proc/${process.pid}/stat`, constants.R_OK);
    accessSync(`/proc/${process.pid}/task/${process.pid}/children`, constants.R_OK);
  } catch {
    return { error: LIMITS_NEED_PROC };
  }
  return { prlimit: path };
}

/** Wraps a host command (bubblewrap's or the interpreter's) so it starts under the limits. */
export function wrapInLimits<Command extends { file: string; args: string[] }>(
  command: Command,
  input: { prlimitPath: string; limits: ResourceLimits; interpreter: 'node' | 'python' },
): Command {
  const { limits } = input;
  const addressSpace = (RESERVED_ADDRESS_SPACE_MB[input.interpreter] + limits.memoryMb) * MB;
  return {
    ...command,
    file: input.prlimitPath,
    args: [
      `--as=${addressSpace}`,
      `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 2}`,
      `--nofile=${limits.maxFiles}`,
      // No single file larger than the whole data folder may be.
      `--fsize=${Math.min(limits.maxFileMb, limits.dataQuotaMb) * MB}`,
      '--core=0',
      '--',
      command.file,
      ...command.args,
    ],
  };
}

/**
 * How the sidecar's process backend ends a host it stopped at a limit: `{"exit": "<this><reason>"}`
 * on the skill socket, which the gateway turns back into the reason (host-guard.ts).
 */
export const LIMIT_EXIT_PREFIX = 'over a resource limit: ';

/** The exit of a host the kernel stopped at a limit (with bubblewrap: its exit code 128+signal). */
export function limitOfExit(how: string, limits: ResourceLimits): string | null {
  if (how === 'signal SIGXCPU' || how === 'exit code 152')
    return `it used its ${limits.cpuSeconds} s of CPU time ${settingOf(limits, 'cpuSeconds')}`;
  if (how === 'signal SIGXFSZ' || how === 'exit code 153')
    return `it wrote a file past ${limits.maxFileMb} MB ${settingOf(limits, 'maxFileMb')}`;
  return null;
}

/** The limits in one line, for /status `backends.skill_limits`. */
export function describeLimits(limits: ResourceLimits): string {
  return [
    `memory ${limits.memoryMb} MB`,
    `cpu ${limits.cpuSeconds} s per host`,
    `idle cpu ${limits.idleCpuPercent}% for ${limits.idleGraceMs / 1000} s`,
    `${limits.maxFiles} open files`,
    `files ${limits.maxFileMb} MB`,
    `data ${limits.dataQuotaMb} MB`,
    `${limits.maxTasks} threads`,
  ].join(', ');
}
