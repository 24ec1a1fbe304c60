/**
 * Session frames across gateways over Redis pub/sub: one channel per session
 * (`<prefix>s:<session>`), to which a gateway subscribes while it has sockets of that session.
 * A frame is delivered to the local sockets at once and published; every other gateway with
 * sockets of the session delivers it to its own. PUBLISH answers how many gateways listen, so
 * `send` knows whether anybody got the frame. While Redis is unreachable frames reach the local
 * sockets only (kind `in-process (redis unreachable)`); once the pub/sub connection is back,
 * the sessions with sockets here are followed and those that lost them meanwhile are left.
 *
 * Clearing a session (DELETE /sessions/{id}) goes on one channel every gateway follows
 * (`<prefix>clear`), since a peer may hold the session in memory without sockets: each one
 * removes it from memory and closes its sockets there. A peer that misses it (Redis down) keeps
 * the session until its idle timeout.
 *
 * Every message is sealed with the cluster secret (../bus-seal.ts) for the channel it travels
 * on: a frame or clear that some other Redis client published, changed or replayed is dropped
 * (counted and logged), never delivered.
 */
import type { Logger } from '../../observability/logger.ts';
import type { RedisLink } from '../../redis/link.ts';
import type { BusSeal } from '../bus-seal.ts';
import type { LocalSessionSockets, SessionEvents } from './ports.ts';

export interface RedisSessionEventsOptions {
  link: RedisLink;
  sockets: LocalSessionSockets;
  /** This gateway's id: it skips its own frames coming back from Redis. */
  gatewayId: string;
  /** Seals what this gateway publishes and opens what it receives. */
  seal: BusSeal;
  logger: Logger;
  /** Prefix of every channel; default `hearth:ev:`. */
  keyPrefix?: string;
}

interface Envelope {
  from: string;
  session: string;
  frame: string;
}

/** A session to clear, on the `clear` channel. */
type ClearEnvelope = Omit<Envelope, 'frame'>;

function parseClearEnvelope(message: string): ClearEnvelope | undefined {
  try {
    const value = JSON.parse(message) as Partial<Record<keyof ClearEnvelope, unknown>>;
    if (typeof value.from === 'string' && typeof value.session === 'string') {
      return { from: value.from, session: value.session };
    }
  } catch {
    // fall through
  }
  return undefined;
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
  const { link, sockets, gatewayId, seal, logger } = options;
  const prefix = options.keyPrefix ?? 'hearth:ev:';
  const channel = (sessionId: string) => `${prefix}s:${sessionId}`;
  const clearChannel = `${prefix}clear`;
  /** Sessions whose channel this gateway is subscribed to (it then counts in PUBLISH). */
  const subscribed = new Set<string>();
  /**
   * Sessions whose last socket left while the pub/sub connection was down: node-redis
   * resubscribes their channels when it is back, so they are left then.
   */
  const stale = new Set<string>();
  let closed = false;

  const listener = (message: string, from: string): void => {
    const opened = seal.open(from, message);
    if (opened === undefined) return;
    const envelope = parseEnvelope(opened);
    if (!envelope || channel(envelope.session) !== from)
      return void logger.debug('skipped an unreadable session event');
    if (envelope.from !== gatewayId) sockets.deliver(envelope.session, envelope.frame);
  };

  const clearListener = (message: string): void => {
    const opened = seal.open(clearChannel, message);
    if (opened === undefined) return;
    const envelope = parseClearEnvelope(opened);
    if (!envelope) return void logger.debug('skipped an unreadable session clear');
    if (envelope.from !== gatewayId) sockets.clear(envelope.session);
  };

  /** Follows the clear channel for as long as this runs (node-redis resubscribes it). */
  function followClears(): void {
    if (closed) return;
    link.subscriber
      .subscribe(clearChannel, clearListener)
      .then(() => {
        if (closed)
          void link.subscriber.unsubscribe(clearChannel, clearListener).catch(() => undefined);
      })
      .catch((error: unknown) => {
        logger.debug({ err: String(error) }, 'clear channel not subscribed yet');
      });
  }

  function leave(sessionId: string): Promise<void> {
    return link.subscriber.unsubscribe(channel(sessionId), listener).catch(() => undefined);
  }

  function follow(sessionId: string): void {
    if (closed) return;
    stale.delete(sessionId);
    link.subscriber
      .subscribe(channel(sessionId), listener)
      .then(() => {
        if (closed) return void leave(sessionId);
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
    if (link.subscriber.isReady) void leave(sessionId);
    else stale.add(sessionId);
  }

  const unwatch = sockets.watch((sessionId, present) => {
    if (present) follow(sessionId);
    else unfollow(sessionId);
  });
  /** The pub/sub connection is (back) up: follow who has sockets here, leave who has not. */
  const resync = () => {
    followClears();
    for (const sessionId of [...stale]) {
      stale.delete(sessionId);
      if (!sockets.has(sessionId)) void leave(sessionId);
    }
    for (const sessionId of sockets.sessions()) follow(sessionId);
  };
  link.onSubscriberReady(resync);
  if (link.subscriber.isReady) resync();

  return {
    get kind() {
      return link.ready() ? 'redis' : 'in-process (redis unreachable)';
    },

    async send(sessionId, frame) {
      const delivered = sockets.deliver(sessionId, frame);
      let elsewhere = 0;
      try {
        const envelope: Envelope = { from: gatewayId, session: sessionId, frame };
        const to = channel(sessionId);
        const listening = await link.client.publish(to, seal.seal(to, JSON.stringify(envelope)));
        elsewhere = listening - (subscribed.has(sessionId) ? 1 : 0);
      } catch (error) {
        logger.debug({ sessionId, err: String(error) }, 'session frame not published');
      }
      return delivered > 0 || elsewhere > 0;
    },

    async clear(sessionId) {
      const here = sockets.clear(sessionId);
      try {
        const envelope: ClearEnvelope = { from: gatewayId, session: sessionId };
        await link.client.publish(clearChannel, seal.seal(clearChannel, JSON.stringify(envelope)));
      } catch (error) {
        logger.debug({ sessionId, err: String(error) }, 'session clear not published');
      }
      return here;
    },

    /** Stops following sessions and leaves their channels (while Redis answers). */
    async close() {
      if (closed) return;
      closed = true;
      unwatch();
      const followed = [...subscribed, ...stale];
      subscribed.clear();
      stale.clear();
      if (!link.subscriber.isReady) return;
      await Promise.all(followed.map(leave));
      await link.subscriber.unsubscribe(clearChannel, clearListener).catch(() => undefined);
    },
  };
}
