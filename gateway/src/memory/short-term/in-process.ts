/**
 * The in-process short-term tier: the store used without Redis, and the fallback while Redis is
 * unreachable. Expiry follows the injected clock exactly: an item written at `t` with a TTL of
 * `s` seconds is returned while `now() < t + s * 1000` and never after. Expired items are
 * dropped lazily whenever their session is touched, and by a periodic sweep (an unref'd timer
 * that `close()` stops). Memory is bounded: at most `maxItemsPerSession` items per session
 * (adding more drops the oldest) and `maxSessions` sessions (a new session evicts the one
 * written to least recently).
 */
import type { ShortTermItem, ShortTermStore } from '../ports.ts';
import {
  DEFAULT_MAX_ITEMS_PER_SESSION,
  assertTtl,
  copyItem,
  copyStoredItem,
  keywordMatcher,
  normaliseLimit,
} from './rules.ts';

export interface InProcessShortTermOptions {
  /** Epoch milliseconds. */
  now: () => number;
  /** Default 500. */
  maxItemsPerSession?: number;
  /** Default 10,000. */
  maxSessions?: number;
  /** How often expired items are swept out of sessions nobody reads; default 60 s. */
  sweepIntervalMs?: number;
}

interface Entry {
  item: ShortTermItem;
  /** Epoch milliseconds by the injected clock; the item is gone from this instant on. */
  expiresAt: number;
}

export function createInProcessShortTermStore(options: InProcessShortTermOptions): ShortTermStore {
  const { now } = options;
  const maxItems = options.maxItemsPerSession ?? DEFAULT_MAX_ITEMS_PER_SESSION;
  const maxSessions = options.maxSessions ?? 10_000;
  /** Sessions in order of their last write; each session's entries in order of writing. */
  const sessions = new Map<string, Map<string, Entry>>();
  let closed = false;

  const sweepTimer = setInterval(() => sweepAll(now()), options.sweepIntervalMs ?? 60_000);
  sweepTimer.unref();

  function assertOpen(): void {
    if (closed) throw new Error('the in-process short-term store is closed');
  }

  /**
   * The earliest expiry among each session's entries (or earlier): a session touched before
   * then has nothing to drop, so a turn does not walk all its items to find that out.
   */
  const soonest = new WeakMap<Map<string, Entry>, number>();

  /** Drops the session's expired entries; the session itself when nothing is left. */
  function purge(sessionId: string, entries: Map<string, Entry>, at: number): void {
    if (at < (soonest.get(entries) ?? -Infinity)) return;
    let next = Infinity;
    for (const [id, entry] of entries) {
      if (at >= entry.expiresAt) entries.delete(id);
      else if (entry.expiresAt < next) next = entry.expiresAt;
    }
    soonest.set(entries, next);
    if (entries.size === 0) sessions.delete(sessionId);
  }

  function sweepAll(at: number): void {
    for (const [sessionId, entries] of sessions) purge(sessionId, entries, at);
  }

  /** The session's unexpired entries, or undefined when it has none. */
  function live(sessionId: string): Map<string, Entry> | undefined {
    const entries = sessions.get(sessionId);
    if (entries === undefined) return undefined;
    purge(sessionId, entries, now());
    return entries.size === 0 ? undefined : entries;
  }

  function evictSessionsBeyondLimit(): void {
    if (sessions.size < maxSessions) return;
    sweepAll(now());
    for (const sessionId of sessions.keys()) {
      if (sessions.size < maxSessions) break;
      sessions.delete(sessionId);
    }
  }

  function clearSession(sessionId: string): number {
    const entries = live(sessionId);
    if (entries === undefined) return 0;
    sessions.delete(sessionId);
    return entries.size;
  }

  const store = {
    add(item: ShortTermItem, ttlSeconds: number): void {
      assertOpen();
      assertTtl(ttlSeconds);
      const at = now();
      let entries = live(item.sessionId);
      if (entries === undefined) {
        evictSessionsBeyondLimit();
        entries = new Map();
      }
      // Re-inserting moves the session to the most recently written end.
      sessions.delete(item.sessionId);
      sessions.set(item.sessionId, entries);
      // A re-used id replaces the earlier item and becomes the newest.
      entries.delete(item.id);
      const expiresAt = at + ttlSeconds * 1000;
      entries.set(item.id, { item: copyItem(item), expiresAt });
      if (expiresAt < (soonest.get(entries) ?? Infinity)) soonest.set(entries, expiresAt);
      for (const id of entries.keys()) {
        if (entries.size <= maxItems) break;
        entries.delete(id);
      }
    },

    recent(sessionId: string, limit: number): ShortTermItem[] {
      assertOpen();
      const entries = live(sessionId);
      const wanted = normaliseLimit(limit);
      if (entries === undefined || wanted === 0) return [];
      // The newest `wanted` items, newest first: only those are copied.
      const skip = entries.size - wanted;
      const items: ShortTermItem[] = [];
      let index = 0;
      for (const entry of entries.values()) {
        if (index >= skip) items.push(copyStoredItem(entry.item));
        index += 1;
      }
      return items.reverse();
    },

    removeMatching(sessionId: string | null, keyword: string): number {
      assertOpen();
      const matches = keywordMatcher(keyword);
      const targets = sessionId === null ? [...sessions.keys()] : [sessionId];
      let removed = 0;
      for (const target of targets) {
        const entries = live(target);
        if (entries === undefined) continue;
        for (const [id, entry] of entries) {
          if (!matches(entry.item.content)) continue;
          entries.delete(id);
          removed += 1;
        }
        if (entries.size === 0) sessions.delete(target);
      }
      return removed;
    },

    clear(sessionId: string | null): number {
      assertOpen();
      if (sessionId !== null) return clearSession(sessionId);
      let removed = 0;
      for (const target of [...sessions.keys()]) removed += clearSession(target);
      return removed;
    },

    sessions(): Map<string, number> {
      assertOpen();
      sweepAll(now());
      const counts = new Map<string, number>();
      for (const [sessionId, entries] of sessions) counts.set(sessionId, entries.size);
      return counts;
    },
  };

  return {
    kind: 'in-process',
    add: (item, ttlSeconds) => settle(() => store.add(item, ttlSeconds)),
    recent: (sessionId, limit) => settle(() => store.recent(sessionId, limit)),
    removeMatching: (sessionId, keyword) => settle(() => store.removeMatching(sessionId, keyword)),
    clear: (sessionId) => settle(() => store.clear(sessionId)),
    sessions: () => settle(() => store.sessions()),
    ping: () => Promise.resolve(!closed),
    close() {
      closed = true;
      clearInterval(sweepTimer);
      sessions.clear();
      return Promise.resolve();
    },
  };
}

/** Runs synchronous work as a promise: a throw becomes a rejection. */
function settle<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
