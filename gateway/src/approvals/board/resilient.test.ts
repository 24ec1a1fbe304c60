import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import { makeApproval } from './conformance.ts';
import { createInProcessApprovalBoard, type InProcessApprovalBoard } from './in-process.ts';
import type { PendingApprovalBoard, Verdict } from './ports.ts';
import { createResilientApprovalBoard, type ResilientBoardOptions } from './resilient.ts';

/**
 * A stand-in for the Redis board: shared state in an in-process board, `restore` like the Lua
 * script, and a switch that makes every call fail like an unreachable Redis.
 */
function fakeRedis() {
  let shared = createInProcessApprovalBoard({ owner: 'gw-a' });
  let down = false;
  let handler: (verdict: Verdict) => void = () => undefined;
  const reconnects: (() => void)[] = [];
  const guard = <T>(work: () => Promise<T>): Promise<T> =>
    down ? Promise.reject(new Error('connection refused (simulated)')) : work();
  const primary: ResilientBoardOptions['primary'] = {
    kind: 'redis',
    publish: (approval, ttl) => guard(() => shared.publish(approval, ttl)),
    list: () => guard(() => shared.list()),
    claim: (id, decision) => guard(() => shared.claim(id, decision)),
    decisionOf: (id) => guard(() => shared.decisionOf(id)),
    deliver: (owner, verdict) => guard(() => shared.deliver(owner, verdict)),
    onVerdict: (next) => {
      handler = next;
      shared.onVerdict(next);
    },
    restore: (approval, ttl) =>
      guard(async () => {
        const decided = await shared.decisionOf(approval.id);
        if (decided === undefined) await shared.publish(approval, ttl);
        return decided;
      }),
    onReconnect: (fn) => reconnects.push(fn),
    ping: () => Promise.resolve(!down),
    close: () => Promise.resolve(),
  };
  return {
    primary,
    /** What peers see. */
    get shared(): InProcessApprovalBoard {
      return shared;
    },
    setDown: (value: boolean) => (down = value),
    /** Redis restarted empty (and the pub/sub connection came back). */
    restartEmpty() {
      shared = createInProcessApprovalBoard({ owner: 'gw-a' });
      shared.onVerdict(handler);
      for (const fn of reconnects) fn();
    },
  };
}

const opened: PendingApprovalBoard[] = [];
afterEach(async () => {
  for (const board of opened.splice(0)) await board.close();
});

async function resilient(redis: ReturnType<typeof fakeRedis>) {
  const fallback = createInProcessApprovalBoard({ owner: 'gw-a' });
  const board = await createResilientApprovalBoard({
    primary: redis.primary,
    fallback,
    logger: silentLogger(),
    probeIntervalMs: 10,
    initialProbeMs: 50,
  });
  opened.push(board);
  const seen: Verdict[] = [];
  board.onVerdict((verdict) => seen.push(verdict));
  return { board, fallback, seen };
}

describe('resilient approval board', () => {
  it('starts in process when Redis does not answer, and says so', async () => {
    const redis = fakeRedis();
    redis.setDown(true);
    const { board } = await resilient(redis);
    expect(board.kind).toBe('in-process (redis unreachable)');
    const approval = makeApproval();
    await board.publish(approval, 60_000);
    expect(await board.list()).toEqual([approval]);
    expect(await board.claim(approval.id, 'approved')).toMatchObject({ owner: 'gw-a' });
    expect(await board.decisionOf(approval.id)).toBe('approved');
  });

  it('never loses a local approval when Redis drops: it is listed and decided in process', async () => {
    const redis = fakeRedis();
    const { board } = await resilient(redis);
    const approval = makeApproval();
    await board.publish(approval, 60_000);
    expect(await redis.shared.list()).toEqual([approval]);
    redis.setDown(true);
    expect(await board.list()).toEqual([approval]);
    expect(board.kind).toBe('in-process (redis unreachable)');
    expect(await board.claim(approval.id, 'denied')).toMatchObject({ approval });
    expect(await board.claim(approval.id, 'denied')).toBeUndefined();
  });

  it('on recovery: republishes what is pending, removes what was decided here meanwhile', async () => {
    const redis = fakeRedis();
    const { board } = await resilient(redis);
    const decidedHere = makeApproval();
    await board.publish(decidedHere, 60_000);
    redis.setDown(true);
    const publishedDuring = makeApproval();
    await board.publish(publishedDuring, 60_000);
    await board.claim(decidedHere.id, 'approved');
    redis.setDown(false);
    await expect.poll(() => board.kind).toBe('redis');
    expect(await redis.shared.list()).toEqual([publishedDuring]);
  });

  it('forgets what it decided during the outage once Redis would have expired it anyway', async () => {
    const redis = fakeRedis();
    let clock = Date.now();
    const now = () => clock;
    const fallback = createInProcessApprovalBoard({ owner: 'gw-a', now });
    const board = await createResilientApprovalBoard({
      primary: redis.primary,
      fallback,
      logger: silentLogger(),
      now,
      probeIntervalMs: 10,
      initialProbeMs: 50,
    });
    opened.push(board);
    const claims: string[] = [];
    const claim = redis.primary.claim.bind(redis.primary);
    redis.primary.claim = (id, decision) => {
      claims.push(id);
      return claim(id, decision);
    };
    redis.setDown(true);
    const shortLived = makeApproval();
    const longLived = makeApproval();
    await board.publish(shortLived, 1_000);
    await board.publish(longLived, 60_000);
    await board.claim(shortLived.id, 'denied');
    await board.claim(longLived.id, 'denied');
    clock += 2_000;
    redis.setDown(false);
    await expect.poll(() => board.kind).toBe('redis');
    expect(claims).toStrictEqual([longLived.id]);
  });

  it('on recovery: hands over a decision a peer made through Redis during the outage', async () => {
    const redis = fakeRedis();
    const { board, fallback, seen } = await resilient(redis);
    const approval = makeApproval();
    await board.publish(approval, 60_000);
    redis.setDown(true);
    await board.list();
    // The peer still reached Redis (a partition) and decided; its message never arrived.
    redis.setDown(false);
    await redis.shared.claim(approval.id, 'approved');
    await expect
      .poll(() => seen)
      .toEqual([{ id: approval.id, decision: 'approved', always_allowed: false }]);
    expect(fallback.entries()).toEqual([]);
  });

  it('a verdict from a peer leaves the mirror and reaches the handler', async () => {
    const redis = fakeRedis();
    const { board, fallback, seen } = await resilient(redis);
    const approval = makeApproval();
    await board.publish(approval, 60_000);
    await redis.shared.claim(approval.id, 'denied');
    await redis.shared.deliver('gw-a', {
      id: approval.id,
      decision: 'denied',
      always_allowed: false,
    });
    expect(seen).toEqual([{ id: approval.id, decision: 'denied', always_allowed: false }]);
    expect(fallback.entries()).toEqual([]);
  });

  it('after Redis restarts empty, the pending approvals of this gateway are published again', async () => {
    const redis = fakeRedis();
    const { board } = await resilient(redis);
    const approval = makeApproval();
    await board.publish(approval, 60_000);
    redis.restartEmpty();
    await expect.poll(() => redis.shared.list()).toEqual([approval]);
    expect(board.kind).toBe('redis');
  });
});
