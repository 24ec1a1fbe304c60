/**
 * The spec's cache fallback (behaviour rule 3: "Cache unreachable: in-process storage is
 * used"). Calls go to the primary store (Redis) while it answers. The first failure switches
 * to the fallback (in-process) with one warning, and the call is served there: no backend
 * error ever reaches the caller. While degraded, the primary is probed every `probeIntervalMs`
 * (an unref'd timer); once it answers, the store switches back with one info log.
 *
 * Nothing is lost across the switches:
 * - items written to the fallback during an outage stay readable after the switch back (reads
 *   merge both stores, newest first by `createdAt`) until they expire;
 * - `removeMatching`, `removeIds` and `clear` made during an outage are queued and replayed on
 *   the primary before switching back (a `/forget` must not be undone by Redis coming back);
 * - `removeMatching`, `removeIds` and `clear` made while on the primary apply to the fallback too.
 */
import type { Logger } from '../../observability/logger.ts';
import type { ShortTermItem, ShortTermStore } from '../ports.ts';
import { ShortTermItemTooLarge, assertTtl, itemOrigin, normaliseLimit } from './rules.ts';
import { createFailover } from '../../lifecycle/failover.ts';

export interface ResilientShortTermOptions {
  /** The preferred store, normally Redis. */
  primary: ShortTermStore;
  /** Used while the primary fails, normally the in-process store. */
  fallback: ShortTermStore;
  logger: Logger;
  /** Called with the kind now in use, each time it changes. */
  onChange?: (kind: ShortTermStore['kind']) => void;
  /** How often the primary is probed while degraded; default 5,000 ms. */
  probeIntervalMs?: number;
  /** Forget operations kept for replay during an outage; default 1,000 (oldest dropped). */
  maxPendingForgets?: number;
  /** How long the first probe may take before the store starts degraded; default 1,000 ms. */
  initialProbeMs?: number;
}

type Forget =
  | { op: 'remove'; sessionId: string | null; keyword: string }
  | { op: 'ids'; sessionId: string; ids: readonly string[] }
  | { op: 'clear'; sessionId: string | null };

/** Both stores' items, newest first by createdAt, each id once (the primary's copy wins). */
function mergeNewestFirst(
  primary: ShortTermItem[],
  fallback: ShortTermItem[],
  limit: number,
): ShortTermItem[] {
  if (fallback.length === 0) return primary;
  const seen = new Set(primary.map((item) => item.id));
  const merged = [...primary, ...fallback.filter((item) => !seen.has(item.id))];
  // A stable sort keeps each store's own order among equal timestamps.
  merged.sort((a, b) => b.createdAt - a.createdAt);
  return merged.slice(0, limit);
}

/**
 * Resolves once the primary has been probed (for at most `initialProbeMs`), so `kind` is right
 * from the start. Never rejects because the primary is down; a primary that answers only later
 * is picked up by the regular probe.
 */
export async function createResilientShortTermStore(
  options: ResilientShortTermOptions,
): Promise<ShortTermStore> {
  const { primary, fallback, logger } = options;
  const maxPendingForgets = options.maxPendingForgets ?? 1_000;

  let fallbackHasItems = false;
  let pending: Forget[] = [];
  let droppedForgets = false;

  async function replayForgets(): Promise<void> {
    while (pending.length > 0) {
      const next = pending[0];
      if (next === undefined) break;
      if (next.op === 'remove') await primary.removeMatching(next.sessionId, next.keyword);
      else if (next.op === 'ids') await primary.removeIds(next.sessionId, next.ids);
      else await primary.clear(next.sessionId);
      pending.shift();
    }
  }

  const failover = createFailover({
    logger,
    probeIntervalMs: options.probeIntervalMs,
    recover: async () => {
      if (!(await primary.ping())) return false;
      await replayForgets();
      return true;
    },
    log: {
      degraded: {
        fields: { primary: primary.kind, fallback: fallback.kind },
        msg: `short-term cache (${primary.kind}) unreachable; using ${fallback.kind} storage until it answers again`,
      },
      recovered: {
        fields: { primary: primary.kind },
        msg: `short-term cache (${primary.kind}) reachable again`,
      },
      stillDown: 'short-term cache still unreachable',
    },
    onSwitch: (usingPrimary) => {
      if (usingPrimary) droppedForgets = false;
      options.onChange?.(usingPrimary ? primary.kind : fallback.kind);
    },
  });

  function queueForget(forget: Forget): void {
    if (forget.sessionId === null && forget.op === 'clear') {
      pending = [forget];
      return;
    }
    if (forget.op === 'clear') {
      pending = pending.filter((queued) => queued.sessionId !== forget.sessionId);
    }
    pending.push(forget);
    if (pending.length > maxPendingForgets) {
      pending.shift();
      if (!droppedForgets) {
        logger.warn(
          { maxPendingForgets },
          'too many forget operations queued during the cache outage; the oldest are dropped',
        );
        droppedForgets = true;
      }
    }
  }

  /** Runs on the primary while it works; on its first failure, switches and uses the fallback. */
  function route<T>(onPrimary: () => Promise<T>, onFallback: () => Promise<T>): Promise<T> {
    if (failover.closed) return Promise.reject(new Error('the short-term store is closed'));
    return failover.route(onPrimary, onFallback);
  }

  await failover.probeAtStart(primary, options.initialProbeMs);

  return {
    get kind() {
      return failover.usingPrimary ? primary.kind : fallback.kind;
    },

    add(given, ttlSeconds) {
      // Bad input is refused here: it must not look like an outage of the primary.
      let item: typeof given;
      try {
        assertTtl(ttlSeconds);
        item = { ...given, origin: itemOrigin(given) };
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      // The primary refusing an item for its size is an answer, not an outage: passed on as such.
      let refused: ShortTermItemTooLarge | undefined;
      return route(
        () =>
          primary.add(item, ttlSeconds).catch((error: unknown) => {
            if (!(error instanceof ShortTermItemTooLarge)) throw error;
            refused = error;
          }),
        async () => {
          fallbackHasItems = true;
          await fallback.add(item, ttlSeconds);
        },
      ).then(() => {
        if (refused !== undefined) throw refused;
      });
    },

    recent(sessionId, limit) {
      return route(
        async () => {
          const fromPrimary = await primary.recent(sessionId, limit);
          if (!fallbackHasItems) return fromPrimary;
          const fromFallback = await fallback.recent(sessionId, limit);
          return mergeNewestFirst(fromPrimary, fromFallback, normaliseLimit(limit));
        },
        () => fallback.recent(sessionId, limit),
      );
    },

    removeMatching(sessionId, keyword) {
      return route(
        async () => {
          const removed = await primary.removeMatching(sessionId, keyword);
          return (
            removed + (fallbackHasItems ? await fallback.removeMatching(sessionId, keyword) : 0)
          );
        },
        () => {
          queueForget({ op: 'remove', sessionId, keyword });
          return fallback.removeMatching(sessionId, keyword);
        },
      );
    },

    removeIds(sessionId, ids) {
      return route(
        async () => {
          const removed = await primary.removeIds(sessionId, ids);
          return removed + (fallbackHasItems ? await fallback.removeIds(sessionId, ids) : 0);
        },
        () => {
          queueForget({ op: 'ids', sessionId, ids: [...ids] });
          return fallback.removeIds(sessionId, ids);
        },
      );
    },

    clear(sessionId) {
      return route(
        async () => {
          const removed = await primary.clear(sessionId);
          return removed + (fallbackHasItems ? await fallback.clear(sessionId) : 0);
        },
        () => {
          queueForget({ op: 'clear', sessionId });
          return fallback.clear(sessionId);
        },
      );
    },

    sessions() {
      return route(
        async () => {
          const counts = await primary.sessions();
          if (!fallbackHasItems) return counts;
          for (const [sessionId, count] of await fallback.sessions()) {
            counts.set(sessionId, (counts.get(sessionId) ?? 0) + count);
          }
          return counts;
        },
        () => fallback.sessions(),
      );
    },

    /** True while open: with the fallback, the store as a whole always works (see `kind`). */
    ping() {
      return Promise.resolve(!failover.closed);
    },

    async close() {
      if (failover.closed) return;
      failover.close();
      await Promise.all([primary.close(), fallback.close()]);
    },
  };
}
