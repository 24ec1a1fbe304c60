import type { PendingApproval } from '../ports.ts';

/** What a claimer decided; an expiry is recorded as `denied`. */
export type BoardDecision = 'approved' | 'denied';

/** A decision on its way to the gateway where the gated tool call waits. */
export interface Verdict {
  id: string;
  decision: BoardDecision;
  /** Whether the claimer stored an allowlist entry (informational for the owner). */
  always_allowed: boolean;
}

/** A pending approval taken off the board, with the gateway that holds its waiting call. */
export interface ClaimedApproval {
  approval: PendingApproval;
  owner: string;
}

/**
 * The pending approvals every gateway of a deployment sees (DESIGN "Scale-out"). The gateway
 * where a gated tool call waits publishes it and holds the promise; any gateway may list it and
 * claim it. A claim is atomic: of concurrent claims (approve, deny, the owner's expiry) exactly
 * one gets the approval, and its decision is recorded so the owner can read it back if the
 * delivered verdict never arrives. Adapters: in-process (one gateway), Redis, and the resilient
 * pair (Redis, in-process while Redis is unreachable).
 */
export interface PendingApprovalBoard {
  /** Which adapter serves right now, for /status `backends.approvals`. */
  readonly kind: string;
  /** Makes the approval visible to every gateway until claimed or `ttlMs` passes. */
  publish(approval: PendingApproval, ttlMs: number): Promise<void>;
  /** Every pending approval on every gateway, oldest first (created_at). */
  list(): Promise<PendingApproval[]>;
  /** Takes the approval off the board; undefined when it is unknown, expired or claimed. */
  claim(id: string, decision: BoardDecision): Promise<ClaimedApproval | undefined>;
  /** The decision recorded by the claim of `id`, while the record lasts. */
  decisionOf(id: string): Promise<BoardDecision | undefined>;
  /** Sends a verdict to the owning gateway (the `onVerdict` handler there receives it). */
  deliver(owner: string, verdict: Verdict): Promise<void>;
  /** The handler of verdicts for approvals this gateway owns (one; set by the service). */
  onVerdict(handler: (verdict: Verdict) => void): void;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
