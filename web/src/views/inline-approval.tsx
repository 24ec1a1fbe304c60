import { useEffect, useState } from 'preact/hooks';
import {
  commandSize,
  displayCommand,
  displayInline,
  sourceLines,
} from '../../../common/text/command-display.ts';
import type { ApprovalsState } from '../approvals-state.ts';
import type { InlineApproval } from '../chat-state.ts';
import { ApprovalCard, type Decision } from './approval-card.tsx';
import { secondsLeft } from './approvals.tsx';

/** What an outcome reads like: `approved`, `denied`, `expired`, or the gate's own word. */
function outcomeText(outcome: NonNullable<InlineApproval['outcome']>): string {
  if (outcome.allowed) return 'Approved';
  if (outcome.outcome === 'expired') return 'Expired (denied)';
  return outcome.outcome === 'denied' ? 'Denied' : `Denied (${outcome.outcome})`;
}

/**
 * An approval the turn waits on, in the conversation: while pending, the Approvals tab's card
 * (untrusted sources, the whole command, countdown, Approve / Approve always / Deny); once
 * decided — here, in the Approvals tab, the CLI, a chat reply — or expired, the command with
 * the outcome. The turn continues on its own after the decision.
 */
export function InlineApprovalCard(props: {
  approval: InlineApproval;
  approvals?: ApprovalsState;
}) {
  const { approval, approvals } = props;
  const [decided, setDecided] = useState<string>();
  const [error, setError] = useState<string>();
  const [seen, setSeen] = useState(false);
  const [now, setNow] = useState(Date.now());
  const pending = approvals?.pending.find((p) => p.id === approval.id);
  const open = !approval.outcome && !decided;
  useEffect(() => {
    if (pending) setSeen(true);
  }, [pending]);
  useEffect(() => {
    if (!open) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [open]);

  if (open && pending && approvals) {
    const act = (id: string, decision: Decision) => {
      approvals.decide(id, decision).then(
        (done) => setDecided(done),
        (e: unknown) => setError((e as Error).message),
      );
    };
    return (
      <div class="inline-approval">
        <ul class="cards">
          <ApprovalCard approval={pending} left={secondsLeft(pending.expires_at, now)} act={act} />
        </ul>
        {error ? (
          <p class="error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    );
  }
  const shown = displayCommand(approval.command);
  const status =
    decided ??
    (approval.outcome
      ? outcomeText(approval.outcome)
      : seen
        ? 'No longer pending (decided elsewhere or expired)'
        : 'Waiting for the approval…');
  return (
    <div class="card approval inline-approval decided">
      {sourceLines(approval.untrustedSources).map((line, i) => (
        <p key={i} class="taint">
          {line}
        </p>
      ))}
      <p>
        <strong>{displayInline(approval.toolName)}</strong> asked to run
      </p>
      <pre class="command">
        <code>{shown.text}</code>
      </pre>
      <p class="muted size">{commandSize(shown)}</p>
      <p
        role="status"
        class={`outcome${approval.outcome?.allowed === false || decided === 'Denied' ? ' denied' : ''}`}
      >
        {status}
      </p>
    </div>
  );
}
