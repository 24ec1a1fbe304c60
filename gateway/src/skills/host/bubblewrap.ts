/**
 * The bubblewrap wall around a skill host: new user, PID, IPC, UTS, cgroup and network
 * namespaces (`--unshare-all`, the network never shared back: a skill's requests are made by
 * the gateway, skill-fetch.ts; inside there is only a loopback of its own), a root file system holding only read-only binds of the system libraries,
 * the interpreter, the runtime and the skill, a writable bind of the skill's data folder, a
 * private /tmp, fresh /proc and /dev, no capabilities, an empty environment apart from the
 * sanitised one, a new session (no terminal injection), death with its parent, and a seccomp
 * filter that refuses new processes (seccomp.ts).
 * Nothing else of the machine (/etc, /home, /root, the gateway's state) exists inside.
 * Paths keep their names inside, so the wrapped command is unchanged.
 */
import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import type { ChildCommand } from './skill-process.ts';

export interface BubblewrapInput {
  bwrapPath: string;
  /** Folders bound read-only at the same path (interpreter prefix, runtime, skill). */
  readOnly: readonly string[];
  /** Folders bound writable (the data folder). */
  writable: readonly string[];
  /** A seccomp program (see seccomp.ts), read by bwrap from fd 3. */
  seccomp?: Buffer | null;
}

/** The system folders a dynamically linked interpreter needs; symlinks (merged /usr) stay symlinks. */
const SYSTEM_DIRS = ['/usr', '/lib', '/lib64', '/lib32', '/libx32', '/bin', '/sbin'];

function systemBinds(): string[] {
  const args: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    if (!existsSync(dir)) continue;
    if (lstatSync(dir).isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else args.push('--ro-bind', dir, dir);
  }
  return args;
}

export function wrapInBubblewrap(command: ChildCommand, input: BubblewrapInput): ChildCommand {
  const args = [
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--clearenv',
    ...Object.entries(command.env).flatMap(([name, value]) => ['--setenv', name, value]),
    ...systemBinds(),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    // /tmp first: the binds below may live under /tmp and must land on top of it.
    '--tmpfs',
    '/tmp',
    ...input.readOnly.flatMap((dir) => ['--ro-bind', dir, dir]),
    ...input.writable.flatMap((dir) => ['--bind', dir, dir]),
    '--chdir',
    command.cwd,
    ...(input.seccomp ? ['--seccomp', '3'] : []),
    '--',
    command.file,
    ...command.args,
  ];
  const fd3 = input.seccomp ?? undefined;
  return {
    file: input.bwrapPath,
    args,
    env: command.env,
    cwd: command.cwd,
    ...(fd3 ? { fd3 } : {}),
  };
}
