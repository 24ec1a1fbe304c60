import { shortId } from '../approvals/ports.ts';
import type { ApprovalNotice } from '../approvals/ports.ts';

/** The chat sockets' `approval_request` frame for an approval notice. */
export function approvalRequestFrame({ approval, text }: ApprovalNotice): string {
  return JSON.stringify({
    type: 'approval_request',
    id: approval.id,
    short_id: shortId(approval.id),
    tool_name: approval.tool_name,
    command: approval.command,
    text,
    // Additive: what had tainted the turn that asked (present only when anything had).
    ...(approval.untrusted_sources ? { untrusted_sources: approval.untrusted_sources } : {}),
  });
}
