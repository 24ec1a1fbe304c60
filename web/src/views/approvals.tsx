import { useEffect, useState } from 'preact/hooks';
import type { ApprovalsState } from '../approvals-state.ts';
import { ApprovalCard, type Decision } from './approval-card.tsx';

/** Seconds left before a pending approval is denied by expiry (at its `expires_at`). */
export function secondsLeft(expiresAt: number, nowMs: number): number {
  return Math.max(0, Math.ceil(expiresAt - nowMs / 1000));
}

export function ApprovalsView(props: { approvals: ApprovalsState }) {
  const { pending, error, decide } = props.approvals;
  const [now, setNow] = useState(Date.now());
  const [outcome, setOutcome] = useState<string>();
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  const act = (id: string, decision: Decision) => {
    decide(id, decision).then(
      (done) => setOutcome(`${done}: ${id.slice(0, 8)}`),
      (e: unknown) => setOutcome((e as Error).message),
    );
  };
  return (
    <section aria-labelledby="approvals-title">
      <h2 id="approvals-title">Pending approvals</h2>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      <p role="status" class="muted">
        {outcome ?? (pending.length === 0 ? 'Nothing is waiting for you.' : '')}
      </p>
      <ul class="cards">
        {pending.map((approval) => {
          const left = secondsLeft(approval.expires_at, now);
          return <ApprovalCard key={approval.id} approval={approval} left={left} act={act} />;
        })}
      </ul>
    </section>
  );
}
