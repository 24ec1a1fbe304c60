import {
  commandSize,
  displayCommand,
  displayInline,
  sourceLines,
  untrustedSourcesOf,
} from '../../../common/text/command-display.ts';
import type { PendingApproval } from '../approvals-state.ts';

export type Decision = 'approve' | 'always' | 'deny';

/**
 * One pending approval: the untrusted sources the turn read first, then the whole command
 * (wrapped, never cut; runs of spaces, tabs, line breaks and hidden characters made visible)
 * with its length, and only then the decisions.
 */
export function ApprovalCard(props: {
  approval: PendingApproval;
  left: number;
  act: (id: string, decision: Decision) => void;
}) {
  const { approval, left, act } = props;
  const shown = displayCommand(approval.command);
  const sources = sourceLines(untrustedSourcesOf(approval));
  const tool = displayInline(approval.tool_name);
  return (
    <li class="card approval">
      {sources.length > 0 ? (
        <div class="taint" role="note" aria-label="Untrusted content read before this request">
          {sources.map((line, i) => (
            <p key={i}>{line}</p>
          ))}
          <p>
            then the agent asks to run <strong>{tool}</strong>:
          </p>
        </div>
      ) : (
        <p>
          <strong>{tool}</strong> wants to run
        </p>
      )}
      <pre class="command">
        <code>{shown.text}</code>
      </pre>
      <p class="muted size">{commandSize(shown)}</p>
      <p class="muted">
        in {displayInline(approval.arguments.workdir)} · session{' '}
        {displayInline(approval.session_id)} ·{' '}
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
}
