/**
 * One build at a time per checkout: `npm start` in one terminal and `./hearth status` in
 * another, both after an edit, would otherwise both empty dist/ and write it. The lock is a
 * file holding the builder's pid, created exclusively; a build that finds it waits until that
 * process is gone. A lock left by a process that no longer runs (killed mid-build) is taken
 * over.
 */
import { openSync, readFileSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = '.build.lock';

const POLL_MS = 200;
/** How long a lock without a pid in it is waited for (10 polls: 2 s). */
const UNREADABLE_POLLS = 10;

export interface BuildLock {
  /** Whether another build held the lock first (dist/ may have changed meanwhile). */
  waited: boolean;
  release(): void;
}

/**
 * Takes the build lock of `root`, waiting while another live process holds it (`onWait` is
 * told its pid once). It is released by `release()`, or when this process exits.
 */
export async function acquireBuildLock(
  root: string,
  onWait: (pid: number) => void = () => {},
): Promise<BuildLock> {
  const path = join(root, LOCK_FILE);
  let waited = false;
  let unreadable = 0;
  for (;;) {
    if (tryCreate(path)) {
      const onExit = () => releaseIfHeldBy(path, process.pid);
      process.once('exit', onExit);
      return {
        waited,
        release: () => {
          process.off('exit', onExit);
          onExit();
        },
      };
    }
    const holder = holderPid(path);
    // Unreadable: its creator is writing its pid, or died before it could (then taken over).
    unreadable = holder === undefined ? unreadable + 1 : 0;
    if (holder !== undefined && !isAlive(holder)) {
      releaseIfHeldBy(path, holder);
      continue;
    }
    if (unreadable > UNREADABLE_POLLS) {
      releaseIfHeldBy(path, undefined);
      continue;
    }
    if (holder !== undefined && !waited) {
      onWait(holder);
      waited = true;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function tryCreate(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  writeSync(fd, `${process.pid}\n`);
  closeSync(fd);
  return true;
}

function holderPid(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes a dead holder's lock, unless another process took it over in the meantime. */
function releaseIfHeldBy(path: string, pid: number | undefined): void {
  if (holderPid(path) === pid) release(path);
}

function release(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
