import type { PublicPages } from '../http/pages.ts';
import type { AnyRoute } from '../http/route.ts';
import type { StartupPhase } from './startup.ts';
import type { SocketHandler, SocketRouteOptions } from '../ws/socket-router.ts';

/** A WebSocket endpoint an area serves. */
export interface AreaSocket {
  path: string;
  handler: SocketHandler;
  options?: SocketRouteOptions;
}

/**
 * One area of the gateway as `createGateway` sees it. Its installer (`defineArea`, install.ts)
 * takes the kernel and only the faces of the areas it names, and returns this; the gateway is a
 * list of installers in start-up order plus generic code that mounts their routes and sockets,
 * runs `start` as a start-up phase, merges `status`, and closes them in reverse order.
 *
 * Routes and sockets exist from the beginning (the port is bound before start-up runs); a part
 * built in `start` is reached through a `late` value, which answers 503 "… is starting" (with Retry-After) until
 * then.
 */
export interface Area {
  readonly name: string;
  /** REST routes under `/api/v1`. */
  readonly routes?: readonly AnyRoute[];
  /** Root routes (`/health`, `/ready`). */
  readonly rootRoutes?: readonly AnyRoute[];
  readonly sockets?: readonly AreaSocket[];
  /** Pages outside the JSON API (the web client, canvas sandbox pages), mounted at the root. */
  readonly pages?: PublicPages;
  /** Runs before the port is bound (e.g. a secret the sockets need from the first request). */
  prepare?(): Promise<void>;
  /** The area's start-up phase; phases run one after another in list order. */
  start?(): Promise<void>;
  /** Which adapter each part uses (`/api/v1/status` `backends`), once started. */
  status?(): Record<string, string>;
  /**
   * Work the area leaves out of start-up until first use that `status` reports on (probing
   * voice engines, say): `/api/v1/status` runs it (once) and waits for it before reading.
   */
  settle?(): Promise<void>;
  /** Called first on shutdown, before in-flight requests drain (e.g. deny pending approvals). */
  drain?(): Promise<void> | void;
  /** Called after the drain, in reverse list order. */
  close?(): Promise<void> | void;
}

/** The start-up phases of the areas that have one, in list order. */
export function startupPhases(areas: readonly Area[]): StartupPhase[] {
  return areas
    .filter((area) => area.start !== undefined)
    .map((area) => ({ name: area.name, run: async () => await area.start?.() }));
}

/** Every started area's backends, merged. */
export function mergedBackends(areas: readonly Area[]): Record<string, string> {
  return Object.assign({}, ...areas.map((area) => area.status?.() ?? {})) as Record<string, string>;
}

/** Runs every area's `settle`; one that fails leaves the others (and its own status) as they are. */
export async function settleAreas(areas: readonly Area[]): Promise<void> {
  await Promise.allSettled(areas.map(async (area) => await area.settle?.()));
}

/** Closes the areas in reverse order; one that fails does not keep the others open. */
export async function closeAreas(
  areas: readonly Area[],
  onError: (area: string, error: unknown) => void,
): Promise<void> {
  for (const area of [...areas].reverse()) {
    try {
      await area.close?.();
    } catch (error) {
      onError(area.name, error);
    }
  }
}
