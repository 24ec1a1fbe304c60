/**
 * Reading the approval gate of a test gateway over its REST interface: what is pending, waiting
 * for a command to become pending (the turn is then blocked on it), and the decisions counted.
 */
import type { PendingApproval } from '../../approvals/ports.ts';
import type { ChatTestBed } from './chat-gateway.ts';

type Bed = Pick<ChatTestBed, 'get'>;

/** GET /approvals/pending. */
export async function pendingApprovals(bed: Bed): Promise<PendingApproval[]> {
  return (await bed.get('/approvals/pending')).body.pending as PendingApproval[];
}

/** Polls GET /approvals/pending until `command` shows up; fails after `timeoutMs`. */
export async function waitForPending(
  bed: Bed,
  command: string,
  timeoutMs = 5_000,
): Promise<PendingApproval> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = (await pendingApprovals(bed)).find((p) => p.command === command);
    if (found) return found;
    if (Date.now() > until) throw new Error(`${command} never became pending`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `approval_decisions_total` by label set, from GET /metrics/snapshot. */
export async function approvalDecisions(bed: Bed): Promise<Record<string, number>> {
  const snapshot = (await bed.get('/metrics/snapshot')).body as Record<
    string,
    { values: Record<string, number> }
  >;
  return { ...snapshot.approval_decisions_total?.values };
}
