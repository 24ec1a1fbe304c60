/**
 * One node-redis connection as every Redis part of Hearth uses it (through the link, link.ts,
 * that a gateway shares per URL): no offline queue, so a call made while Redis is down rejects
 * at once instead of hanging; a command timeout; background reconnection with capped backoff.
 * Imported only by modules that are themselves loaded when `[memory] cache_url` is set.
 */
import { createClient } from 'redis';

/** The Redis server a URL points at, without credentials (for logs). */
export function describeRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return '(invalid Redis URL)';
  }
}

/** Backoff between reconnection attempts: 100 ms doubling to 5 s, with up to 250 ms jitter. */
export function reconnectDelayMs(retries: number): number {
  return Math.min(100 * 2 ** Math.min(retries, 16), 5_000) + Math.floor(Math.random() * 250);
}

export function createRedisConnection(url: string, commandTimeoutMs: number) {
  return createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: commandTimeoutMs },
    socket: { connectTimeout: 2_000, reconnectStrategy: reconnectDelayMs },
  });
}

export type RedisConnection = ReturnType<typeof createRedisConnection>;

/** Resolves once `connection` is ready or has failed once, or after `ms`. */
export function firstConnectAttempt(connection: RedisConnection, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    timer.unref();
    function done(): void {
      clearTimeout(timer);
      connection.off('ready', done);
      connection.off('error', done);
      resolve();
    }
    connection.on('ready', done);
    connection.on('error', done);
  });
}

/** Closes gracefully when connected, else drops the socket (and stops reconnecting). */
export async function endRedisConnection(connection: RedisConnection): Promise<void> {
  if (connection.isReady) {
    try {
      await connection.close();
      return;
    } catch {
      // fall through to destroy
    }
  }
  if (connection.isOpen) connection.destroy();
}
