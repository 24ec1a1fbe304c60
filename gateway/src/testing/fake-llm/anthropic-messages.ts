/**
 * Anthropic Messages (`POST /v1/messages`), JSON and SSE with thinking and tool_use blocks.
 * https://docs.anthropic.com/en/api/messages and …/messages-streaming
 */
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

function usageBody(script: ReplyScript, outputTokens: number): JsonObject {
  return {
    input_tokens: usageOf(script).inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: outputTokens,
    ...(script.webSearch ? { server_tool_use: { web_search_requests: 1 } } : {}),
  };
}

function message(context: WireContext, script: ReplyScript): JsonObject {
  const usage = usageOf(script);
  const content: JsonObject[] = [];
  const search = webSearchBlocks(script);
  if (script.reasoning)
    content.push({ type: 'thinking', thinking: script.reasoning, signature: SIGNATURE });
  if (search) content.push(search.use, search.result);
  if (script.text)
    content.push({
      type: 'text',
      text: script.text,
      ...(search?.citations.length ? { citations: search.citations } : {}),
    });
  for (const call of toolCalls(script)) {
    content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
  }
  return {
    id: fakeId('msg_'),
    type: 'message',
    role: 'assistant',
    model: bodyOf(context.request).model,
    content,
    stop_reason: STOP[stopKind(script)],
    stop_sequence: null,
    usage: usageBody(script, usage.outputTokens),
  };
}

function streamFrames(context: WireContext, script: ReplyScript): string[] {
  const usage = usageOf(script);
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
        usage: usageBody({ usage: script.usage }, 1),
      },
    }),
    sseEvent('ping', { type: 'ping' }),
  ];
  let index = 0;
  const block = (start: JsonObject, deltas: JsonObject[]) => {
    frames.push(
      sseEvent('content_block_start', { type: 'content_block_start', index, content_block: start }),
    );
    for (const delta of deltas)
      frames.push(sseEvent('content_block_delta', { type: 'content_block_delta', index, delta }));
    frames.push(sseEvent('content_block_stop', { type: 'content_block_stop', index }));
    index += 1;
  };
  if (script.reasoning) {
    block({ type: 'thinking', thinking: '' }, [
      ...reasoningPieces(script).map((thinking) => ({ type: 'thinking_delta', thinking })),
      { type: 'signature_delta', signature: SIGNATURE },
    ]);
  }
  const search = webSearchBlocks(script);
  if (search) {
    block(
      { ...search.use, input: {} },
      jsonPieces(search.use.input).map((partial_json) => ({
        type: 'input_json_delta',
        partial_json,
      })),
    );
    block(search.result, []);
  }
  const text = textPieces(script);
  if (text.length > 0)
    block({ type: 'text', text: '' }, [
      ...(search?.citations ?? []).map((citation) => ({ type: 'citations_delta', citation })),
      ...text.map((piece) => ({ type: 'text_delta', text: piece })),
    ]);
  if (script.streamError !== undefined) {
    const error = { type: 'overloaded_error', message: script.streamError };
    return [...frames, sseEvent('error', { type: 'error', error })];
  }
  for (const call of toolCalls(script)) {
    block(
      { type: 'tool_use', id: call.id, name: call.name, input: {} },
      jsonPieces(call.arguments).map((partial_json) => ({
        type: 'input_json_delta',
        partial_json,
      })),
    );
  }
  frames.push(
    sseEvent('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: STOP[stopKind(script)], stop_sequence: null },
      usage: {
        output_tokens: usage.outputTokens,
        ...(script.webSearch ? { server_tool_use: { web_search_requests: 1 } } : {}),
      },
    }),
    sseEvent('message_stop', { type: 'message_stop' }),
  );
  return frames;
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
  return thinkingBeforeToolUse(body) ?? serverToolResults(body) ?? webSearchTool(body);
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

/** A replayed `server_tool_use` must be followed by its result block in the same turn. */
function serverToolResults(body: JsonObject): string | undefined {
  const messages = arrayOf(body.messages).filter(isObject);
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'assistant') continue;
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
  respond: (context, script) =>
    bodyOf(context.request).stream === true
      ? { kind: 'stream', contentType: 'text/event-stream', frames: streamFrames(context, script) }
      : json(200, message(context, script)),
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
