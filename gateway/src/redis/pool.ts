/**
 * One Redis link (a command connection and a pub/sub connection, link.ts) per URL for a whole
 * gateway: the short-term tier, the scale-out parts and the canvas borrow the same two
 * connections instead of opening their own. Each part gets its own handle and closes it when
 * it closes; the link itself is closed with the last handle. Built by `createGateway` (no
 * module state). The Redis client is imported on the first `open` only, so a gateway without
 * `[memory] cache_url` never loads it.
 */
import type { Logger } from '../observability/logger.ts';
import type { RedisLink } from './link.ts';
import { redisUrlWithPassword } from './url-password.ts';

export interface RedisPool {
  /** A handle on the link to `url`, opened on first use; never rejects because Redis is down. */
  open(url: string): Promise<RedisLink>;
}

export interface RedisPoolDeps {
  logger: Logger;
  /** Opens the link for a URL; default `createRedisLink`. */
  connect?: (url: string) => Promise<RedisLink>;
  /**
   * `[memory] cache_password_secret`: the password sent to a Redis whose URL carries none
   * (compose's Redis requires one).
   */
  password?: string;
}

interface Shared {
  link: Promise<RedisLink>;
  handles: number;
}

export function createRedisPool(deps: RedisPoolDeps): RedisPool {
  const logger = deps.logger.child({ area: 'redis' });
  const connect =
    deps.connect ??
    (async (url: string) => {
      const { createRedisLink } = await import('./link.ts');
      return createRedisLink({ url, logger });
    });
  const links = new Map<string, Shared>();

  function forget(url: string, shared: Shared): void {
    if (links.get(url) === shared) links.delete(url);
  }

  async function release(url: string, shared: Shared): Promise<void> {
    shared.handles -= 1;
    if (shared.handles > 0) return;
    forget(url, shared);
    await (await shared.link).close();
  }

  return {
    async open(url) {
      let shared = links.get(url);
      if (shared === undefined) {
        shared = { link: connect(redisUrlWithPassword(url, deps.password ?? '')), handles: 0 };
        links.set(url, shared);
      }
      shared.handles += 1;
      let link: RedisLink;
      try {
        link = await shared.link;
      } catch (error) {
        shared.handles -= 1;
        forget(url, shared);
        throw error;
      }
      const opened = shared;
      return handleOn(link, () => release(url, opened));
    },
  };
}

/** The link as one part sees it: closing the handle stops its callbacks and returns it. */
function handleOn(link: RedisLink, release: () => Promise<void>): RedisLink {
  let closed = false;
  return {
    client: link.client,
    subscriber: link.subscriber,
    ready: () => !closed && link.ready(),
    onSubscriberReady(fn) {
      link.onSubscriberReady(() => {
        if (!closed) fn();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await release();
    },
  };
}
