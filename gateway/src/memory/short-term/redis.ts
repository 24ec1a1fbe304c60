/**
 * The Redis short-term tier (`[memory] cache_url`), on node-redis. Layout and expiry rules are
 * in redis-scripts.ts: expiry follows the injected clock (scores compared with `now()` on every
 * read), and Redis key TTLs bound memory for sessions nobody reads again.
 *
 * Connection: the store runs its commands on the gateway's shared link to that Redis
 * (redis/link.ts, one per URL through redis/pool.ts), which connects in the background,
 * reconnects by itself with a capped exponential backoff and never queues commands while
 * disconnected, so a call made while Redis is down rejects at once instead of hanging; the
 * resilient store (resilient.ts) turns that into a switch to the in-process tier. `ping()`
 * answers false while Redis is unreachable.
 */
import type { Logger } from '../../observability/logger.ts';
import type { RedisLink } from '../../redis/link.ts';
import type { MemoryRole, ShortTermItem, ShortTermStore } from '../ports.ts';
import { decodeOrigin, defaultItemOrigin } from '../origin.ts';
import {
  DEFAULT_MAX_ITEMS_PER_SESSION,
  DEFAULT_MAX_ITEM_BYTES,
  assertItemSize,
  assertTtl,
  itemOrigin,
  keywordMatcher,
  normaliseLimit,
  type OnShortTermDropped,
} from './rules.ts';
import { ADD, ALL, CLEAR, COUNT, RECENT, REMOVE, REMOVE_IDS, SESSIONS } from './redis-scripts.ts';

export interface RedisShortTermOptions {
  /** The connection to Redis; the store closes it (its handle, from the pool) on `close()`. */
  link: Pick<RedisLink, 'client' | 'close'>;
  logger: Logger;
  /** Epoch milliseconds; expiry is decided by this clock. */
  now: () => number;
  /** Prefix of every key; default `hearth:st:`. */
  keyPrefix?: string;
  /** Default 500, at most 5,000. */
  maxItemsPerSession?: number;
  /**
   * Largest item content in UTF-8 bytes; default 65,536. (What Redis holds in all is Redis's
   * memory, not the gateway's: bounded by this, the per-session cap and the key TTLs.)
   */
  maxItemBytes?: number;
  /** Told of items refused for their size (`short_term_items_dropped_total`). */
  onDropped?: OnShortTermDropped;
}

const roles: ReadonlySet<string> = new Set<MemoryRole>(['user', 'assistant', 'summary', 'note']);

/** Never fails because Redis is down: calls reject while it is, `ping()` answers false. */
export function createRedisShortTermStore(options: RedisShortTermOptions): ShortTermStore {
  const { link, logger, now } = options;
  const { client } = link;
  const prefix = options.keyPrefix ?? 'hearth:st:';
  const maxItems = Math.min(options.maxItemsPerSession ?? DEFAULT_MAX_ITEMS_PER_SESSION, 5_000);
  const maxItemBytes = options.maxItemBytes ?? DEFAULT_MAX_ITEM_BYTES;
  let closed = false;

  const keys = (sessionId: string) => ({
    order: `${prefix}o:${sessionId}`,
    expiry: `${prefix}x:${sessionId}`,
    items: `${prefix}d:${sessionId}`,
  });
  const sessionsKey = `${prefix}sessions`;

  function run(script: string, keyNames: string[], args: string[]): Promise<unknown> {
    return client.eval(script, { keys: keyNames, arguments: args });
  }

  function parseItem(json: unknown, sessionId: string): ShortTermItem | undefined {
    if (typeof json !== 'string') return undefined;
    try {
      const value = JSON.parse(json) as Partial<Record<keyof ShortTermItem, unknown>>;
      if (
        typeof value.id === 'string' &&
        value.sessionId === sessionId &&
        typeof value.role === 'string' &&
        roles.has(value.role) &&
        typeof value.content === 'string' &&
        typeof value.contentHash === 'string' &&
        typeof value.createdAt === 'number'
      ) {
        return {
          id: value.id,
          sessionId,
          role: value.role as MemoryRole,
          content: value.content,
          contentHash: value.contentHash,
          createdAt: value.createdAt,
          // Items written before provenance was kept have none: the default of their role.
          origin: decodeOrigin(value.origin, defaultItemOrigin(value.role)),
        };
      }
    } catch {
      // fall through: an unreadable entry is skipped
    }
    logger.debug({ sessionId }, 'skipped an unreadable short-term item in redis');
    return undefined;
  }

  async function liveSessions(at: number): Promise<string[]> {
    const reply = await run(SESSIONS, [sessionsKey], [String(at)]);
    return Array.isArray(reply) ? reply.filter((v): v is string => typeof v === 'string') : [];
  }

  async function removeMatchingIn(
    sessionId: string,
    matches: (content: string) => boolean,
    at: number,
  ): Promise<number> {
    const k = keys(sessionId);
    const reply = await run(ALL, [k.order, k.expiry, k.items], [String(at)]);
    const flat = Array.isArray(reply) ? reply : [];
    const ids: string[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const item = parseItem(flat[i + 1], sessionId);
      const id: unknown = flat[i];
      if (typeof id === 'string' && item !== undefined && matches(item.content)) ids.push(id);
    }
    if (ids.length === 0) return 0;
    const removed = await run(
      REMOVE,
      [k.order, k.expiry, k.items, sessionsKey],
      [sessionId, ...ids],
    );
    return Number(removed);
  }

  async function clearSession(sessionId: string, at: number): Promise<number> {
    const k = keys(sessionId);
    const count = await run(
      CLEAR,
      [k.order, k.expiry, k.items, sessionsKey],
      [sessionId, String(at)],
    );
    return Number(count);
  }

  return {
    kind: 'redis',

    async add(item, ttlSeconds) {
      assertTtl(ttlSeconds);
      const origin = itemOrigin(item);
      assertItemSize(item, maxItemBytes, options.onDropped);
      const at = now();
      const k = keys(item.sessionId);
      const json = JSON.stringify({
        id: item.id,
        sessionId: item.sessionId,
        role: item.role,
        content: item.content,
        contentHash: item.contentHash,
        createdAt: item.createdAt,
        origin,
      });
      await run(
        ADD,
        [k.order, k.expiry, k.items, sessionsKey],
        [
          item.id,
          json,
          String(at + ttlSeconds * 1000),
          String(at),
          String(Math.ceil(ttlSeconds * 1000)),
          String(maxItems),
          item.sessionId,
        ],
      );
    },

    async recent(sessionId, limit) {
      const wanted = Math.min(normaliseLimit(limit), maxItems);
      if (wanted === 0) return [];
      const k = keys(sessionId);
      const reply = await run(
        RECENT,
        [k.order, k.expiry, k.items],
        [String(now()), String(wanted)],
      );
      const items: ShortTermItem[] = [];
      for (const json of Array.isArray(reply) ? reply : []) {
        const item = parseItem(json, sessionId);
        if (item !== undefined) items.push(item);
      }
      return items;
    },

    async removeMatching(sessionId, keyword) {
      const matches = keywordMatcher(keyword);
      const at = now();
      const targets = sessionId === null ? await liveSessions(at) : [sessionId];
      let removed = 0;
      for (const target of targets) removed += await removeMatchingIn(target, matches, at);
      return removed;
    },

    async removeIds(sessionId, ids) {
      const unique = [...new Set(ids)];
      if (unique.length === 0) return 0;
      const k = keys(sessionId);
      const removed = await run(
        REMOVE_IDS,
        [k.order, k.expiry, k.items, sessionsKey],
        [sessionId, String(now()), ...unique],
      );
      return Number(removed);
    },

    async clear(sessionId) {
      const at = now();
      if (sessionId !== null) return clearSession(sessionId, at);
      const reply = await client.zRange(sessionsKey, 0, -1);
      const counts = await Promise.all(reply.map((target) => clearSession(String(target), at)));
      await client.del(sessionsKey);
      return counts.reduce((sum, count) => sum + count, 0);
    },

    async sessions() {
      const at = now();
      const targets = await liveSessions(at);
      const counts = await Promise.all(
        targets.map(async (target) => {
          const k = keys(target);
          const reply = await run(
            COUNT,
            [k.order, k.expiry, k.items, sessionsKey],
            [String(at), target],
          );
          return [target, Number(reply)] as const;
        }),
      );
      return new Map(counts.filter(([, count]) => count > 0));
    },

    async ping() {
      if (closed || !client.isReady) return false;
      try {
        await client.ping();
        return true;
      } catch {
        return false;
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      await link.close();
    },
  };
}
