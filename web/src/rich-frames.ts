/**
 * The `/ws?events=tools` frames as the conversation keeps them: tool cards (`tool_call`, then
 * `tool_result`), inline approvals (`approval_request`, closed by `approval_resolved`) and the
 * memories `message_done` says the turn recalled. Fields are checked, not trusted: a frame that
 * lacks one is ignored.
 */
import { untrustedSourcesOf, type UntrustedSource } from '../../common/text/command-display.ts';

export interface ToolCard {
  callId: string;
  name: string;
  /** The call's arguments object, or its JSON cut at 8 KiB (`argumentsTruncated`). */
  arguments: unknown;
  argumentsTruncated: boolean;
  result?: { ok: boolean; output: string; truncated: boolean };
}

export interface InlineApproval {
  id: string;
  toolName: string;
  command: string;
  untrustedSources: UntrustedSource[];
  /** Set once decided (here, elsewhere) or expired. */
  outcome?: { allowed: boolean; outcome: string };
}

export interface RecalledMemory {
  source: string;
  content: string;
  untrusted: boolean;
}

const str = (value: unknown): value is string => typeof value === 'string';

export function toolCallOf(frame: Record<string, unknown>): ToolCard | undefined {
  if (!str(frame.call_id) || !str(frame.tool)) return undefined;
  return {
    callId: frame.call_id,
    name: frame.tool,
    arguments: frame.arguments,
    argumentsTruncated: frame.arguments_truncated === true,
  };
}

/** The tool card of the result's call, with the result (the last card of that id). */
export function withToolResult<M extends { tool?: ToolCard }>(
  list: M[],
  frame: Record<string, unknown>,
): M[] {
  if (!str(frame.call_id) || !str(frame.output)) return list;
  const index = list.findLastIndex((m) => m.tool?.callId === frame.call_id);
  const card = list[index];
  if (!card?.tool) return list;
  const result = {
    ok: frame.ok === true,
    output: frame.output,
    truncated: frame.truncated === true,
  };
  return list.with(index, { ...card, tool: { ...card.tool, result } });
}

export function approvalOf(frame: Record<string, unknown>): InlineApproval | undefined {
  if (!str(frame.id) || !str(frame.command)) return undefined;
  return {
    id: frame.id,
    toolName: str(frame.tool_name) ? frame.tool_name : 'a tool',
    command: frame.command,
    untrustedSources: untrustedSourcesOf(frame),
  };
}

/** The inline approval of the frame's id, with its outcome. */
export function resolveApproval<M extends { approval?: InlineApproval }>(
  list: M[],
  frame: Record<string, unknown>,
): M[] {
  if (!str(frame.id) || !str(frame.outcome)) return list;
  const outcome = { allowed: frame.allowed === true, outcome: frame.outcome };
  return list.map((m) =>
    m.approval?.id === frame.id ? { ...m, approval: { ...m.approval, outcome } } : m,
  );
}

export function memoriesOf(value: unknown): RecalledMemory[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const memories = value
    .filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null)
    .filter((m) => str(m.content))
    .map((m) => ({
      source: str(m.source) ? m.source : 'memory',
      content: m.content as string,
      untrusted: m.untrusted === true,
    }));
  return memories.length > 0 ? memories : undefined;
}
