import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import { createGatewayPresence, type GatewayPresence } from '../../scale-out/presence.ts';
import { createRedisLink, type RedisLink } from '../../redis/link.ts';
import {
  deleteKeys,
  redisServerProcess,
  requireRedis,
  testRedisUrl,
} from '../../memory/short-term/testing/redis-server.ts';
import { makeApproval, runApprovalBoardConformance } from './conformance.ts';
import { createInProcessApprovalBoard } from './in-process.ts';
import type { PendingApprovalBoard, Verdict } from './ports.ts';
import { createRedisApprovalBoard, type RedisApprovalBoard } from './redis.ts';
import { createResilientApprovalBoard } from './resilient.ts';

// The services project needs a real Redis; an unreachable server fails this file loudly.
const url = testRedisUrl(process.env);
const runPrefix = `hearth:ap:test-${randomBytes(6).toString('hex')}:`;
let harnesses = 0;

beforeAll(async () => {
  await requireRedis(url);
});

afterAll(async () => {
  await deleteKeys(url, runPrefix);
});

/** How long a test gateway's presence lasts unrefreshed (refreshed every third of it). */
const LIVENESS_MS = 300;

/** Boards of separate "gateways": each with its own connections and presence, on one prefix. */
function boards(redisUrl: string, keyPrefix: string) {
  const opened = new Map<
    string,
    { board: RedisApprovalBoard; presence: GatewayPresence; link: RedisLink }
  >();
  return {
    async open(owner: string): Promise<RedisApprovalBoard> {
      const link = await createRedisLink({ url: redisUrl, logger: silentLogger() });
      const presence = await createGatewayPresence({
        link,
        gatewayId: owner,
        logger: silentLogger(),
        keyPrefix: `${keyPrefix}alive:`,
        ttlMs: LIVENESS_MS,
        refreshMs: LIVENESS_MS / 3,
      });
      const board = await createRedisApprovalBoard({
        link,
        owner,
        presence,
        logger: silentLogger(),
        keyPrefix,
      });
      opened.set(owner, { board, presence, link });
      return board;
    },
    /** A crash, as peers see it: the presence timer stops and the key is gone. */
    async lapse(owner: string): Promise<void> {
      await opened.get(owner)?.presence.close();
    },
    async close(): Promise<void> {
      for (const { board, presence, link } of opened.values()) {
        await board.close();
        await presence.close();
        await link.close();
      }
      opened.clear();
    },
  };
}

runApprovalBoardConformance(
  'redis',
  () => Promise.resolve(boards(url, `${runPrefix}${(harnesses += 1)}:`)),
  { kind: 'redis', livenessTtlMs: LIVENESS_MS },
);

describe('redis board specifics', () => {
  it('restore: republishes an approval Redis lost, but not one a peer decided', async () => {
    const keyPrefix = `${runPrefix}restore:`;
    const gateways = boards(url, keyPrefix);
    try {
      const owner = await gateways.open('gw-a');
      const peer = await gateways.open('gw-b');
      const lost = makeApproval();
      const decided = makeApproval();
      await owner.publish(lost, 60_000);
      await owner.publish(decided, 60_000);
      await deleteKeys(url, `${keyPrefix}e:${lost.id}`);
      expect((await peer.list()).map((a) => a.id)).toEqual([decided.id]);
      await peer.claim(decided.id, 'approved');

      expect(await owner.restore(lost, 60_000)).toBeUndefined();
      expect(await owner.restore(decided, 60_000)).toBe('approved');
      expect((await peer.list()).map((a) => a.id)).toEqual([lost.id]);
      expect(await peer.claim(lost.id, 'denied')).toMatchObject({ owner: 'gw-a' });
    } finally {
      await gateways.close();
    }
  });

  it('an owner only cut off comes back: restore puts back what a peer dropped as orphaned', async () => {
    const gateways = boards(url, `${runPrefix}cut-off:`);
    try {
      const owner = await gateways.open('gw-a');
      const peer = await gateways.open('gw-b');
      const approval = makeApproval();
      await owner.publish(approval, 60_000);
      await gateways.lapse('gw-a');
      expect(await peer.list()).toEqual([]);
      expect(await peer.claim(approval.id, 'approved')).toBeUndefined();

      // Its restore (after a reconnect) says it is alive again and publishes the approval.
      expect(await owner.restore(approval, 60_000)).toBeUndefined();
      expect(await peer.list()).toStrictEqual([approval]);
      expect(await peer.claim(approval.id, 'approved')).toMatchObject({ owner: 'gw-a' });
    } finally {
      await gateways.close();
    }
  });

  it('skips unreadable entries and ids whose entry is gone', async () => {
    const keyPrefix = `${runPrefix}junk:`;
    const gateways = boards(url, keyPrefix);
    try {
      const board = await gateways.open('gw-a');
      const good = makeApproval();
      const gone = makeApproval();
      await board.publish(good, 60_000);
      await board.publish(gone, 60_000);
      await deleteKeys(url, `${keyPrefix}e:${gone.id}`);
      expect(await board.list()).toEqual([good]);
    } finally {
      await gateways.close();
    }
  });
});

describe('resilient board over a Redis that dies and comes back', () => {
  it('keeps local approvals decidable in process, then restores them to Redis for peers', async () => {
    const redis = await redisServerProcess();
    await redis.start();
    const gateways = boards(redis.url, 'hearth:ap:');
    const boardsToClose: PendingApprovalBoard[] = [];
    try {
      const fallback = createInProcessApprovalBoard({ owner: 'gw-a' });
      const board = await createResilientApprovalBoard({
        primary: await gateways.open('gw-a'),
        fallback,
        logger: silentLogger(),
        probeIntervalMs: 100,
      });
      boardsToClose.push(board);
      const seen: Verdict[] = [];
      board.onVerdict((verdict) => seen.push(verdict));
      const peer = await gateways.open('gw-b');
      expect(board.kind).toBe('redis');

      const before = makeApproval();
      await board.publish(before, 60_000);
      expect(await peer.list()).toEqual([before]);

      await redis.kill();
      const during = makeApproval();
      const decidedDuring = makeApproval();
      await board.publish(during, 60_000);
      await board.publish(decidedDuring, 60_000);
      expect(board.kind).toBe('in-process (redis unreachable)');
      expect((await board.list()).map((a) => a.id)).toEqual([
        before.id,
        during.id,
        decidedDuring.id,
      ]);
      expect(await board.claim(decidedDuring.id, 'denied')).toMatchObject({ owner: 'gw-a' });

      // The restarted Redis is empty: what is still pending here is published again.
      await redis.start();
      await expect.poll(() => board.kind, { timeout: 10_000, interval: 50 }).toBe('redis');
      await expect
        .poll(async () => (await peer.list().catch(() => [])).map((a) => a.id), {
          timeout: 10_000,
          interval: 50,
        })
        .toEqual([before.id, during.id]);

      // A peer decides one: the verdict reaches this gateway through Redis again.
      const claimed = await peer.claim(during.id, 'approved');
      expect(claimed?.owner).toBe('gw-a');
      await peer.deliver('gw-a', { id: during.id, decision: 'approved', always_allowed: false });
      await expect.poll(() => seen.map((v) => v.id), { timeout: 5_000 }).toContain(during.id);
      expect((await board.list()).map((a) => a.id)).toEqual([before.id]);
      expect(fallback.entries().map((e) => e.approval.id)).toEqual([before.id]);
    } finally {
      for (const board of boardsToClose) await board.close();
      await gateways.close();
      await redis.kill();
    }
  });
});
