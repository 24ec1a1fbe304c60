/**
 * The two connections to one Redis server (`[memory] cache_url`): one for commands and one for
 * pub/sub (a subscribed connection runs no other command), made like every Hearth Redis
 * connection (connection.ts). A gateway opens one link per URL and shares it (pool.ts): the
 * short-term tier, the scale-out parts and the canvas.
 * Connection errors are logged at debug level, once per outage: the parts that fall back own
 * the user-facing warning.
 */
import type { Logger } from '../observability/logger.ts';
import {
  createRedisConnection,
  describeRedisUrl,
  endRedisConnection,
  firstConnectAttempt,
  type RedisConnection,
} from './connection.ts';

export type RedisClient = RedisConnection;

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

/** Never rejects because Redis is down: the link keeps reconnecting until `close()`. */
export async function createRedisLink(options: RedisLinkOptions): Promise<RedisLink> {
  const { logger } = options;
  const server = describeRedisUrl(options.url);
  const client = createRedisConnection(options.url, options.commandTimeoutMs ?? 2_000);
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
      logger.debug({ server, connection: name }, 'redis connection ready');
    });
    connection.on('error', (error: unknown) => {
      if (up || !loggedDown) {
        logger.debug(
          { server, connection: name, err: error instanceof Error ? error.message : String(error) },
          'redis connection unreachable; reconnecting in the background',
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
    firstConnectAttempt(c, options.firstConnectWaitMs ?? 1_000),
  );
  for (const connection of [client, subscriber]) {
    // connect() keeps retrying until it succeeds; it rejects only once the link is closed.
    connection.connect().catch((error: unknown) => {
      if (!closed) logger.debug({ server, err: String(error) }, 'redis link stopped connecting');
    });
  }
  await Promise.all(attempts);

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
      await Promise.all([endRedisConnection(subscriber), endRedisConnection(client)]);
    },
  };
}
