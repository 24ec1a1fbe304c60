import { useEffect, useState } from 'preact/hooks';
import type { ApprovalsState } from '../approvals-state.ts';

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
  const act = (id: string, decision: 'approve' | 'always' | 'deny') => {
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
          return (
            <li key={approval.id} class="card approval">
              <p>
                <strong>{approval.tool_name}</strong> wants to run
              </p>
              <pre>
                <code>{approval.command}</code>
              </pre>
              <p class="muted">
                in {approval.arguments.workdir} · session {approval.session_id} ·{' '}
                <span aria-label={`${left} seconds left`}>{left} s left</span>
              </p>
              <meter
                min={0}
                max={approval.expires_at - approval.created_at}
                value={left}
                aria-hidden="true"
              />
              <div class="actions">
                <button type="button" onClick={() => act(approval.id, 'approve')}>
                  Approve
                </button>
                <button type="button" onClick={() => act(approval.id, 'always')}>
                  Approve always
                </button>
                <button type="button" class="danger" onClick={() => act(approval.id, 'deny')}>
                  Deny
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
