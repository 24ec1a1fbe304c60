/**
 * The behaviour every `PendingApprovalBoard` adapter must show, as a vitest suite. An adapter's
 * test calls `runApprovalBoardConformance(name, createHarness, options)`. A harness opens boards
 * for named gateways; boards of one harness share their state when the adapter can (Redis), and
 * tests about peers are skipped, with the reason, for one that cannot (in-process). A test an
 * adapter cannot pass is skipped only with a stated reason.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../ports.ts';
import type { PendingApprovalBoard, Verdict } from './ports.ts';

export interface BoardHarness {
  /** A new board for gateway `owner`, on the harness's (initially empty) shared state. */
  open(owner: string): Promise<PendingApprovalBoard>;
  /**
   * Makes gateway `owner` look dead to its peers as a crash would: it stops saying it is alive
   * and its liveness is gone at once, while its board stays open. A no-op for an adapter without
   * peers (its board dies with its process).
   */
  lapse(owner: string): Promise<void>;
  /** Closes every board it opened and forgets the state. */
  close(): Promise<void>;
}

export interface BoardConformanceOptions {
  /** Tests this adapter cannot pass, each group with the reason (shown in the test name). */
  skip?: { reason: string; tests: string[] }[];
  /** The kind the board must report. */
  kind: string;
  /** How long a gateway's liveness lasts unrefreshed in this harness (tests wait past it). */
  livenessTtlMs?: number;
}

let sequence = 0;

/** A pending approval with the spec's fields; the id is unique. */
export function makeApproval(overrides: Partial<PendingApproval> = {}): PendingApproval {
  sequence += 1;
  const command = overrides.command ?? `echo ${sequence}`;
  return {
    id:
      overrides.id ??
      `0000${sequence.toString(16).padStart(4, '0')}-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    tool_name: 'shell',
    command,
    arguments: { command, timeout: 60, workdir: '/work' },
    session_id: 'ada',
    created_at: 1_750_000_000 + sequence,
    ...overrides,
  };
}

const TTL = 60_000;

/** Collects the verdicts a board hands to its handler, and waits for the next ones. */
function verdicts(board: PendingApprovalBoard) {
  const seen: Verdict[] = [];
  board.onVerdict((verdict) => seen.push(verdict));
  return {
    seen,
    async until(count: number): Promise<Verdict[]> {
      await expect.poll(() => seen.length, { timeout: 2_000, interval: 5 }).toBe(count);
      return seen;
    },
  };
}

const PEERS = [
  'an approval published on one gateway is listed and claimed on another',
  'a verdict delivered by a peer reaches the owner only',
  'concurrent claims on two gateways: exactly one wins',
  "a running owner's approvals stay listed and claimable on peers past the liveness TTL",
  'approvals of a gateway that died are not listed on peers; a claim finds nothing and removes them',
];

export function runApprovalBoardConformance(
  name: string,
  createHarness: () => Promise<BoardHarness>,
  options: BoardConformanceOptions,
): void {
  const skipped = new Map<string, string>();
  for (const group of options.skip ?? []) {
    for (const test of group.tests) skipped.set(test, group.reason);
  }
  const test = (title: string, body: () => Promise<void>) => {
    const reason = skipped.get(title);
    if (reason !== undefined) it.skip(`${title} (skipped: ${reason})`, body);
    else it(title, body);
  };

  describe(`approval board conformance: ${name}`, () => {
    let harness: BoardHarness;
    let board: PendingApprovalBoard;
    beforeEach(async () => {
      harness = await createHarness();
      board = await harness.open('gw-a');
    });
    afterEach(() => harness.close());

    test('reports its kind and answers ping', async () => {
      expect(board.kind).toBe(options.kind);
      expect(await board.ping()).toBe(true);
    });

    test('lists a published approval with exactly its spec fields', async () => {
      const approval = makeApproval({ session_id: 'telegram-42', command: 'rm -rf build' });
      await board.publish(approval, TTL);
      expect(await board.list()).toStrictEqual([approval]);
    });

    test('carries the untrusted sources of a tainted turn unchanged', async () => {
      const approval = makeApproval({
        untrusted_sources: [
          { kind: 'browser', name: 'https://evil.example/', excerpt: 'run the echo' },
          { kind: 'mcp', name: 'gh__issues', excerpt: 'issue 1' },
        ],
      });
      await board.publish(approval, TTL);
      expect(await board.list()).toStrictEqual([approval]);
      expect(await board.claim(approval.id, 'denied')).toStrictEqual({ approval, owner: 'gw-a' });
    });

    test('lists oldest first by created_at, whatever the publication order', async () => {
      const newer = makeApproval({ created_at: 1_750_000_300 });
      const older = makeApproval({ created_at: 1_750_000_100 });
      const middle = makeApproval({ created_at: 1_750_000_200 });
      for (const approval of [newer, older, middle]) await board.publish(approval, TTL);
      expect((await board.list()).map((a) => a.id)).toEqual([older.id, middle.id, newer.id]);
    });

    test('a claim takes the approval off the board, once, and says who owns it', async () => {
      const approval = makeApproval();
      await board.publish(approval, TTL);
      expect(await board.claim(approval.id, 'approved')).toStrictEqual({
        approval,
        owner: 'gw-a',
      });
      expect(await board.list()).toEqual([]);
      expect(await board.claim(approval.id, 'denied')).toBeUndefined();
      expect(await board.claim('ffffffff-0000-4000-8000-000000000000', 'denied')).toBeUndefined();
    });

    test('of many concurrent claims exactly one wins', async () => {
      const approval = makeApproval();
      await board.publish(approval, TTL);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          board.claim(approval.id, i % 2 ? 'approved' : 'denied'),
        ),
      );
      expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    });

    test('records the winning decision; other claims do not change it', async () => {
      const approval = makeApproval();
      await board.publish(approval, TTL);
      expect(await board.decisionOf(approval.id)).toBeUndefined();
      await board.claim(approval.id, 'approved');
      await board.claim(approval.id, 'denied');
      expect(await board.decisionOf(approval.id)).toBe('approved');
      expect(await board.decisionOf('ffffffff-0000-4000-8000-000000000000')).toBeUndefined();
    });

    test('an approval past its TTL is neither listed nor claimable (real time)', async () => {
      const short = makeApproval();
      const long = makeApproval();
      await board.publish(short, 150);
      await board.publish(long, TTL);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await board.list()).map((a) => a.id)).toEqual([long.id]);
      expect(await board.claim(short.id, 'approved')).toBeUndefined();
    });

    test('a verdict delivered to its own owner reaches its handler', async () => {
      const received = verdicts(board);
      const approval = makeApproval();
      await board.publish(approval, TTL);
      expect(await board.claim(approval.id, 'denied')).toBeDefined();
      const verdict: Verdict = { id: approval.id, decision: 'denied', always_allowed: false };
      await board.deliver('gw-a', verdict);
      expect(await received.until(1)).toEqual([verdict]);
    });

    test(PEERS[0]!, async () => {
      const peer = await harness.open('gw-b');
      const approval = makeApproval();
      await board.publish(approval, TTL);
      expect(await peer.list()).toStrictEqual([approval]);
      expect(await peer.claim(approval.id, 'denied')).toStrictEqual({ approval, owner: 'gw-a' });
      expect(await board.list()).toEqual([]);
      expect(await board.decisionOf(approval.id)).toBe('denied');
      expect(await board.claim(approval.id, 'denied')).toBeUndefined();
    });

    test(PEERS[1]!, async () => {
      const peer = await harness.open('gw-b');
      const atOwner = verdicts(board);
      const atPeer = verdicts(peer);
      // A verdict follows a claim (the decision it carries is the one the claim recorded).
      const approval = makeApproval();
      await board.publish(approval, TTL);
      expect(await peer.claim(approval.id, 'approved')).toBeDefined();
      const verdict: Verdict = { id: approval.id, decision: 'approved', always_allowed: true };
      await peer.deliver('gw-a', verdict);
      expect(await atOwner.until(1)).toEqual([verdict]);
      expect(atPeer.seen).toEqual([]);
    });

    test(PEERS[2]!, async () => {
      const peer = await harness.open('gw-b');
      const approval = makeApproval();
      await board.publish(approval, TTL);
      const results = await Promise.all([
        board.claim(approval.id, 'denied'),
        peer.claim(approval.id, 'approved'),
        board.claim(approval.id, 'denied'),
        peer.claim(approval.id, 'approved'),
      ]);
      expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    });

    const pastLiveness = () =>
      new Promise((resolve) => setTimeout(resolve, 2 * (options.livenessTtlMs ?? 0) + 100));

    test('an owner that keeps running keeps its approvals past the liveness TTL', async () => {
      const approval = makeApproval();
      await board.publish(approval, TTL);
      await pastLiveness();
      expect(await board.list()).toStrictEqual([approval]);
      expect(await board.claim(approval.id, 'approved')).toMatchObject({ owner: 'gw-a' });
    });

    test('an owner lists and claims its own approvals even when its liveness lapsed', async () => {
      const approval = makeApproval();
      await board.publish(approval, TTL);
      await harness.lapse('gw-a');
      expect(await board.list()).toStrictEqual([approval]);
      expect(await board.claim(approval.id, 'denied')).toMatchObject({ owner: 'gw-a' });
      expect(await board.decisionOf(approval.id)).toBe('denied');
    });

    test(PEERS[3]!, async () => {
      const peer = await harness.open('gw-b');
      const approval = makeApproval();
      await board.publish(approval, TTL);
      await pastLiveness();
      expect(await peer.list()).toStrictEqual([approval]);
      expect(await peer.claim(approval.id, 'approved')).toStrictEqual({ approval, owner: 'gw-a' });
    });

    test(PEERS[4]!, async () => {
      const peer = await harness.open('gw-b');
      const orphan = makeApproval({ created_at: 1_750_000_001 });
      const live = makeApproval({ created_at: 1_750_000_002 });
      await board.publish(orphan, TTL);
      await peer.publish(live, TTL);
      await harness.lapse('gw-a');
      const third = await harness.open('gw-c');
      expect(await peer.list()).toStrictEqual([live]);
      expect(await third.list()).toStrictEqual([live]);
      expect(await peer.claim(orphan.id, 'approved')).toBeUndefined();
      expect(await peer.decisionOf(orphan.id)).toBeUndefined();
      // Removed, not only hidden: not even its owner finds it any more.
      expect(await board.list()).toStrictEqual([live]);
      expect(await board.claim(orphan.id, 'denied')).toBeUndefined();
      expect(await third.claim(live.id, 'denied')).toStrictEqual({ approval: live, owner: 'gw-b' });
    });
  });
}

/** The peer tests, for adapters that have no peers (a skip group's `tests`). */
export const PEER_TESTS = PEERS;
