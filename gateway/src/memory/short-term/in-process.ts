/**
 * The in-process short-term tier: the store used without Redis, and the fallback while Redis is
 * unreachable. Expiry follows the injected clock exactly: an item written at `t` with a TTL of
 * `s` seconds is returned while `now() < t + s * 1000` and never after. Expired items are
 * dropped lazily whenever their session is touched, and by a periodic sweep (an unref'd timer
 * that `close()` stops). Memory is bounded: at most `maxItemsPerSession` items per session
 * (adding more drops the oldest), `maxSessions` sessions (a new session evicts the one
 * written to least recently), item content of at most `maxItemBytes` (a larger item is refused)
 * and `maxStoreBytes` in all: over it, expired items go first, then the oldest items of the
 * sessions written to least recently (never the item just added). An item's size is its
 * content, id, session id, hash and origin in UTF-8 plus a fixed allowance for the structures
 * holding it; UTF-8 is at least what V8 uses for the same text, so the figure is an upper
 * bound of the strings' own memory.
 */
import type { ShortTermItem, ShortTermStore } from '../ports.ts';
import {
  DEFAULT_MAX_ITEMS_PER_SESSION,
  DEFAULT_MAX_ITEM_BYTES,
  DEFAULT_MAX_STORE_BYTES,
  assertItemSize,
  assertTtl,
  copyItem,
  copyStoredItem,
  keywordMatcher,
  normaliseLimit,
  type OnShortTermDropped,
} from './rules.ts';

export interface InProcessShortTermOptions {
  /** Epoch milliseconds. */
  now: () => number;
  /** Default 500. */
  maxItemsPerSession?: number;
  /** Default 10,000. */
  maxSessions?: number;
  /** Largest item content in UTF-8 bytes; default 65,536. */
  maxItemBytes?: number;
  /** Bytes held across all sessions; default 32 MiB. */
  maxStoreBytes?: number;
  /** Told of items refused or evicted for their size (`short_term_items_dropped_total`). */
  onDropped?: OnShortTermDropped;
  /** How often expired items are swept out of sessions nobody reads; default 60 s. */
  sweepIntervalMs?: number;
}

interface Entry {
  item: ShortTermItem;
  /** Epoch milliseconds by the injected clock; the item is gone from this instant on. */
  expiresAt: number;
  /** What the entry counts against `maxStoreBytes`. */
  bytes: number;
}

/** Allowance for the Map entry, the objects and their fields beside the strings' bytes. */
const ENTRY_OVERHEAD_BYTES = 256;

function entryBytes(item: ShortTermItem): number {
  return (
    Buffer.byteLength(item.content) +
    Buffer.byteLength(item.id) +
    Buffer.byteLength(item.sessionId) +
    Buffer.byteLength(item.contentHash) +
    Buffer.byteLength(JSON.stringify(item.origin ?? null)) +
    ENTRY_OVERHEAD_BYTES
  );
}

export function createInProcessShortTermStore(options: InProcessShortTermOptions): ShortTermStore {
  const { now } = options;
  const maxItems = options.maxItemsPerSession ?? DEFAULT_MAX_ITEMS_PER_SESSION;
  const maxSessions = options.maxSessions ?? 10_000;
  const maxItemBytes = options.maxItemBytes ?? DEFAULT_MAX_ITEM_BYTES;
  const maxStoreBytes = options.maxStoreBytes ?? DEFAULT_MAX_STORE_BYTES;
  /** Sessions in order of their last write; each session's entries in order of writing. */
  const sessions = new Map<string, Map<string, Entry>>();
  /** The sum of every held entry's `bytes`. */
  let heldBytes = 0;
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
      if (at >= entry.expiresAt) drop(entries, id);
      else if (entry.expiresAt < next) next = entry.expiresAt;
    }
    soonest.set(entries, next);
    if (entries.size === 0) sessions.delete(sessionId);
  }

  /** Removes one entry of a session, and its bytes from the total. */
  function drop(entries: Map<string, Entry>, id: string): void {
    const entry = entries.get(id);
    if (entry === undefined) return;
    entries.delete(id);
    heldBytes -= entry.bytes;
  }

  /**
   * Brings the total back under `maxStoreBytes`: expired items first, then the oldest items of
   * the least recently written sessions. The session written last is at the end of the order,
   * its newest entry (the one just added, `keep`) last of all; that one always stays.
   */
  function evictBytesBeyondLimit(keep: Entry): void {
    if (heldBytes <= maxStoreBytes) return;
    sweepAll(now());
    let evicted = 0;
    for (const [sessionId, entries] of sessions) {
      for (const [id, entry] of entries) {
        if (heldBytes <= maxStoreBytes || entry === keep) break;
        drop(entries, id);
        evicted += 1;
      }
      if (entries.size === 0) sessions.delete(sessionId);
      if (heldBytes <= maxStoreBytes) break;
    }
    if (evicted > 0) options.onDropped?.('store_bytes', evicted);
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
      removeSession(sessionId);
    }
  }

  function removeSession(sessionId: string): void {
    const entries = sessions.get(sessionId);
    if (entries === undefined) return;
    for (const entry of entries.values()) heldBytes -= entry.bytes;
    sessions.delete(sessionId);
  }

  function clearSession(sessionId: string): number {
    const entries = live(sessionId);
    if (entries === undefined) return 0;
    const count = entries.size;
    removeSession(sessionId);
    return count;
  }

  const store = {
    add(item: ShortTermItem, ttlSeconds: number): void {
      assertOpen();
      assertTtl(ttlSeconds);
      const copy = copyItem(item);
      assertItemSize(copy, maxItemBytes, options.onDropped);
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
      drop(entries, item.id);
      const added: Entry = {
        item: copy,
        expiresAt: at + ttlSeconds * 1000,
        bytes: entryBytes(copy),
      };
      entries.set(item.id, added);
      heldBytes += added.bytes;
      if (added.expiresAt < (soonest.get(entries) ?? Infinity))
        soonest.set(entries, added.expiresAt);
      for (const id of entries.keys()) {
        if (entries.size <= maxItems) break;
        drop(entries, id);
      }
      evictBytesBeyondLimit(added);
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
          drop(entries, id);
          removed += 1;
        }
        if (entries.size === 0) sessions.delete(target);
      }
      return removed;
    },

    removeIds(sessionId: string, ids: readonly string[]): number {
      assertOpen();
      const entries = live(sessionId);
      if (entries === undefined) return 0;
      let removed = 0;
      for (const id of new Set(ids)) {
        if (!entries.has(id)) continue;
        drop(entries, id);
        removed += 1;
      }
      if (entries.size === 0) sessions.delete(sessionId);
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
    removeIds: (sessionId, ids) => settle(() => store.removeIds(sessionId, ids)),
    clear: (sessionId) => settle(() => store.clear(sessionId)),
    sessions: () => settle(() => store.sessions()),
    ping: () => Promise.resolve(!closed),
    close() {
      closed = true;
      clearInterval(sweepTimer);
      sessions.clear();
      heldBytes = 0;
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
