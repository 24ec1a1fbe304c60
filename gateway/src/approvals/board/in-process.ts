import type { PendingApproval } from '../ports.ts';
import type { BoardDecision, PendingApprovalBoard, Verdict } from './ports.ts';

export interface InProcessBoardOptions {
  /** This gateway's id, reported as the owner of what it publishes; default `local`. */
  owner?: string;
  /** Epoch milliseconds; entries and recorded decisions expire by this clock. */
  now?: () => number;
}

/** A published approval with the time (epoch ms) it leaves the board. */
export interface BoardEntry {
  approval: PendingApproval;
  expiresAt: number;
}

export interface InProcessApprovalBoard extends PendingApprovalBoard {
  /** The live entries, oldest first, with their expiry (the resilient board re-publishes them). */
  entries(): BoardEntry[];
}

/**
 * The board of a single gateway (no `[memory] cache_url`): a map in this process. Everything on
 * it is owned here, so `deliver` hands the verdict straight to the handler.
 */
export function createInProcessApprovalBoard(
  options: InProcessBoardOptions = {},
): InProcessApprovalBoard {
  const owner = options.owner ?? 'local';
  const now = options.now ?? Date.now;
  const entries = new Map<string, BoardEntry>();
  const decisions = new Map<string, { decision: BoardDecision; expiresAt: number }>();
  let handler: ((verdict: Verdict) => void) | undefined;

  function purge(): void {
    const at = now();
    for (const [id, entry] of entries) if (entry.expiresAt <= at) entries.delete(id);
    for (const [id, record] of decisions) if (record.expiresAt <= at) decisions.delete(id);
  }

  function live(): BoardEntry[] {
    purge();
    // A stable sort keeps publication order among approvals of the same second.
    return [...entries.values()].sort((a, b) => a.approval.created_at - b.approval.created_at);
  }

  return {
    kind: 'in-process',
    entries: live,

    // The bodies run synchronously up to their end, so a claim made right after a publish (or
    // another claim) in the same tick already sees its effect.
    publish(approval, ttlMs) {
      entries.set(approval.id, { approval, expiresAt: now() + ttlMs });
      return Promise.resolve();
    },

    list() {
      return Promise.resolve(live().map((entry) => entry.approval));
    },

    claim(id, decision) {
      purge();
      const entry = entries.get(id);
      if (!entry) return Promise.resolve(undefined);
      entries.delete(id);
      decisions.set(id, { decision, expiresAt: entry.expiresAt });
      return Promise.resolve({ approval: entry.approval, owner });
    },

    decisionOf(id) {
      purge();
      return Promise.resolve(decisions.get(id)?.decision);
    },

    deliver(to, verdict) {
      if (to === owner) handler?.(verdict);
      return Promise.resolve();
    },

    onVerdict(next) {
      handler = next;
    },

    ping: () => Promise.resolve(true),

    close() {
      entries.clear();
      decisions.clear();
      return Promise.resolve();
    },
  };
}
