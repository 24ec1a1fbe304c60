/**
 * The board a gateway with `[memory] cache_url` uses: the Redis board while it answers, the
 * in-process board while it does not (like the short-term tier, memory/short-term/resilient.ts).
 * The first failing call switches with one warning and is served in process; Redis is then
 * probed every `probeIntervalMs` and, once it answers, the boards are reconciled and the Redis
 * one is used again (one info log). No backend error reaches the caller.
 *
 * Nothing pending here is lost across the switches: every approval this gateway publishes is
 * also kept in the in-process board (the mirror) until it is decided, so while degraded it is
 * still listed and decided here. Reconciling (on switching back, and whenever Redis' pub/sub
 * connection comes back) republishes the mirror to Redis unless a peer decided an approval
 * meanwhile (that decision is then handed to the waiting call), and removes from Redis what was
 * decided here during the outage. While degraded, approvals owned by peers cannot be decided
 * here (404), and a peer may still decide one of ours through Redis: the first decision to
 * reach the waiting call wins.
 */
import type { Logger } from '../../observability/logger.ts';
import type { InProcessApprovalBoard } from './in-process.ts';
import type { PendingApprovalBoard, Verdict } from './ports.ts';
import type { RedisApprovalBoard } from './redis.ts';
import { createFailover } from '../../lifecycle/failover.ts';

export interface ResilientBoardOptions {
  primary: Pick<RedisApprovalBoard, keyof PendingApprovalBoard | 'restore' | 'onReconnect'>;
  /** The in-process board: the mirror of what this gateway owns, and the board while degraded. */
  fallback: InProcessApprovalBoard;
  logger: Logger;
  now?: () => number;
  /** How often the primary is probed while degraded; default 5,000 ms. */
  probeIntervalMs?: number;
  /** How long the first probe may take before the board starts degraded; default 1,000 ms. */
  initialProbeMs?: number;
}

const message = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

export async function createResilientApprovalBoard(
  options: ResilientBoardOptions,
): Promise<PendingApprovalBoard> {
  const { primary, fallback, logger } = options;
  const now = options.now ?? Date.now;
  let reconciling: Promise<void> | undefined;
  let handler: ((verdict: Verdict) => void) | undefined;
  /**
   * Approvals decided in process while degraded, with the time their Redis entry expires by
   * itself: removed from Redis on recovery unless that time has passed. Those past it are
   * forgotten as they go, so a long outage keeps no more than the approvals still alive.
   */
  const decidedWhileDown = new Map<string, number>();
  const forgetExpired = (at: number): void => {
    for (const [id, expiresAt] of decidedWhileDown)
      if (expiresAt <= at) decidedWhileDown.delete(id);
  };

  /** A verdict for an approval of ours: it leaves the mirror, then the waiting call gets it. */
  function settle(verdict: Verdict): void {
    void fallback.claim(verdict.id, verdict.decision);
    handler?.(verdict);
  }

  async function reconcileOnce(): Promise<void> {
    forgetExpired(now());
    for (const id of [...decidedWhileDown.keys()]) {
      await primary.claim(id, 'denied');
      decidedWhileDown.delete(id);
    }
    for (const { approval, expiresAt } of fallback.entries()) {
      const decided = await primary.restore(approval, expiresAt - now());
      if (decided) settle({ id: approval.id, decision: decided, always_allowed: false });
    }
  }

  /** One reconciliation at a time; a failure leaves (or puts) the board degraded. */
  function reconcile(): Promise<void> {
    reconciling ??= reconcileOnce().finally(() => {
      reconciling = undefined;
    });
    return reconciling;
  }

  const failover = createFailover({
    logger,
    probeIntervalMs: options.probeIntervalMs,
    recover: async () => {
      if (reconciling) return false;
      if (!(await primary.ping())) return false;
      await reconcile();
      return true;
    },
    log: {
      degraded: {
        msg: 'approval board (redis) unreachable; pending approvals are kept in process until it answers again',
      },
      recovered: { msg: 'approval board (redis) reachable again' },
      stillDown: 'approval board (redis) still unreachable',
    },
  });

  primary.onVerdict(settle);
  fallback.onVerdict((verdict) => handler?.(verdict));
  primary.onReconnect(() => {
    if (failover.usingPrimary) {
      reconcile().catch((error: unknown) => failover.degrade(message(error)));
    }
  });
  await failover.probeAtStart(primary, options.initialProbeMs);

  return {
    get kind() {
      return failover.usingPrimary
        ? primary.kind
        : `${fallback.kind} (${primary.kind} unreachable)`;
    },

    async publish(approval, ttlMs) {
      await fallback.publish(approval, ttlMs);
      await failover.route(
        () => primary.publish(approval, ttlMs),
        () => Promise.resolve(),
      );
    },

    list() {
      return failover.route(
        () => primary.list(),
        () => fallback.list(),
      );
    },

    claim(id, decision) {
      return failover.route(
        async () => {
          const claimed = await primary.claim(id, decision);
          await fallback.claim(id, decision);
          return claimed;
        },
        async () => {
          const entry = fallback.entries().find((candidate) => candidate.approval.id === id);
          const claimed = await fallback.claim(id, decision);
          if (claimed && entry) {
            forgetExpired(now());
            decidedWhileDown.set(id, entry.expiresAt);
          }
          return claimed;
        },
      );
    },

    decisionOf(id) {
      return failover.route(
        () => primary.decisionOf(id),
        () => fallback.decisionOf(id),
      );
    },

    deliver(owner, verdict) {
      return failover.route(
        () => primary.deliver(owner, verdict),
        () => fallback.deliver(owner, verdict),
      );
    },

    onVerdict(next) {
      handler = next;
    },

    /** True while open: with the fallback, the board as a whole always works (see `kind`). */
    ping: () => Promise.resolve(!failover.closed),

    async close() {
      if (failover.closed) return;
      failover.close();
      await Promise.all([primary.close(), fallback.close()]);
    },
  };
}
