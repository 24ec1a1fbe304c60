/**
 * Session frames across two gateways ("hubs") on one real Redis: each hub has its own
 * connections and its own conversation store, as two gateway processes would.
 */
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createConversationStore,
  type ConversationStore,
  type SessionConnection,
} from '../../sessions/conversations.ts';
import {
  deleteKeys,
  redisServerProcess,
  requireRedis,
  testRedisUrl,
} from '../../memory/short-term/testing/redis-server.ts';
import { silentLogger } from '../../observability/logger.ts';
import { createRedisLink, type RedisLink } from '../../redis/link.ts';
import { conversationSockets } from '../../sessions/local-sockets.ts';
import type { SessionEvents } from './ports.ts';
import { testSeal } from '../testing/test-seal.ts';
import { createRedisSessionEvents } from './redis.ts';

// The services project needs a real Redis; an unreachable server fails this file loudly.
const url = testRedisUrl(process.env);
const keyPrefix = `hearth:ev:test-${randomBytes(6).toString('hex')}:`;
const channel = (sessionId: string) => `${keyPrefix}s:${sessionId}`;

interface Hub {
  events: SessionEvents;
  conversations: ConversationStore;
  link: RedisLink;
  /** A socket of `sessionId` on this hub. */
  join(sessionId: string): SessionConnection & { frames: string[]; closed: [number, string][] };
  leave(sessionId: string, socket: SessionConnection): void;
  close(): Promise<void>;
}

const hubs: Hub[] = [];
const newObserver = (redisUrl: string) =>
  createClient({ url: redisUrl, socket: { reconnectStrategy: 100 } });
type Observer = ReturnType<typeof newObserver>;
const observers: Observer[] = [];

async function hub(gatewayId: string, redisUrl = url): Promise<Hub> {
  const link = await createRedisLink({ url: redisUrl, logger: silentLogger() });
  const conversations = createConversationStore({ idleTimeoutMs: 60_000, now: Date.now });
  const events = createRedisSessionEvents({
    link,
    sockets: conversationSockets(conversations),
    gatewayId,
    seal: testSeal(),
    logger: silentLogger(),
    keyPrefix,
  });
  let closed = false;
  const opened: Hub = {
    events,
    conversations,
    link,
    join(sessionId) {
      const frames: string[] = [];
      const closed: [number, string][] = [];
      const socket = {
        frames,
        closed,
        send: (data: string) => frames.push(data),
        close: (code: number, reason: string) => closed.push([code, reason]),
      };
      conversations.get(sessionId).connections.add(socket);
      return socket;
    },
    leave(sessionId, socket) {
      conversations.get(sessionId).connections.delete(socket);
    },
    async close() {
      if (closed) return;
      closed = true;
      await events.close();
      conversations.close();
      await link.close();
    },
  };
  hubs.push(opened);
  return opened;
}

async function observer(redisUrl = url) {
  const client = newObserver(redisUrl);
  client.on('error', () => undefined);
  await client.connect();
  observers.push(client);
  return client;
}

/** How many connections listen on the session's channel (each hub counts once). */
async function listeners(client: Observer, sessionId: string) {
  const counts = await client.pubSubNumSub(channel(sessionId));
  return Number(counts[channel(sessionId)] ?? 0);
}

const poll = { timeout: 10_000, interval: 20 };

beforeAll(async () => {
  await requireRedis(url);
});

afterEach(async () => {
  for (const opened of hubs.splice(0)) await opened.close();
  for (const client of observers.splice(0)) client.destroy();
});

afterAll(async () => {
  await deleteKeys(url, keyPrefix);
});

describe('session events over Redis, two gateways', () => {
  it('a frame sent for a session reaches its sockets on both gateways, once each', async () => {
    const [a, b, redis] = [await hub('gw-a'), await hub('gw-b'), await observer()];
    expect(a.events.kind).toBe('redis');
    const onA = a.join('ada');
    const [onB1, onB2] = [b.join('ada'), b.join('ada')];
    const elsewhere = b.join('eve');
    await expect.poll(() => listeners(redis, 'ada'), poll).toBe(2);

    expect(await a.events.send('ada', '{"type":"approval_request"}')).toBe(true);
    await expect.poll(() => onB1.frames, poll).toEqual(['{"type":"approval_request"}']);
    expect(onB2.frames).toEqual(['{"type":"approval_request"}']);
    // Its own frame coming back from Redis is not delivered twice.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(onA.frames).toEqual(['{"type":"approval_request"}']);
    expect(elsewhere.frames).toEqual([]);
  });

  it("a gateway without sockets of the session delivers to a peer's and says so", async () => {
    const [a, b, redis] = [await hub('gw-a'), await hub('gw-b'), await observer()];
    const onB = b.join('bob');
    await expect.poll(() => listeners(redis, 'bob'), poll).toBe(1);
    expect(await a.events.send('bob', 'hello')).toBe(true);
    await expect.poll(() => onB.frames, poll).toEqual(['hello']);
  });

  it('a session with no sockets on any gateway is reported not delivered', async () => {
    const [a, b] = [await hub('gw-a'), await hub('gw-b')];
    b.join('someone-else');
    expect(await a.events.send('nobody', 'hello')).toBe(false);
    expect(await b.events.send('nobody', 'hello')).toBe(false);
  });

  it("unsubscribes when a session's last socket leaves; it is then not delivered", async () => {
    const [a, b, redis] = [await hub('gw-a'), await hub('gw-b'), await observer()];
    const [one, two] = [b.join('carl'), b.join('carl')];
    await expect.poll(() => listeners(redis, 'carl'), poll).toBe(1);
    b.leave('carl', one);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await listeners(redis, 'carl')).toBe(1);
    b.leave('carl', two);
    await expect.poll(() => listeners(redis, 'carl'), poll).toBe(0);
    expect(await a.events.send('carl', 'hello')).toBe(false);
    expect([...one.frames, ...two.frames]).toEqual([]);
  });

  it('follows the sessions that already had sockets when it was created', async () => {
    const redis = await observer();
    const conversations = createConversationStore({ idleTimeoutMs: 60_000, now: Date.now });
    const frames: string[] = [];
    conversations
      .get('dana')
      .connections.add({ send: (data) => frames.push(data), close: () => undefined });
    const link = await createRedisLink({ url, logger: silentLogger() });
    const events = createRedisSessionEvents({
      link,
      sockets: conversationSockets(conversations),
      gatewayId: 'gw-late',
      seal: testSeal(),
      logger: silentLogger(),
      keyPrefix,
    });
    try {
      await expect.poll(() => listeners(redis, 'dana'), poll).toBe(1);
      const a = await hub('gw-a');
      expect(await a.events.send('dana', 'hello')).toBe(true);
      await expect.poll(() => frames, poll).toEqual(['hello']);
    } finally {
      await events.close();
      conversations.close();
      await link.close();
    }
  });

  it('skips a message on a session channel that is not a frame envelope', async () => {
    const [a, b, redis] = [await hub('gw-a'), await hub('gw-b'), await observer()];
    const onB = b.join('erin');
    await expect.poll(() => listeners(redis, 'erin'), poll).toBe(1);
    await redis.publish(channel('erin'), 'not json');
    await redis.publish(channel('erin'), JSON.stringify({ from: 'x', session: 'erin' }));
    expect(await a.events.send('erin', 'real')).toBe(true);
    await expect.poll(() => onB.frames, poll).toEqual(['real']);
  });

  it('close stops following: its channels are left and new sockets are not followed', async () => {
    const [a, b, redis] = [await hub('gw-a'), await hub('gw-b'), await observer()];
    const before = b.join('fay');
    await expect.poll(() => listeners(redis, 'fay'), poll).toBe(1);
    await b.events.close();
    b.join('gus');
    await expect.poll(() => listeners(redis, 'fay'), poll).toBe(0);
    expect(await listeners(redis, 'gus')).toBe(0);
    expect(await a.events.send('fay', 'hello')).toBe(false);
    expect(before.frames).toEqual([]);
  });
});

describe('clearing a session over Redis, two gateways', () => {
  it("closes its sockets and forgets it on the peer too; other sessions' stay", async () => {
    const [a, b, redis] = [await hub('gw-a'), await hub('gw-b'), await observer()];
    const onA = a.join('lou');
    const other = a.join('max');
    a.conversations.get('memory-only');
    b.conversations.get('lou');
    await expect.poll(() => listeners(redis, 'lou'), poll).toBe(1);
    await expect
      .poll(() => redis.pubSubNumSub(`${keyPrefix}clear`), poll)
      .toEqual({
        [`${keyPrefix}clear`]: 2,
      });

    expect(await b.events.clear('lou')).toBe(true);
    expect(b.conversations.peek('lou')).toBeUndefined();
    await expect.poll(() => onA.closed, poll).toEqual([[4000, 'Session cleared']]);
    expect(a.conversations.peek('lou')).toBeUndefined();
    expect(other.closed).toEqual([]);
    expect(a.conversations.peek('max')).toBeDefined();

    // A session only a peer holds in memory, without sockets: forgotten there, false here.
    expect(await b.events.clear('memory-only')).toBe(false);
    await expect.poll(() => a.conversations.peek('memory-only'), poll).toBeUndefined();
  });
});

describe('session events from a writer without the cluster secret', () => {
  it('a forged, wrongly keyed, re-routed or replayed frame or clear reaches no socket', async () => {
    const [a, b, redis] = [await hub('gw-a'), await hub('gw-b'), await observer()];
    const onB = b.join('ned');
    const otherOnB = b.join('ola');
    await expect.poll(() => listeners(redis, 'ned'), poll).toBe(1);
    await expect.poll(() => listeners(redis, 'ola'), poll).toBe(1);
    const tap = await observer();
    const captured: string[] = [];
    await tap.subscribe(channel('ned'), (message) => captured.push(message));

    const frame = (text: string) => JSON.stringify({ from: 'gw-x', session: 'ned', frame: text });
    const stranger = testSeal('not-the-cluster-secret-0123456789abcdef0123');
    await redis.publish(channel('ned'), frame('plain'));
    await redis.publish(channel('ned'), stranger.seal(channel('ned'), frame('wrong key')));
    await redis.publish(`${keyPrefix}clear`, JSON.stringify({ from: 'gw-x', session: 'ned' }));
    await redis.publish(
      `${keyPrefix}clear`,
      stranger.seal(`${keyPrefix}clear`, JSON.stringify({ from: 'gw-x', session: 'ned' })),
    );

    // A genuine frame for ned, captured, replayed on ned and re-routed to ola.
    expect(await a.events.send('ned', 'genuine')).toBe(true);
    await expect.poll(() => onB.frames, poll).toEqual(['genuine']);
    // The tap saw the two forgeries, then the genuine frame.
    await expect.poll(() => captured, poll).toHaveLength(3);
    await redis.publish(channel('ned'), captured[2]!);
    await redis.publish(channel('ola'), captured[2]!);

    expect(await a.events.send('ned', 'after')).toBe(true);
    await expect.poll(() => onB.frames, poll).toEqual(['genuine', 'after']);
    expect(otherOnB.frames).toEqual([]);
    expect(onB.closed).toEqual([]);
    expect(b.conversations.peek('ned')).toBeDefined();
  });
});

describe('session events when Redis drops and comes back', () => {
  it('local sockets still get frames, kind says so; once back, peers get them again', async () => {
    const server = await redisServerProcess();
    await server.start();
    try {
      const [a, b] = [await hub('gw-a', server.url), await hub('gw-b', server.url)];
      const redis = await observer(server.url);
      const onA = a.join('hal');
      const onB = b.join('hal');
      await expect.poll(() => listeners(redis, 'hal'), poll).toBe(2);

      await server.kill();
      await expect.poll(() => a.events.kind, poll).toBe('in-process (redis unreachable)');
      expect(await a.events.send('hal', 'during')).toBe(true);
      expect(onA.frames).toEqual(['during']);
      expect(await a.events.send('nobody', 'during')).toBe(false);

      await server.start();
      await expect.poll(() => [a.events.kind, b.events.kind], poll).toEqual(['redis', 'redis']);
      await expect.poll(() => listeners(redis, 'hal'), poll).toBe(2);
      expect(await a.events.send('hal', 'after')).toBe(true);
      await expect.poll(() => onB.frames, poll).toEqual(['after']);
      expect(onA.frames).toEqual(['during', 'after']);
    } finally {
      for (const opened of hubs.splice(0)) await opened.close();
      for (const client of observers.splice(0)) client.destroy();
      await server.kill();
    }
  });

  it('a session that lost its last socket during the outage is left once Redis is back', async () => {
    const server = await redisServerProcess();
    await server.start();
    try {
      const [a, b] = [await hub('gw-a', server.url), await hub('gw-b', server.url)];
      const redis = await observer(server.url);
      const onB = b.join('kim');
      await expect.poll(() => listeners(redis, 'kim'), poll).toBe(1);

      await server.kill();
      await expect.poll(() => b.events.kind, poll).toBe('in-process (redis unreachable)');
      b.leave('kim', onB);

      await server.start();
      await expect.poll(() => [a.events.kind, b.events.kind], poll).toEqual(['redis', 'redis']);
      await expect.poll(() => listeners(redis, 'kim'), poll).toBe(0);
      expect(await a.events.send('kim', 'hello')).toBe(false);
      expect(onB.frames).toEqual([]);
    } finally {
      for (const opened of hubs.splice(0)) await opened.close();
      for (const client of observers.splice(0)) client.destroy();
      await server.kill();
    }
  });
});
