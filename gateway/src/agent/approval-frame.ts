import { shortId } from '../approvals/ports.ts';
import type { ApprovalNotice } from '../approvals/ports.ts';
import { untrustedSourcesOf } from '../../../common/text/command-display.ts';

/**
 * The chat sockets' `approval_request` frame for an approval notice; `untrusted_sources` only
 * when the turn read untrusted content before asking.
 */
export function approvalRequestFrame({ approval, text }: ApprovalNotice): string {
  const sources = untrustedSourcesOf(approval);
  return JSON.stringify({
    type: 'approval_request',
    id: approval.id,
    short_id: shortId(approval.id),
    tool_name: approval.tool_name,
    command: approval.command,
    text,
    ...(sources.length > 0 ? { untrusted_sources: sources } : {}),
  });
}
