/**
 * What skill-process.ts asks about a local host's resources (resource-limits.ts for the
 * kernel's limits, host-watch.ts for the sampling): watch a started host, check the data
 * folder before a host starts and after each call, and name the limit behind an exit the kernel caused.
 */
import {
  dataFolderProblem,
  watchHost,
  type WatchedHost,
} from '../../../../common/sandbox/host-watch.ts';
import {
  LIMIT_EXIT_PREFIX,
  limitOfExit,
  type ResourceLimits,
} from '../../../../common/sandbox/resource-limits.ts';

export interface HostGuard {
  /** Starts watching a host that was just started; returns the function that stops it. */
  watch(host: WatchedHost): () => void;
  /** Why the host must stop, or not start (its data folder is over quota), or null. */
  checkData(): string | null;
  /** The limit the kernel stopped the host at (`signal SIGXCPU`, …), or null. */
  explainExit(how: string): string | null;
}

export function createHostGuard(limits: ResourceLimits, dataDir: string): HostGuard {
  return {
    watch: (host) => watchHost(host, limits, dataDir),
    checkData: () => dataFolderProblem(dataDir, limits),
    explainExit: (how) => limitOfExit(how, limits),
  };
}

/**
 * A host in the sandbox sidecar: the sidecar sets and watches its limits (its own copies of
 * resource-limits.ts and host-watch.ts) and ends it as `over a resource limit: <reason>`.
 */
export const sidecarHostGuard: HostGuard = {
  watch: () => () => {},
  checkData: () => null,
  explainExit: (how) =>
    how.startsWith(LIMIT_EXIT_PREFIX) ? how.slice(LIMIT_EXIT_PREFIX.length) : null,
};
