/**
 * What a test scripts the fake LLM to answer. One script answers one model request; every wire
 * module renders the same script in its own provider's format.
 */
export interface ScriptedToolCall {
  /** The provider's call id; each wire format invents one in its own style when omitted. */
  id?: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ScriptedUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ScriptedError {
  status: number;
  /** Human message placed in the provider's error body. */
  message?: string;
  /** Replaces the provider's error body entirely (a JSON value). */
  body?: unknown;
}

/** One search the provider ran itself (native web search) before answering. */
export interface ScriptedWebSearch {
  query: string;
  results: readonly { url: string; title: string }[];
}

export interface ReplyScript {
  text?: string;
  /** Explicit stream pieces of `text`; by default the text is cut at word boundaries. */
  chunks?: readonly string[];
  /** Reasoning ("thinking") text, on wire formats that carry it. */
  reasoning?: string;
  toolCalls?: readonly ScriptedToolCall[];
  /**
   * A provider-executed web search before the text, rendered in each wire's own form (Anthropic
   * server_tool_use + web_search_tool_result, a Responses web_search_call, Gemini grounding
   * metadata, Perplexity citations); the text then cites the first result.
   */
  webSearch?: ScriptedWebSearch;
  /**
   * Anthropic only: the server pauses this long server-tool turn (`stop_reason: "pause_turn"`),
   * `after-search` once the search blocks and any text are out, `mid-search` right after the
   * `server_tool_use` (its `web_search_tool_result` then opens the reply that continues the
   * turn, and the search is counted there). The next request must end with the paused assistant
   * content unchanged, after the same messages as before, or the fake answers 400.
   */
  pauseTurn?: 'after-search' | 'mid-search';
  usage?: ScriptedUsage;
  /** Answer with this HTTP error instead of a completion. */
  error?: ScriptedError;
  /**
   * Fail mid-stream: after the text pieces, the provider's in-stream error event with this
   * message, and no normal ending (streaming requests only).
   */
  streamError?: string;
  /** Stop because the token limit was hit. */
  truncated?: boolean;
  /** Delay before each streamed frame, in milliseconds. */
  chunkDelayMs?: number;
}

export const DEFAULT_REPLY: ReplyScript = {
  text: 'ok',
  usage: { inputTokens: 1, outputTokens: 1 },
};

/** The stream pieces of a text: the script's own, or the text cut after each space. */
export function textPieces(script: ReplyScript): string[] {
  if (script.chunks) return [...script.chunks];
  const text = script.text ?? '';
  if (text === '') return [];
  return text.match(/\S+\s*|\s+/g) ?? [text];
}

/** Reasoning is streamed in two halves so a consumer must concatenate. */
export function reasoningPieces(script: ReplyScript): string[] {
  const reasoning = script.reasoning ?? '';
  if (reasoning === '') return [];
  const middle = Math.ceil(reasoning.length / 2);
  return [reasoning.slice(0, middle), reasoning.slice(middle)].filter((piece) => piece !== '');
}

/** A JSON string cut in two, the way providers stream tool-call arguments. */
export function jsonPieces(value: unknown): string[] {
  const json = JSON.stringify(value);
  const middle = Math.ceil(json.length / 2);
  return [json.slice(0, middle), json.slice(middle)].filter((piece) => piece !== '');
}

export function usageOf(script: ReplyScript): ScriptedUsage {
  return script.usage ?? { inputTokens: 0, outputTokens: 0 };
}

export type StopKind = 'stop' | 'tool-calls' | 'length';

export function stopKind(script: ReplyScript): StopKind {
  if (script.truncated) return 'length';
  return script.toolCalls?.length ? 'tool-calls' : 'stop';
}

let counter = 0;

/** A fresh id with the provider's prefix (`call_`, `toolu_`, `msg_` ...). */
export function fakeId(prefix: string, length = 24): string {
  counter += 1;
  const seed = `${counter.toString(36)}${Math.random().toString(36).slice(2)}fakellm0123456789abcdef`;
  return `${prefix}${seed.slice(0, length)}`;
}
