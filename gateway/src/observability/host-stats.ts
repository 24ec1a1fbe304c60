import { statfs } from 'node:fs/promises';

export interface HostFigures {
  cpu_percent: number | null;
  memory_rss_bytes: number | null;
  disk_usage_percent: number | null;
  disk_free_bytes: number | null;
}

export interface HostStatsDeps {
  /** Monotonic clock in milliseconds. */
  now: () => number;
  cpuUsage: () => NodeJS.CpuUsage;
  rss: () => number;
  statfs: (
    path: string,
  ) => Promise<{ blocks: number; bfree: number; bavail: number; bsize: number }>;
}

const defaultDeps: HostStatsDeps = {
  now: () => performance.now(),
  cpuUsage: () => process.cpuUsage(),
  rss: () => process.memoryUsage.rss(),
  statfs: (path) => statfs(path),
};

function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/**
 * Host figures from Node built-ins. CPU is the process's CPU time since the previous read as a
 * percentage of wall time (so 0.0 on the first read; above 100 when several cores are busy).
 * Disk figures are for the filesystem holding `diskPath`. Any figure whose read fails is null,
 * never 0. Each consumer (status, metrics) owns its sampler so reads do not disturb each other.
 */
export function createHostStats(diskPath: string, deps: Partial<HostStatsDeps> = {}) {
  const io = { ...defaultDeps, ...deps };
  let previous: { at: number; cpu: NodeJS.CpuUsage } | undefined;

  function cpuPercent(): number | null {
    try {
      const at = io.now();
      const cpu = io.cpuUsage();
      const last = previous;
      previous = { at, cpu };
      if (!last) return 0;
      const wallMicros = (at - last.at) * 1000;
      if (wallMicros <= 0) return 0;
      const used = cpu.user - last.cpu.user + (cpu.system - last.cpu.system);
      return round((used / wallMicros) * 100);
    } catch {
      return null;
    }
  }

  function rss(): number | null {
    try {
      return io.rss();
    } catch {
      return null;
    }
  }

  async function disk(): Promise<Pick<HostFigures, 'disk_usage_percent' | 'disk_free_bytes'>> {
    try {
      const fs = await io.statfs(diskPath);
      const total = fs.blocks * fs.bsize;
      if (total <= 0) return { disk_usage_percent: null, disk_free_bytes: null };
      const used = (fs.blocks - fs.bfree) * fs.bsize;
      const available = fs.bavail * fs.bsize;
      // Same formula as df: used / (used + available to unprivileged users).
      return {
        disk_usage_percent: round((used / (used + available)) * 100),
        disk_free_bytes: available,
      };
    } catch {
      return { disk_usage_percent: null, disk_free_bytes: null };
    }
  }

  return {
    cpuPercent,
    rss,
    disk,
    async read(): Promise<HostFigures> {
      return { cpu_percent: cpuPercent(), memory_rss_bytes: rss(), ...(await disk()) };
    },
  };
}

export type HostStats = ReturnType<typeof createHostStats>;
