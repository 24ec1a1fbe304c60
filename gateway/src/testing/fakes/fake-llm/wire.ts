import type { ReplyScript, ScriptedError } from './script.ts';

/** One request as the fake server received it. Header names are lower-case. */
export interface RecordedRequest {
  /** The wire module that answered (`openai-chat`, `anthropic-messages` ...), or `unmatched`. */
  wire: string;
  method: string;
  /** Path without the query string, percent-encoding kept (`/model/a%3A0/converse`). */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** The parsed JSON body; undefined when there was none or it was not JSON. */
  body: unknown;
  rawBody: string;
  /** Set when the client hung up before the response was complete (a cancelled generation). */
  abortedByClient?: boolean;
}

/** Wire-format quirks that differ between vendors sharing one format (set per server). */
export interface OpenAiChatDialect {
  /** Where streamed reasoning text goes: DeepSeek/Qwen/Moonshot style or Groq/OpenRouter style. */
  reasoningField?: 'reasoning_content' | 'reasoning';
  /**
   * Where a streamed reply's usage goes: a trailing chunk with no choices when the client asks
   * with `stream_options.include_usage` (OpenAI), on the chunk with `finish_reason` whether asked
   * or not (Mistral, Perplexity, OpenRouter), or in `x_groq.usage` (Groq).
   */
  streamUsage?: 'include-usage' | 'final-chunk' | 'x-groq';
  /** Error body: OpenAI's `{error:{message,type,param,code}}`, Mistral's, or a numeric `code`. */
  errorStyle?: 'openai' | 'mistral' | 'numeric-code';
  /** Tool-call ids: OpenAI's `call_…` or Mistral's nine alphanumerics. */
  toolCallIds?: 'openai' | 'mistral';
  /** Perplexity: a scripted web search comes back as top-level `citations` and `search_results`. */
  searchResults?: boolean;
}

export interface FakeLlmOptions {
  openAiChat?: OpenAiChatDialect;
  /**
   * Ollama models that can think. When set, `"think": true` for any other model is refused with
   * Ollama's 400 `"<model>" does not support thinking`; when unset every model may think.
   */
  ollamaThinkingModels?: readonly string[];
  /** Models Ollama's `POST /api/pull` can fetch; unset: any model. */
  ollamaPullable?: readonly string[];
  /** Models listed by `GET …/models` and Ollama's `GET /api/tags`. */
  models?: readonly string[];
  /** The answer to a scripted request when the queue is empty. */
  defaultReply?: ReplyScript;
  /**
   * Answers a scripted request from what it carries when the queue is empty (a long-running fake
   * that cannot be scripted ahead); `undefined` falls through to `defaultReply`.
   */
  respond?: (request: RecordedRequest) => ReplyScript | undefined;
}

export type Frame = string | Uint8Array;

export type WireResponse =
  | { kind: 'json'; status: number; headers?: Record<string, string>; body: unknown }
  | { kind: 'stream'; contentType: string; frames: readonly Frame[] };

export interface WireContext {
  request: RecordedRequest;
  options: FakeLlmOptions;
  /**
   * What a wire remembers between requests on one server (Anthropic's paused turn, which the
   * next request must carry back); keys are prefixed with the wire's name. `reset()` clears it.
   */
  state: Map<string, unknown>;
}

/** One provider wire format: which requests it answers and how. */
export interface WireRoute {
  name: string;
  matches: (method: string, path: string) => boolean;
  /** False for listings (`/v1/models`, `/api/tags`), which never consume a script. */
  scripted: (method: string, path: string) => boolean;
  /** A 400 message when the request breaks the provider's documented rules. */
  validate?: (context: WireContext) => string | undefined;
  respond: (context: WireContext, script: ReplyScript) => WireResponse;
  /** The provider's real error response for a status. */
  error: (context: WireContext, error: ScriptedError) => WireResponse;
}

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function bodyOf(request: RecordedRequest): JsonObject {
  return isObject(request.body) ? request.body : {};
}

export function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}

export function sseData(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

export function sseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function json(
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): WireResponse {
  return { kind: 'json', status, body, ...(headers ? { headers } : {}) };
}

/** Default human messages, close to what providers say. */
export function defaultErrorMessage(status: number): string {
  if (status === 429) return 'Rate limit exceeded, please retry after a short wait.';
  if (status === 401) return 'Invalid API key.';
  if (status === 404) return 'The model does not exist.';
  if (status >= 500) return 'The server had an error while processing your request.';
  return 'Invalid request.';
}

/** Seconds to wait, as providers announce on 429. */
export function retryHeaders(status: number): Record<string, string> {
  return status === 429 ? { 'retry-after': '1' } : {};
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
