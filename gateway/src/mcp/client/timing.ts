import { DEFAULT_GUARD_LIMITS, type MessageGuardLimits } from './message-guard.ts';

export interface ConnectionTiming {
  /** The handshake and the tool listing, each. */
  connectTimeoutMs: number;
  /** One tool call (after the approval, which has its own expiry). */
  callTimeoutMs: number;
  /** Restart delays: initial, doubled each failed attempt, capped. */
  backoffInitialMs: number;
  backoffMaxMs: number;
  guard: MessageGuardLimits;
}

export const DEFAULT_TIMING: ConnectionTiming = {
  connectTimeoutMs: 20_000,
  callTimeoutMs: 120_000,
  backoffInitialMs: 1_000,
  backoffMaxMs: 60_000,
  guard: DEFAULT_GUARD_LIMITS,
};
