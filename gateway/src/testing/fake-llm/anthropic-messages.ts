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

function message(context: WireContext, script: ReplyScript): JsonObject {
  const usage = usageOf(script);
  const content: JsonObject[] = [];
  if (script.reasoning)
    content.push({ type: 'thinking', thinking: script.reasoning, signature: SIGNATURE });
  if (script.text) content.push({ type: 'text', text: script.text });
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
    usage: {
      input_tokens: usage.inputTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: usage.outputTokens,
    },
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
        usage: {
          input_tokens: usage.inputTokens,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: 1,
        },
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
  const text = textPieces(script);
  if (text.length > 0)
    block(
      { type: 'text', text: '' },
      text.map((piece) => ({ type: 'text_delta', text: piece })),
    );
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
      usage: { output_tokens: usage.outputTokens },
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
  return thinkingBeforeToolUse(body);
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
