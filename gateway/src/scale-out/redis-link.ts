/**
 * The two Redis connections the scale-out parts share (`[memory] cache_url`): one for commands
 * and one for pub/sub (a subscribed connection runs no other command). Same settings as the
 * short-term tier (memory/short-term/redis.ts): no offline queue, so a call made while Redis is
 * down rejects at once; a 2 s command timeout; background reconnection with capped backoff.
 * Connection errors are logged at debug level, once per outage: the parts that fall back own
 * the user-facing warning.
 */
import { createClient } from 'redis';
import type { Logger } from '../observability/logger.ts';
import { describeRedisUrl, reconnectDelayMs } from '../memory/short-term/redis.ts';

function newClient(url: string, commandTimeoutMs: number) {
  return createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: commandTimeoutMs },
    socket: { connectTimeout: 2_000, reconnectStrategy: reconnectDelayMs },
  });
}

export type RedisClient = ReturnType<typeof newClient>;

export interface RedisLinkOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://`). */
  url: string;
  logger: Logger;
  /** How long a command may take before it fails; default 2,000 ms. */
  commandTimeoutMs?: number;
  /** How long the factory waits for the first connection attempts; default 1,000 ms. */
  firstConnectWaitMs?: number;
}

export interface RedisLink {
  readonly client: RedisClient;
  readonly subscriber: RedisClient;
  /** Whether both connections are up right now. */
  ready(): boolean;
  /** Runs `fn` each time the pub/sub connection becomes ready (first connect and reconnects). */
  onSubscriberReady(fn: () => void): void;
  close(): Promise<void>;
}

/** Resolves once `client` is ready or has failed once, or after `ms`. */
function firstAttempt(client: RedisClient, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    timer.unref();
    function done(): void {
      clearTimeout(timer);
      client.off('ready', done);
      client.off('error', done);
      resolve();
    }
    client.on('ready', done);
    client.on('error', done);
  });
}

/** Never rejects because Redis is down: the link keeps reconnecting until `close()`. */
export async function createRedisLink(options: RedisLinkOptions): Promise<RedisLink> {
  const { logger } = options;
  const server = describeRedisUrl(options.url);
  const client = newClient(options.url, options.commandTimeoutMs ?? 2_000);
  const subscriber = client.duplicate();
  const readyListeners: (() => void)[] = [];
  let closed = false;

  for (const [name, connection] of [
    ['commands', client],
    ['pub/sub', subscriber],
  ] as const) {
    let up = false;
    let loggedDown = false;
    connection.on('ready', () => {
      up = true;
      loggedDown = false;
      logger.debug({ server, connection: name }, 'redis scale-out connection ready');
    });
    connection.on('error', (error: unknown) => {
      if (up || !loggedDown) {
        logger.debug(
          { server, connection: name, err: error instanceof Error ? error.message : String(error) },
          'redis scale-out connection unreachable; reconnecting in the background',
        );
      }
      up = false;
      loggedDown = true;
    });
  }
  subscriber.on('ready', () => {
    for (const fn of readyListeners) fn();
  });

  const attempts = [client, subscriber].map((c) =>
    firstAttempt(c, options.firstConnectWaitMs ?? 1_000),
  );
  for (const connection of [client, subscriber]) {
    // connect() keeps retrying until it succeeds; it rejects only once the link is closed.
    connection.connect().catch((error: unknown) => {
      if (!closed) logger.debug({ server, err: String(error) }, 'redis link stopped connecting');
    });
  }
  await Promise.all(attempts);

  async function end(connection: RedisClient): Promise<void> {
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

  return {
    client,
    subscriber,
    ready: () => !closed && client.isReady && subscriber.isReady,
    onSubscriberReady(fn) {
      readyListeners.push(fn);
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([end(subscriber), end(client)]);
    },
  };
}
