import type { ApiResponse, Loose, PendingApproval } from '@hearth/client';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from './api.ts';

export type { PendingApproval };

export interface ApprovalsState {
  pending: PendingApproval[];
  error?: string;
  refresh: () => void;
  decide: (id: string, decision: 'approve' | 'always' | 'deny') => Promise<string>;
}

/** What `Approve always` did: the program allowed from now on, only this command, or once. */
function alwaysOutcome(answer: Loose<ApiResponse<'/approvals/{approval_id}/approve', 'POST'>>) {
  const entry = answer.allowlist_entry;
  if (entry?.pattern !== undefined)
    return entry.arg_pattern === null || entry.arg_pattern === undefined
      ? `Approved (${entry.pattern} allowed from now on, with any arguments)`
      : `Approved (this exact command allowed from now on${entry.note ? `: ${entry.note}` : ''})`;
  return answer.always_note ? `Approved this time only (${answer.always_note})` : 'Approved';
}

/** The live pending list: polled every 2 s, and at once when the chat socket announces one. */
export function useApprovals(live: boolean): ApprovalsState {
  const [pending, setPending] = useState<PendingApproval[]>([]);
  const [error, setError] = useState<string>();
  const refresh = useCallback(() => {
    api('GET', '/approvals/pending').then(
      (data) => {
        setPending(data.pending);
        setError(undefined);
      },
      (e: unknown) => setError((e as Error).message),
    );
  }, []);
  useEffect(() => {
    if (!live) return undefined;
    refresh();
    const timer = setInterval(refresh, 2_000);
    return () => clearInterval(timer);
  }, [live, refresh]);
  const decide = useCallback(
    async (id: string, decision: 'approve' | 'always' | 'deny') => {
      try {
        const params = { approval_id: id };
        if (decision === 'deny') {
          await api('POST', '/approvals/{approval_id}/deny', { params });
          return 'Denied';
        }
        const answer = await api('POST', '/approvals/{approval_id}/approve', {
          params,
          body: { always: decision === 'always' },
        });
        return decision === 'always' ? alwaysOutcome(answer) : 'Approved';
      } finally {
        refresh();
      }
    },
    [refresh],
  );
  return { pending, error, refresh, decide };
}
