/**
 * The Redis short-term tier (`[memory] cache_url`), on node-redis. Layout and expiry rules are
 * in redis-scripts.ts: expiry follows the injected clock (scores compared with `now()` on every
 * read), and Redis key TTLs bound memory for sessions nobody reads again.
 *
 * Connection: the client connects in the background and reconnects by itself with a capped
 * exponential backoff. It never queues commands while disconnected (`disableOfflineQueue`), so
 * a call made while Redis is down rejects at once instead of hanging; the resilient store
 * (resilient.ts) turns that into a switch to the in-process tier. `ping()` answers false while
 * Redis is unreachable. Connection errors are logged at debug level only, once per outage: the
 * resilient store owns the user-facing warning.
 */
import type { Logger } from '../../observability/logger.ts';
import {
  createRedisConnection,
  describeRedisUrl,
  endRedisConnection,
  firstConnectAttempt,
} from '../../redis/connection.ts';
import type { MemoryRole, ShortTermItem, ShortTermStore } from '../ports.ts';
import {
  DEFAULT_MAX_ITEMS_PER_SESSION,
  assertTtl,
  keywordMatcher,
  normaliseLimit,
} from './rules.ts';
import { ADD, ALL, CLEAR, COUNT, RECENT, REMOVE, SESSIONS } from './redis-scripts.ts';

export interface RedisShortTermOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://`). */
  url: string;
  logger: Logger;
  /** Epoch milliseconds; expiry is decided by this clock. */
  now: () => number;
  /** Prefix of every key; default `hearth:st:`. */
  keyPrefix?: string;
  /** Default 500, at most 5,000. */
  maxItemsPerSession?: number;
  /** How long a command may take before it fails; default 2,000 ms. */
  commandTimeoutMs?: number;
  /** How long the factory waits for the first connection before returning; default 1,000 ms. */
  firstConnectWaitMs?: number;
}

const roles: ReadonlySet<string> = new Set<MemoryRole>(['user', 'assistant', 'summary', 'note']);

/**
 * Creates the store and waits (at most `firstConnectWaitMs`) for the first connection attempt
 * to succeed or fail. Never rejects because Redis is down: the store is returned either way and
 * keeps reconnecting in the background until `close()`.
 */
export async function createRedisShortTermStore(
  options: RedisShortTermOptions,
): Promise<ShortTermStore> {
  const { logger, now } = options;
  const prefix = options.keyPrefix ?? 'hearth:st:';
  const maxItems = Math.min(options.maxItemsPerSession ?? DEFAULT_MAX_ITEMS_PER_SESSION, 5_000);
  const server = describeRedisUrl(options.url);
  const client = createRedisConnection(options.url, options.commandTimeoutMs ?? 2_000);

  let closed = false;
  let reachable = false;
  let loggedFirstFailure = false;
  client.on('ready', () => {
    if (!reachable) logger.debug({ server }, 'redis short-term cache connected');
    reachable = true;
  });
  client.on('error', (error: unknown) => {
    if (reachable || !loggedFirstFailure) {
      logger.debug(
        { server, err: error instanceof Error ? error.message : String(error) },
        'redis short-term cache unreachable; reconnecting in the background',
      );
    }
    loggedFirstFailure = true;
    reachable = false;
  });

  const firstAttempt = firstConnectAttempt(client, options.firstConnectWaitMs ?? 1_000);
  // connect() keeps retrying until it succeeds; it rejects only once the client is closed.
  client.connect().catch((error: unknown) => {
    if (!closed) {
      logger.debug({ server, err: String(error) }, 'redis short-term cache stopped connecting');
    }
  });
  await firstAttempt;

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
      const at = now();
      const k = keys(item.sessionId);
      const json = JSON.stringify({
        id: item.id,
        sessionId: item.sessionId,
        role: item.role,
        content: item.content,
        contentHash: item.contentHash,
        createdAt: item.createdAt,
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
      await endRedisConnection(client);
    },
  };
}
