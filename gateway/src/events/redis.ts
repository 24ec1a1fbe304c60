/**
 * Session frames across gateways over Redis pub/sub: one channel per session
 * (`<prefix>s:<session>`), to which a gateway subscribes while it has sockets of that session.
 * A frame is delivered to the local sockets at once and published; every other gateway with
 * sockets of the session delivers it to its own. PUBLISH answers how many gateways listen, so
 * `send` knows whether anybody got the frame. While Redis is unreachable frames reach the local
 * sockets only (kind `in-process (redis unreachable)`), and subscriptions are made again once
 * the pub/sub connection is back.
 */
import type { Logger } from '../observability/logger.ts';
import type { RedisLink } from '../scale-out/redis-link.ts';
import type { LocalSessionSockets, SessionEvents } from './ports.ts';

export interface RedisSessionEventsOptions {
  link: RedisLink;
  sockets: LocalSessionSockets;
  /** This gateway's id: it skips its own frames coming back from Redis. */
  gatewayId: string;
  logger: Logger;
  /** Prefix of every channel; default `hearth:ev:`. */
  keyPrefix?: string;
}

interface Envelope {
  from: string;
  session: string;
  frame: string;
}

function parseEnvelope(message: string): Envelope | undefined {
  try {
    const value = JSON.parse(message) as Partial<Record<keyof Envelope, unknown>>;
    if (
      typeof value.from === 'string' &&
      typeof value.session === 'string' &&
      typeof value.frame === 'string'
    ) {
      return { from: value.from, session: value.session, frame: value.frame };
    }
  } catch {
    // fall through
  }
  return undefined;
}

export function createRedisSessionEvents(options: RedisSessionEventsOptions): SessionEvents {
  const { link, sockets, gatewayId, logger } = options;
  const prefix = options.keyPrefix ?? 'hearth:ev:';
  const channel = (sessionId: string) => `${prefix}s:${sessionId}`;
  /** Sessions whose channel this gateway is subscribed to (it then counts in PUBLISH). */
  const subscribed = new Set<string>();
  let closed = false;

  const listener = (message: string): void => {
    const envelope = parseEnvelope(message);
    if (!envelope) return void logger.debug('skipped an unreadable session event');
    if (envelope.from !== gatewayId) sockets.deliver(envelope.session, envelope.frame);
  };

  function follow(sessionId: string): void {
    if (closed) return;
    link.subscriber
      .subscribe(channel(sessionId), listener)
      .then(() => {
        if (sockets.has(sessionId)) subscribed.add(sessionId);
        else unfollow(sessionId);
      })
      .catch((error: unknown) => {
        logger.debug({ sessionId, err: String(error) }, 'session channel not subscribed yet');
      });
  }

  function unfollow(sessionId: string): void {
    if (sockets.has(sessionId)) return;
    subscribed.delete(sessionId);
    if (!link.subscriber.isReady) return;
    link.subscriber.unsubscribe(channel(sessionId), listener).catch(() => undefined);
  }

  const unwatch = sockets.watch((sessionId, present) => {
    if (present) follow(sessionId);
    else unfollow(sessionId);
  });
  const followAll = () => {
    for (const sessionId of sockets.sessions()) follow(sessionId);
  };
  link.onSubscriberReady(followAll);
  if (link.subscriber.isReady) followAll();

  return {
    get kind() {
      return link.ready() ? 'redis' : 'in-process (redis unreachable)';
    },

    async send(sessionId, frame) {
      const delivered = sockets.deliver(sessionId, frame);
      let elsewhere = 0;
      try {
        const envelope: Envelope = { from: gatewayId, session: sessionId, frame };
        const listening = await link.client.publish(channel(sessionId), JSON.stringify(envelope));
        elsewhere = listening - (subscribed.has(sessionId) ? 1 : 0);
      } catch (error) {
        logger.debug({ sessionId, err: String(error) }, 'session frame not published');
      }
      return delivered > 0 || elsewhere > 0;
    },

    close() {
      closed = true;
      unwatch();
      return Promise.resolve();
    },
  };
}
