import { readdir } from 'node:fs/promises';
import { monitorEventLoopDelay, type ELDHistogram } from 'node:perf_hooks';
import { getHeapSpaceStatistics, getHeapStatistics, type HeapSpaceInfo } from 'node:v8';

/** A worker thread's V8 heap, bytes. */
export interface WorkerHeap {
  used: number;
  total: number;
}

/** Event-loop delay over one window, in seconds beyond the monitor's timer resolution. */
export interface LoopDelayFigures {
  p50: number;
  p99: number;
  max: number;
}

export interface ProcessSamplerDeps {
  /** Length of one event-loop window; the gauges report the last full one. Default 60 s. */
  windowMs: number;
  /** The monitor's timer resolution; its own period is taken off every delay. Default 10 ms. */
  resolutionMs: number;
  /** The entries of this process's descriptor folder (Linux `/proc/self/fd`). */
  listFds: () => Promise<string[]>;
  /** Node's active handles and requests, one type name each. */
  activeResources: () => string[];
  monitor: (resolutionMs: number) => ELDHistogram;
  memoryUsage: () => NodeJS.MemoryUsage;
  /** V8's heap spaces (new, old, code, large objects, …): committed and used bytes of each. */
  heapSpaces: () => HeapSpaceInfo[];
  /** Memory V8 itself took with malloc (outside its heap pages), bytes. */
  mallocedMemory: () => number;
}

const defaultDeps: ProcessSamplerDeps = {
  windowMs: 60_000,
  resolutionMs: 10,
  listFds: () => readdir('/proc/self/fd'),
  activeResources: () => process.getActiveResourcesInfo(),
  monitor: (resolution) => monitorEventLoopDelay({ resolution }),
  memoryUsage: () => process.memoryUsage(),
  heapSpaces: () => getHeapSpaceStatistics(),
  mallocedMemory: () => getHeapStatistics().malloced_memory,
};

const NS_PER_S = 1e9;

/**
 * What a soak watches for in the gateway's own process: how late the event loop runs (a
 * `monitorEventLoopDelay` histogram, read in fixed windows so every scraper sees the same
 * figures), how many file descriptors it holds, which Node resources (sockets, timers,
 * child processes) keep it busy and where its memory is (V8 heap, or outside it). The monitor runs between `start()` and `stop()` only (the
 * status area's start-up phase and close), so a gateway that is built but never started, or
 * closed, leaves no timer behind.
 */
export function createProcessSampler(deps: Partial<ProcessSamplerDeps> = {}) {
  const io = { ...defaultDeps, ...deps };
  /** Worker threads' heaps (their own V8 isolates: not in `memory()`), by worker name. */
  const workers = new Map<string, () => Promise<WorkerHeap | null>>();
  const resolutionNs = io.resolutionMs * 1e6;
  let histogram: ELDHistogram | undefined;
  let rotation: NodeJS.Timeout | undefined;
  let last: LoopDelayFigures | null = null;

  const beyondResolution = (ns: number) => Math.max(0, ns - resolutionNs) / NS_PER_S;
  function figures(of: ELDHistogram): LoopDelayFigures | null {
    if (of.count === 0) return null;
    return {
      p50: beyondResolution(of.percentile(50)),
      p99: beyondResolution(of.percentile(99)),
      max: beyondResolution(of.max),
    };
  }

  return {
    start(): void {
      if (histogram) return;
      const started = io.monitor(io.resolutionMs);
      started.enable();
      histogram = started;
      rotation = setInterval(() => {
        last = figures(started) ?? last;
        started.reset();
      }, io.windowMs);
      rotation.unref();
    },
    stop(): void {
      clearInterval(rotation);
      histogram?.disable();
      histogram = undefined;
      rotation = undefined;
      last = null;
    },
    /** The last full window's delay, or the current window's before one has ended; null when not running. */
    loopDelay(): LoopDelayFigures | null {
      if (!histogram) return null;
      return last ?? figures(histogram);
    },
    /** Open file descriptors (the listing's own one not counted); null where none can be read. */
    async openFds(): Promise<number | null> {
      try {
        return Math.max(0, (await io.listFds()).length - 1);
      } catch {
        return null;
      }
    },
    /** V8's heap and the memory outside it that JavaScript objects hold; null when unreadable. */
    memory(): NodeJS.MemoryUsage | null {
      try {
        return io.memoryUsage();
      } catch {
        return null;
      }
    },
    /** V8's heap spaces by name (`old_space`, `large_object_space`, …); empty when unreadable. */
    heapSpaces(): HeapSpaceInfo[] {
      try {
        return io.heapSpaces();
      } catch {
        return [];
      }
    },
    /** Bytes V8 holds through malloc beside its heap pages; null when unreadable. */
    mallocedMemory(): number | null {
      try {
        return io.mallocedMemory();
      } catch {
        return null;
      }
    },
    /** Reports a worker thread's heap under `name` until the returned function is called. */
    watchWorker(name: string, heap: () => Promise<WorkerHeap | null>): () => void {
      workers.set(name, heap);
      return () => {
        if (workers.get(name) === heap) workers.delete(name);
      };
    },
    /** The heaps of the watched workers that run now. */
    async workerHeaps(): Promise<Map<string, WorkerHeap>> {
      const heaps = new Map<string, WorkerHeap>();
      for (const [name, read] of workers) {
        const heap = await read().catch(() => null);
        if (heap) heaps.set(name, heap);
      }
      return heaps;
    },
    /** Active Node resources by type (`TCPSocketWrap`, `Timeout`, `ProcessWrap`, …). */
    activeResources(): Map<string, number> {
      const counts = new Map<string, number>();
      for (const type of io.activeResources()) counts.set(type, (counts.get(type) ?? 0) + 1);
      return counts;
    },
  };
}

export type ProcessSampler = ReturnType<typeof createProcessSampler>;
