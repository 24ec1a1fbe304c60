import type { IncomingMessage } from 'node:http';
import type { ApprovalDecided } from '../approvals/ports.ts';
import { isUntrusted, type RetrievedMemory } from '../memory/ports.ts';
import type { ToolCall } from '../providers/ports.ts';
import type { ToolRunResult } from './pipeline.ts';

/**
 * The frames a `/ws` client opts into with `?events=tools` (comma-separated; other names are
 * ignored, so a spec client sees exactly the spec's frames):
 *
 * - `{type: "tool_call", call_id, tool, arguments}` when the model calls a tool, before it runs;
 *   `arguments` is the call's object, or, when its JSON is longer than TOOL_TEXT_CAP bytes, that
 *   JSON cut to the cap (a string) with `arguments_truncated: true`;
 * - `{type: "tool_result", call_id, tool, ok, output, truncated}` when it returned (`output` cut to
 *   TOOL_TEXT_CAP bytes of UTF-8);
 * - `{type: "approval_resolved", id, allowed, outcome}` when an approval a turn of this socket is
 *   waiting on is decided (here, in another tab, the CLI, a chat reply) or expires;
 * - `memories: [{source, content, score, created_at?, untrusted}]` on `message_done`: what memory
 *   retrieval put into the turn's prompt (each `content` cut to MEMORY_TEXT_CAP bytes).
 */
export interface RichEvents {
  tools: boolean;
  /** `message_done` names its `session_id` (a page that sent none learns its own). */
  session: boolean;
}

/** Bytes of a tool's arguments (as JSON) or output a frame carries at most. */
export const TOOL_TEXT_CAP = 8_192;
/** Bytes of one memory's text `message_done` carries at most. */
export const MEMORY_TEXT_CAP = 2_048;

/** Which of the opt-in frames the socket asked for (`?events=tools,session`). */
export function richEventsOf(request: IncomingMessage): RichEvents {
  const asked = new URL(request.url ?? '/', 'http://gateway').searchParams.get('events') ?? '';
  const names = new Set(asked.split(',').map((name) => name.trim()));
  return { tools: names.has('tools'), session: names.has('session') };
}

/** `text` cut to at most `cap` bytes of UTF-8, never inside a character. */
export function capBytes(text: string, cap: number): { text: string; truncated: boolean } {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= cap) return { text, truncated: false };
  let end = cap;
  // Back up to the first byte of a character (continuation bytes are 0b10xxxxxx).
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return { text: bytes.subarray(0, end).toString('utf8'), truncated: true };
}

export function toolCallFrame(call: ToolCall): Record<string, unknown> {
  const json = JSON.stringify(call.arguments ?? {});
  const capped = capBytes(json, TOOL_TEXT_CAP);
  return {
    type: 'tool_call',
    call_id: call.id,
    tool: call.name,
    arguments: capped.truncated ? capped.text : (call.arguments ?? {}),
    ...(capped.truncated ? { arguments_truncated: true } : {}),
  };
}

export function toolResultFrame(call: ToolCall, result: ToolRunResult): Record<string, unknown> {
  const output = capBytes(result.content, TOOL_TEXT_CAP);
  return {
    type: 'tool_result',
    call_id: call.id,
    tool: call.name,
    ok: !result.isError,
    output: output.text,
    truncated: output.truncated,
  };
}

export function approvalResolvedFrame(decided: ApprovalDecided): Record<string, unknown> {
  return {
    type: 'approval_resolved',
    id: decided.approval.id,
    allowed: decided.allowed,
    outcome: decided.outcome,
  };
}

/** The `memories` field of `message_done`: what the turn recalled, most relevant first. */
export function memoriesField(memories: readonly RetrievedMemory[]): Record<string, unknown>[] {
  return memories.map((memory) => {
    const content = capBytes(memory.content, MEMORY_TEXT_CAP);
    return {
      source: memory.source,
      content: content.text,
      ...(content.truncated ? { truncated: true } : {}),
      score: Math.round(memory.score * 1000) / 1000,
      ...(memory.createdAt ? { created_at: memory.createdAt } : {}),
      untrusted: isUntrusted(memory.origin),
    };
  });
}
