/**
 * Layer 3's factory: picks the walls a skill host runs behind and says which in `description`
 * (shown in /status backends).
 *   bubblewrap+permission  bwrap works here: Node skills get both walls, Python skills bwrap
 *                          (both with a seccomp filter refusing new processes on x86_64)
 *   no wall                no bwrap: no skill is hosted (no-wall.ts says why and how to get a
 *                          wall), except a Node skill whose owner set `"without_wall": true` in
 *                          its skill.json by hand: it runs behind the permission model alone,
 *                          with a warning at every start and its name in /status
 * The skill's environment is built from nothing (PATH, HOME = its data folder, the locale) and
 * still passed through the shared sanitiser: no variable of the gateway's and nothing from
 * config.toml reaches it. Every host runs under OS resource limits and is watched from here
 * (resource-limits.ts, host-watch.ts); where they cannot be set, skills are refused. With `executor = "sandbox"` skills run in the sidecar instead
 * (sidecar-isolation.ts).
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HearthError } from '../../errors.ts';
import type { Logger } from '../../observability/logger.ts';
import { sanitiseEnv } from '../../config/sanitise-env.ts';
import type { SkillHost, SkillHostOptions, SkillIsolation } from '../types.ts';
import { wrapInBubblewrap } from './bubblewrap.ts';
import { childLink } from './child-link.ts';
import { createHostGuard } from './host-guard.ts';
import { nodeSkillCommand } from './node-permission.ts';
import { pythonSkillCommand } from './python-command.ts';
import {
  DEFAULT_RESOURCE_LIMITS,
  describeLimits,
  PYTHON_HOST_ENV,
  probeLimitSupport,
  wrapInLimits,
  type ResourceLimits,
} from '../../../../common/sandbox/resource-limits.ts';
import { noNewProcessesFilter } from '../../../../common/sandbox/seccomp.ts';
import { noWallDescription, noWallRefusal, warnWithoutWall, type NoWallReason } from './no-wall.ts';
import { hostFetch, type SkillFetch } from './skill-fetch.ts';
import {
  DEFAULT_LIMITS,
  startSkillProcess,
  type ChildCommand,
  type SkillInputLimit,
  type SkillProcessLimits,
} from './skill-process.ts';

export interface SkillIsolationOptions {
  /** These walls are the local ones; `executor = "sandbox"` uses sidecar-isolation.ts. */
  executor?: 'local';
  logger: Logger;
  /** The bwrap binary; `undefined` looks in the usual places, `null` disables the wall. */
  bwrapPath?: string | null;
  /** The Node binary skills run with (default: the gateway's own). */
  nodePath?: string;
  /** The Python interpreter for skill.py (default `python3` on the PATH). */
  pythonPath?: string;
  /** Configured secret values: a variable whose value contains one never reaches a skill. */
  secretValues?: readonly string[];
  /** The gateway's environment: only the locale (LANG, LC_*, TZ) is taken from it. */
  env?: Record<string, string | undefined>;
  limits?: Partial<SkillProcessLimits>;
  /** Heap cap of a Node skill host (MB). */
  maxOldSpaceMb?: number;
  /** The gateway's fetch for skills (skill-fetch.ts): a skill host has no network of its own. */
  fetch?: SkillFetch;
  /** OS resource limits of each host (resource-limits.ts). */
  resources?: Partial<ResourceLimits>;
  /** The prlimit binary; `undefined` looks in the usual places, `null`: none (skills refused). */
  prlimitPath?: string | null;
  /** Told each time a host's input is refused over a cap (skill-process.ts; a counter). */
  onRefused?: (limit: SkillInputLimit) => void;
}

const RUNTIME_DIR = join(dirname(fileURLToPath(import.meta.url)), 'runtime');
const BWRAP_CANDIDATES = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'];
const SKILL_PATH = '/usr/local/bin:/usr/bin:/bin';
const SKILL_FILES = { mjs: ['skill.mjs', 'skill.js'], py: ['skill.py'] } as const;

export const PYTHON_NEEDS_BUBBLEWRAP =
  'skill.py skills run only inside bubblewrap, which is not available here: install it (Debian/Ubuntu: apt install bubblewrap)';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Whether bwrap can build a sandbox here (user namespaces may be forbidden in containers). */
function bubblewrapWorks(bwrapPath: string): boolean {
  const probe = spawnSync(
    bwrapPath,
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
  return probe.status === 0;
}

function findBubblewrap(
  option: string | null | undefined,
  logger: Logger,
): { path: string } | { path: null; reason: NoWallReason } {
  if (option === null) return { path: null, reason: 'disabled' };
  const path = option ?? BWRAP_CANDIDATES.find(executable);
  if (!path) return { path: null, reason: 'not-installed' };
  if (bubblewrapWorks(path)) return { path };
  logger.warn(
    { bwrap: path },
    'bubblewrap is installed but cannot create a sandbox here; no skill is hosted without a wall',
  );
  return { path: null, reason: 'cannot-sandbox' };
}

/** The interpreter's real path and install prefix (bound read-only inside bubblewrap). */
function resolvePython(pythonPath: string): { executable: string; prefix: string } {
  const probe = spawnSync(
    pythonPath,
    ['-I', '-c', 'import sys; print(sys.executable); print(sys.base_prefix)'],
    {
      encoding: 'utf8',
      timeout: 10_000,
      env: { PATH: SKILL_PATH },
    },
  );
  const [executablePath, prefix] = (probe.stdout ?? '').trim().split('\n');
  if (probe.status !== 0 || !executablePath || !prefix) {
    throw new HearthError(
      'unavailable',
      `skill.py skills need python3, which did not start (${pythonPath})`,
    );
  }
  return { executable: realpathSync(executablePath), prefix: realpathSync(prefix) };
}

function skillEnv(options: SkillIsolationOptions, dataDir: string): Record<string, string> {
  const locale = Object.fromEntries(
    Object.entries(options.env ?? {}).filter(
      ([name, value]) =>
        value !== undefined && (name === 'LANG' || name === 'TZ' || name.startsWith('LC_')),
    ),
  );
  return sanitiseEnv(
    { ...locale, PATH: SKILL_PATH, HOME: dataDir, TMPDIR: dataDir },
    options.secretValues ?? [],
  );
}

function skillFile(dir: string, kind: SkillHostOptions['kind']): string {
  for (const name of SKILL_FILES[kind]) {
    const path = join(dir, name);
    try {
      accessSync(path, constants.R_OK);
      return path;
    } catch {
      // try the next name
    }
  }
  throw new HearthError('not_found', `no ${SKILL_FILES[kind].join(' or ')} in ${dir}`);
}

export function createSkillIsolation(options: SkillIsolationOptions): SkillIsolation {
  const { logger } = options;
  const found = findBubblewrap(options.bwrapPath, logger);
  const bwrapPath = found.path;
  const noWall = found.path === null ? found.reason : null;
  /** Skills started without a wall by their owner's opt-out (shown in /status). */
  const optedOut = new Set<string>();
  const nodePath = realpathSync(options.nodePath ?? process.execPath);
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const maxOldSpaceMb = options.maxOldSpaceMb ?? 128;
  const seccomp = noNewProcessesFilter();
  const resources = { ...DEFAULT_RESOURCE_LIMITS, ...options.resources };
  const limitSupport = probeLimitSupport(options.prlimitPath);
  if (limitSupport.error) logger.warn({ reason: limitSupport.error }, 'skills cannot run here');
  let python: { executable: string; prefix: string } | undefined;

  /** The host's command, behind its walls and under its resource limits (outermost). */
  function command(
    host: SkillHostOptions,
    dir: string,
    dataDir: string,
    file: string,
  ): ChildCommand {
    const prlimitPath = limitSupport.prlimit;
    if (!prlimitPath) throw new HearthError('unavailable', String(limitSupport.error));
    return wrapInLimits(walled(host, dir, dataDir, file), {
      prlimitPath,
      limits: resources,
      interpreter: host.kind === 'py' ? 'python' : 'node',
    });
  }

  function walled(
    host: SkillHostOptions,
    dir: string,
    dataDir: string,
    file: string,
  ): ChildCommand {
    const env = skillEnv(options, dataDir);
    if (host.kind === 'py') {
      if (!bwrapPath) throw new HearthError('unavailable', PYTHON_NEEDS_BUBBLEWRAP);
      python ??= resolvePython(options.pythonPath ?? 'python3');
      const inner = pythonSkillCommand({
        pythonPath: python.executable,
        runtimeDir: RUNTIME_DIR,
        skillFile: file,
        dataDir,
        env: { ...env, ...PYTHON_HOST_ENV },
      });
      return wrapInBubblewrap(inner, {
        bwrapPath,
        readOnly: [python.prefix, RUNTIME_DIR, dir],
        writable: [dataDir],
        seccomp,
      });
    }
    const inner = nodeSkillCommand({
      nodePath,
      runtimeDir: RUNTIME_DIR,
      skillFile: file,
      skillDir: dir,
      dataDir,
      maxOldSpaceMb,
      env,
    });
    if (!bwrapPath) return inner;
    return wrapInBubblewrap(inner, {
      bwrapPath,
      readOnly: [dirname(nodePath), RUNTIME_DIR, dir],
      writable: [dataDir],
      seccomp,
    });
  }

  let live = 0;
  return {
    running: () => live,
    get description(): string {
      return noWall === null ? 'bubblewrap+permission' : noWallDescription(noWall, [...optedOut]);
    },
    resources: limitSupport.error
      ? `unavailable: ${limitSupport.error}`
      : describeLimits(resources),
    async start(host: SkillHostOptions): Promise<SkillHost> {
      if (host.kind === 'py' && !bwrapPath)
        throw new HearthError('unavailable', PYTHON_NEEDS_BUBBLEWRAP);
      if (limitSupport.error) throw new HearthError('unavailable', limitSupport.error);
      if (noWall !== null) {
        if (host.withoutWall !== true) throw noWallRefusal(host.name, noWall);
        warnWithoutWall(logger, host.name, noWall);
        optedOut.add(host.name);
      }
      mkdirSync(host.dataDir, { recursive: true });
      const dir = realpathSync(host.dir);
      const dataDir = realpathSync(host.dataDir);
      const file = skillFile(dir, host.kind);
      const built = command(host, dir, dataDir, file);
      return startSkillProcess({
        skill: host.name,
        connect: childLink(() => built),
        limits,
        logger: logger.child({ skill: host.name }),
        fetch: hostFetch(options.fetch, host),
        onRunning: (running) => (live += running ? 1 : -1),
        guard: createHostGuard(resources, dataDir),
        onLimit: host.onLimit,
        onRefused: options.onRefused,
      });
    },
  };
}
