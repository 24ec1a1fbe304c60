/**
 * Watches a running local skill host from the gateway, beside the kernel's limits
 * (resource-limits.ts): every `sampleMs` it reads the host's process tree in /proc (bubblewrap,
 * its init and the interpreter) and stops the host whose resident memory is over its cap, whose
 * threads are over their cap, or which keeps burning CPU while none of its calls runs (work
 * left running after a tool returned). The data folder's total size is checked every few
 * samples and after each call. `exceeded` is told why, once; the caller kills the host.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { settingOf, type ResourceLimits } from './resource-limits.ts';

/** Linux reports CPU time in clock ticks of 1/100 s (USER_HZ) on every architecture Node runs on. */
const TICK_MS = 10;
const MB = 1024 * 1024;
/** Files and folders in a data folder beyond which it counts as over quota (inodes are a resource too). */
const MAX_DATA_ENTRIES = 10_000;
/**
 * The data folder is checked every this many samples (and after every call): between two
 * checks a skill may write past its quota (each file capped by RLIMIT_FSIZE), no further.
 */
const DATA_EVERY = 2;

export interface HostUsage {
  rssBytes: number;
  cpuMs: number;
  tasks: number;
}

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The pid and its descendants (their threads' `children` lists), or [] when it is gone. */
function processTree(root: number): number[] {
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0 && found.length < 1024) {
    const pid = queue.shift()!;
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    found.push(pid);
    for (const tid of tids) {
      const children = read(`/proc/${pid}/task/${tid}/children`);
      for (const child of children?.split(' ') ?? []) if (child.trim()) queue.push(Number(child));
    }
  }
  return found;
}

/** Resident memory, CPU time and threads of a process and everything below it; null when gone. */
export function treeUsage(pid: number): HostUsage | null {
  const usage: HostUsage = { rssBytes: 0, cpuMs: 0, tasks: 0 };
  const pids = processTree(pid);
  if (pids.length === 0) return null;
  for (const each of pids) {
    const stat = read(`/proc/${each}/stat`);
    const status = read(`/proc/${each}/status`);
    if (!stat || !status) continue;
    // Fields after the command name (which may hold spaces and parentheses): state is field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    usage.cpuMs += (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime + stime
    usage.tasks += Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 1);
    usage.rssBytes += Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
  }
  return usage;
}

/**
 * Space a folder takes on disk (allocated blocks), how many entries it holds (stopping at the
 * cap) and its largest file's length.
 */
export function folderUsage(dir: string): { bytes: number; entries: number; largest: number } {
  let bytes = 0;
  let entries = 0;
  let largest = 0;
  const stack = [dir];
  while (stack.length > 0 && entries <= MAX_DATA_ENTRIES) {
    const current = stack.pop()!;
    let names: string[];
    try {
      names = readdirSync(current);
    } catch {
      continue;
    }
    for (const name of names) {
      const path = join(current, name);
      entries += 1;
      try {
        const stat = lstatSync(path);
        bytes += stat.blocks * 512;
        if (stat.isFile()) largest = Math.max(largest, stat.size);
        if (stat.isDirectory()) stack.push(path);
      } catch {
        // removed meanwhile
      }
    }
  }
  return { bytes, entries, largest };
}

/**
 * Why the data folder is over its quota, or null. A file at the file-size limit counts: the
 * kernel refused (EFBIG) the write that would have taken it further.
 */
export function dataFolderProblem(dataDir: string, limits: ResourceLimits): string | null {
  const usage = folderUsage(dataDir);
  if (usage.entries > MAX_DATA_ENTRIES)
    return `its data folder holds more than ${MAX_DATA_ENTRIES} files`;
  if (usage.bytes > limits.dataQuotaMb * MB)
    return `its data folder holds ${Math.ceil(usage.bytes / MB)} MB, over its ${limits.dataQuotaMb} MB quota ${settingOf(limits, 'dataQuotaMb')}`;
  if (usage.largest >= limits.maxFileMb * MB)
    return `it wrote a file up to the ${limits.maxFileMb} MB file-size limit ${settingOf(limits, 'maxFileMb')}`;
  return null;
}

export interface WatchedHost {
  /** The host's process (bubblewrap or the interpreter); undefined: only its data folder is watched. */
  pid?: number;
  /** A call of the host is running (its CPU use is then bounded by the call's timeout). */
  busy(): boolean;
  /** The host went over a limit: told once, with the reason. */
  exceeded(reason: string): void;
}

/** Starts sampling one host; returns the function that stops it. */
export function watchHost(host: WatchedHost, limits: ResourceLimits, dataDir: string): () => void {
  const pid = host.pid;
  let last: { at: number; cpuMs: number } | null = null;
  let idleBusyMs = 0;
  let samples = 0;
  let done = false;

  const over = (reason: string): void => {
    if (done) return;
    stop();
    host.exceeded(reason);
  };

  function sample(): void {
    samples += 1;
    if (samples % DATA_EVERY === 0) {
      const problem = dataFolderProblem(dataDir, limits);
      if (problem) return over(problem);
    }
    if (pid === undefined) return;
    const usage = treeUsage(pid);
    if (!usage) return;
    const now = Date.now();
    if (usage.rssBytes > limits.memoryMb * MB)
      return over(
        `it used ${Math.round(usage.rssBytes / MB)} MB of memory, over its ${limits.memoryMb} MB limit ${settingOf(limits, 'memoryMb')}`,
      );
    if (usage.tasks > limits.maxTasks)
      return over(
        `it ran ${usage.tasks} threads, over its limit of ${limits.maxTasks} ${settingOf(limits, 'maxTasks')}`,
      );
    if (last) {
      const elapsed = now - last.at;
      const share = elapsed > 0 ? ((usage.cpuMs - last.cpuMs) / elapsed) * 100 : 0;
      if (!host.busy() && share >= limits.idleCpuPercent) idleBusyMs += elapsed;
      else idleBusyMs = 0;
      if (idleBusyMs >= limits.idleGraceMs)
        return over(
          `it kept using ${Math.round(share)}% of a CPU for ${Math.round(idleBusyMs / 1000)} s with no call running (limit ${limits.idleCpuPercent}% for ${limits.idleGraceMs / 1000} s)`,
        );
    }
    last = { at: now, cpuMs: usage.cpuMs };
  }

  const timer = setInterval(sample, limits.sampleMs);
  timer.unref();
  function stop(): void {
    done = true;
    clearInterval(timer);
  }
  return stop;
}
