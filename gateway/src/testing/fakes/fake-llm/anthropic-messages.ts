/**
 * Anthropic Messages (`POST /v1/messages`), JSON and SSE with thinking and tool_use blocks, the
 * web search server tool, and turns the server pauses (`pause_turn`) for the client to continue.
 * https://docs.anthropic.com/en/api/messages and …/messages-streaming
 */
import { isDeepStrictEqual } from 'node:util';
import {
  fakeId,
  jsonPieces,
  reasoningPieces,
  stopKind,
  textPieces,
  usageOf,
  type ReplyScript,
  type StopKind,
} from './script.ts';
import {
  arrayOf,
  bodyOf,
  defaultErrorMessage,
  isObject,
  json,
  retryHeaders,
  sseEvent,
  type JsonObject,
  type WireContext,
  type WireRoute,
} from './wire.ts';

const STOP: Record<StopKind, string> = {
  stop: 'end_turn',
  'tool-calls': 'tool_use',
  length: 'max_tokens',
};
const SIGNATURE = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds';

function toolCalls(script: ReplyScript) {
  return (script.toolCalls ?? []).map((call) => ({ ...call, id: call.id ?? fakeId('toolu_') }));
}

/**
 * The web search blocks: `server_tool_use` (the query) and its `web_search_tool_result` (pages
 * with encrypted content), and the citation the answer's text block carries.
 * https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool
 */
function webSearchBlocks(script: ReplyScript) {
  const search = script.webSearch;
  if (!search) return undefined;
  const id = fakeId('srvtoolu_');
  const first = search.results[0];
  return {
    use: { type: 'server_tool_use', id, name: 'web_search', input: { query: search.query } },
    result: {
      type: 'web_search_tool_result',
      tool_use_id: id,
      content: search.results.map((result, index) => ({
        type: 'web_search_result',
        url: result.url,
        title: result.title,
        encrypted_content: `EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5LTQ1NGUtODgxNC1kNjNjNTk1ZWI3Y${index}`,
        page_age: 'April 30, 2025',
      })),
    },
    citations: first
      ? [
          {
            type: 'web_search_result_location',
            url: first.url,
            title: first.title,
            encrypted_index: 'Eo8BCioIAhgBIiQyYjQ0OWJmZi1lNm',
            cited_text: (script.text ?? '').slice(0, 150),
          },
        ]
      : [],
  };
}

/** The content of one reply, and a search result held back for the reply after a pause. */
interface Reply {
  content: JsonObject[];
  /** Searches whose results this reply carries (`usage.server_tool_use.web_search_requests`). */
  searches: number;
  /** Paused mid-search: the `web_search_tool_result` that opens the continuation. */
  pending?: JsonObject;
}

/**
 * The reply's content blocks in order: thinking, the result a paused search left pending, the
 * search (query, then results), the text (citing the first result), tool_use blocks. Paused
 * mid-search, the text comes first (the model's preamble) and the turn stops at the query.
 */
function replyOf(script: ReplyScript, opening: JsonObject | undefined): Reply {
  const content: JsonObject[] = [];
  const search = webSearchBlocks(script);
  let searches = opening ? 1 : 0;
  if (script.reasoning)
    content.push({ type: 'thinking', thinking: script.reasoning, signature: SIGNATURE });
  if (opening) content.push(opening);
  if (search && script.pauseTurn === 'mid-search') {
    if (script.text) content.push({ type: 'text', text: script.text });
    content.push(search.use);
    return { content, searches, pending: search.result };
  }
  if (search) {
    content.push(search.use, search.result);
    searches += 1;
  }
  if (script.text)
    content.push({
      type: 'text',
      text: script.text,
      ...(search?.citations.length ? { citations: search.citations } : {}),
    });
  for (const call of toolCalls(script)) {
    content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
  }
  return { content, searches };
}

function stopReason(script: ReplyScript): string {
  return script.pauseTurn ? 'pause_turn' : STOP[stopKind(script)];
}

function usageBody(script: ReplyScript, outputTokens: number, searches: number): JsonObject {
  return {
    input_tokens: usageOf(script).inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: outputTokens,
    ...(searches > 0 ? { server_tool_use: { web_search_requests: searches } } : {}),
  };
}

function message(context: WireContext, script: ReplyScript, reply: Reply): JsonObject {
  return {
    id: fakeId('msg_'),
    type: 'message',
    role: 'assistant',
    model: bodyOf(context.request).model,
    content: reply.content,
    stop_reason: stopReason(script),
    stop_sequence: null,
    usage: usageBody(script, usageOf(script).outputTokens, reply.searches),
  };
}

/** A content block as streamed: its start (empty text, input `{}`), then its deltas. */
function streamedBlock(script: ReplyScript, block: JsonObject): [JsonObject, JsonObject[]] {
  switch (block.type) {
    case 'thinking':
      return [
        { type: 'thinking', thinking: '' },
        [
          ...reasoningPieces(script).map((thinking) => ({ type: 'thinking_delta', thinking })),
          { type: 'signature_delta', signature: block.signature },
        ],
      ];
    case 'text':
      return [
        { type: 'text', text: '' },
        [
          ...arrayOf(block.citations).map((citation) => ({ type: 'citations_delta', citation })),
          ...textPieces(script).map((text) => ({ type: 'text_delta', text })),
        ],
      ];
    case 'server_tool_use':
    case 'tool_use':
      return [
        { ...block, input: {} },
        jsonPieces(block.input).map((partial_json) => ({
          type: 'input_json_delta',
          partial_json,
        })),
      ];
    default:
      return [block, []];
  }
}

function streamFrames(context: WireContext, script: ReplyScript, reply: Reply): string[] {
  const frames: string[] = [
    sseEvent('message_start', {
      type: 'message_start',
      message: {
        id: fakeId('msg_'),
        type: 'message',
        role: 'assistant',
        model: bodyOf(context.request).model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: usageBody({ usage: script.usage }, 1, 0),
      },
    }),
    sseEvent('ping', { type: 'ping' }),
  ];
  for (const [index, block] of reply.content.entries()) {
    // A scripted stream failure strikes after the text, before any tool_use block.
    if (block.type === 'tool_use' && script.streamError !== undefined) break;
    const [start, deltas] = streamedBlock(script, block);
    frames.push(
      sseEvent('content_block_start', { type: 'content_block_start', index, content_block: start }),
    );
    for (const delta of deltas)
      frames.push(sseEvent('content_block_delta', { type: 'content_block_delta', index, delta }));
    frames.push(sseEvent('content_block_stop', { type: 'content_block_stop', index }));
  }
  if (script.streamError !== undefined) {
    const error = { type: 'overloaded_error', message: script.streamError };
    return [...frames, sseEvent('error', { type: 'error', error })];
  }
  frames.push(
    sseEvent('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason(script), stop_sequence: null },
      usage: {
        output_tokens: usageOf(script).outputTokens,
        ...(reply.searches > 0 ? { server_tool_use: { web_search_requests: reply.searches } } : {}),
      },
    }),
    sseEvent('message_stop', { type: 'message_stop' }),
  );
  return frames;
}

/**
 * A turn the server paused (`stop_reason: "pause_turn"`). The client continues it by sending
 * the same messages again with the paused assistant content appended as the last message,
 * unchanged (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/server-tools).
 */
interface PausedTurn {
  /** The messages before the paused assistant turn. */
  before: unknown[];
  /** The assistant content so far (every paused reply of the turn, in order). */
  content: JsonObject[];
  /** Paused mid-search: the search result that opens the continuation. */
  pending?: JsonObject;
}

const PAUSED = 'anthropic-messages:paused';

function pausedTurn(context: WireContext): PausedTurn | undefined {
  return context.state.get(PAUSED) as PausedTurn | undefined;
}

/** The final assistant content may not end with whitespace: its last text is sent trimmed. */
function asLastMessage(content: readonly JsonObject[]): JsonObject[] {
  const last = content.at(-1);
  if (last?.type !== 'text' || typeof last.text !== 'string') return [...content];
  return [...content.slice(0, -1), { ...last, text: last.text.trimEnd() }];
}

/** After a pause, the request must be the same messages plus the paused content, unchanged. */
function continuesPausedTurn(context: WireContext): string | undefined {
  const paused = pausedTurn(context);
  if (!paused) return undefined;
  const messages = arrayOf(bodyOf(context.request).messages);
  const index = messages.length - 1;
  const last = messages[index];
  const rule = 'fake-llm: after stop_reason "pause_turn" the next request must';
  if (!isDeepStrictEqual(messages.slice(0, -1), paused.before))
    return `messages: ${rule} repeat the earlier messages unchanged before the paused turn`;
  if (!isObject(last) || last.role !== 'assistant')
    return `messages.${index}: ${rule} end with the paused assistant turn`;
  const expected = asLastMessage(paused.content);
  const sent = arrayOf(last.content);
  for (let block = 0; block < Math.max(expected.length, sent.length); block += 1) {
    if (!isDeepStrictEqual(sent[block], expected[block]))
      return (
        `messages.${index}.content.${block}: ${rule} carry the paused content unchanged: ` +
        `expected ${JSON.stringify(expected[block] ?? null)}, got ${JSON.stringify(sent[block] ?? null)}`
      );
  }
  return undefined;
}

/** Builds the reply and remembers (or forgets) the paused turn it belongs to. */
function answer(context: WireContext, script: ReplyScript): Reply {
  const paused = pausedTurn(context);
  const reply = replyOf(script, paused?.pending);
  if (!script.pauseTurn) {
    context.state.delete(PAUSED);
    return reply;
  }
  const turn: PausedTurn = {
    before: paused?.before ?? arrayOf(bodyOf(context.request).messages),
    content: structuredClone([...(paused?.content ?? []), ...reply.content]),
    ...(reply.pending ? { pending: reply.pending } : {}),
  };
  context.state.set(PAUSED, turn);
  return reply;
}

function errorType(status: number): string {
  if (status === 400) return 'invalid_request_error';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status === 529) return 'overloaded_error';
  return 'api_error';
}

function validate(context: WireContext): string | undefined {
  const body = bodyOf(context.request);
  if (typeof body.model !== 'string') return 'model: Field required';
  if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  if (arrayOf(body.messages).length === 0) return 'messages: at least one message is required';
  if (isObject(body.thinking) && body.thinking.type === 'enabled') {
    const budget = body.thinking.budget_tokens;
    if (typeof budget !== 'number' || budget < 1024)
      return 'thinking.budget_tokens: must be at least 1024';
    if (body.max_tokens <= budget)
      return '`max_tokens` must be greater than `thinking.budget_tokens`';
  }
  return (
    continuesPausedTurn(context) ??
    thinkingBeforeToolUse(body) ??
    serverToolResults(body) ??
    webSearchTool(body)
  );
}

const WEB_SEARCH_TYPES = ['web_search_20250305', 'web_search_20260209', 'web_search_20260318'];

/** The server tool is declared as `{type: web_search_<version>, name: 'web_search'}`. */
function webSearchTool(body: JsonObject): string | undefined {
  const tools = arrayOf(body.tools).filter(isObject);
  const index = tools.findIndex(
    (tool) => typeof tool.type === 'string' && tool.type.startsWith('web_search'),
  );
  const tool = tools[index];
  if (!tool) return undefined;
  if (!WEB_SEARCH_TYPES.includes(String(tool.type)))
    return `tools.${index}.type: Input tag '${String(tool.type)}' found using 'type' does not match any of the expected tags`;
  if (tool.name !== 'web_search') return `tools.${index}.name: must be 'web_search'`;
  return undefined;
}

/**
 * A replayed `server_tool_use` must be followed by its result block in the same turn, except
 * in the last message: a turn paused mid-search, being continued.
 */
function serverToolResults(body: JsonObject): string | undefined {
  const messages = arrayOf(body.messages).filter(isObject);
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'assistant' || index === messages.length - 1) continue;
    const content = arrayOf(message.content).filter(isObject);
    const answered = new Set(
      content.filter((part) => part.type === 'web_search_tool_result').map((p) => p.tool_use_id),
    );
    for (const part of content) {
      if (part.type === 'server_tool_use' && !answered.has(part.id))
        return (
          `messages.${index}.content: \`server_tool_use\` block with id \`${String(part.id)}\` ` +
          'was found without a corresponding `web_search_tool_result` block'
        );
    }
  }
  return undefined;
}

/**
 * With thinking on, the last assistant turn that used tools must be replayed with its signed
 * thinking block first (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking).
 */
function thinkingBeforeToolUse(body: JsonObject): string | undefined {
  const type = isObject(body.thinking) ? body.thinking.type : undefined;
  if (type !== 'enabled' && type !== 'adaptive') return undefined;
  const messages = arrayOf(body.messages).filter(isObject);
  const index = messages.findLastIndex((message) => message.role === 'assistant');
  const content = arrayOf(messages[index]?.content).filter(isObject);
  if (!content.some((part) => part.type === 'tool_use')) return undefined;
  if (content[0]?.type === 'thinking' || content[0]?.type === 'redacted_thinking') return undefined;
  return (
    `messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found ` +
    `\`${String(content[0]?.type)}\`. When \`thinking\` is enabled, a final \`assistant\` message must start ` +
    'with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks).'
  );
}

export const anthropicMessages: WireRoute = {
  name: 'anthropic-messages',
  matches: (method, path) => method === 'POST' && path.endsWith('/messages'),
  scripted: () => true,
  validate,
  respond: (context, script) => {
    const reply = answer(context, script);
    return bodyOf(context.request).stream === true
      ? {
          kind: 'stream',
          contentType: 'text/event-stream',
          frames: streamFrames(context, script, reply),
        }
      : json(200, message(context, script, reply));
  },
  error: (_context, error) =>
    json(
      error.status,
      error.body ?? {
        type: 'error',
        error: {
          type: errorType(error.status),
          message: error.message ?? defaultErrorMessage(error.status),
        },
      },
      { ...retryHeaders(error.status), 'request-id': fakeId('req_') },
    ),
};
