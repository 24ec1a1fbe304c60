/**
 * OpenAI Chat Completions (`POST …/chat/completions`, `GET …/models`), the format most vendors
 * reuse: OpenAI, Azure, Groq, Mistral, DeepSeek, Together, Fireworks, Perplexity, OpenRouter,
 * Moonshot, Zhipu, Qwen and any OpenAI-compatible server. Vendor quirks are a per-server dialect.
 * https://platform.openai.com/docs/api-reference/chat
 */
import {
  fakeId,
  jsonPieces,
  reasoningPieces,
  stopKind,
  textPieces,
  usageOf,
  type ReplyScript,
  type ScriptedToolCall,
  type StopKind,
} from './script.ts';
import {
  arrayOf,
  bodyOf,
  defaultErrorMessage,
  isObject,
  json,
  nowSeconds,
  retryHeaders,
  sseData,
  type JsonObject,
  type OpenAiChatDialect,
  type WireContext,
  type WireRoute,
} from './wire.ts';

const FINISH: Record<StopKind, string> = {
  stop: 'stop',
  'tool-calls': 'tool_calls',
  length: 'length',
};

function callId(call: ScriptedToolCall, dialect: OpenAiChatDialect): string {
  if (call.id) return call.id;
  return dialect.toolCallIds === 'mistral' ? fakeId('', 9) : fakeId('call_');
}

function usageBody(script: ReplyScript): JsonObject {
  const usage = usageOf(script);
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

/**
 * Perplexity's search fields, top level on the completion and on every stream chunk:
 * `citations` (URLs, the `[n]` markers in the text point into it) and `search_results`.
 * https://docs.perplexity.ai/api-reference/chat-completions-post
 */
function searchFields(context: WireContext, script: ReplyScript): JsonObject {
  const search = script.webSearch;
  if (!search || context.options.openAiChat?.searchResults !== true) return {};
  return {
    citations: search.results.map((result) => result.url),
    search_results: search.results.map((result) => ({
      title: result.title,
      url: result.url,
      date: '2025-04-30',
    })),
  };
}

function completion(context: WireContext, script: ReplyScript): JsonObject {
  const dialect = context.options.openAiChat ?? {};
  const calls = script.toolCalls ?? [];
  const text = script.text ?? '';
  const message: JsonObject = {
    role: 'assistant',
    content: text === '' && calls.length > 0 ? null : text,
  };
  if (script.reasoning) message[dialect.reasoningField ?? 'reasoning_content'] = script.reasoning;
  if (calls.length > 0) {
    message.tool_calls = calls.map((call) => ({
      id: callId(call, dialect),
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    }));
  }
  return {
    id: fakeId('chatcmpl-'),
    object: 'chat.completion',
    created: nowSeconds(),
    model: bodyOf(context.request).model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: FINISH[stopKind(script)] }],
    usage: usageBody(script),
    ...searchFields(context, script),
  };
}

function streamFrames(context: WireContext, script: ReplyScript): string[] {
  const dialect = context.options.openAiChat ?? {};
  const body = bodyOf(context.request);
  const base = {
    id: fakeId('chatcmpl-'),
    object: 'chat.completion.chunk',
    created: nowSeconds(),
    model: body.model,
    ...searchFields(context, script),
  };
  const chunk = (delta: JsonObject, finish: string | null = null): JsonObject => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const frames: JsonObject[] = [chunk({ role: 'assistant', content: '' })];
  const reasoningField = dialect.reasoningField ?? 'reasoning_content';
  for (const piece of reasoningPieces(script)) frames.push(chunk({ [reasoningField]: piece }));
  for (const piece of textPieces(script)) frames.push(chunk({ content: piece }));
  if (script.streamError !== undefined) {
    // OpenAI reports a failure after the headers as an error object in the event stream.
    const error = { message: script.streamError, type: 'server_error', param: null, code: null };
    return [...frames.map(sseData), sseData({ error })];
  }
  (script.toolCalls ?? []).forEach((call, index) => {
    const id = callId(call, dialect);
    if (dialect.toolCallIds === 'mistral') {
      // Mistral streams each tool call whole, arguments included.
      const whole = {
        id,
        function: { name: call.name, arguments: JSON.stringify(call.arguments) },
        index,
      };
      frames.push(chunk({ tool_calls: [whole] }));
      return;
    }
    frames.push(
      chunk({
        tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }],
      }),
    );
    for (const piece of jsonPieces(call.arguments)) {
      frames.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  const last = chunk({}, FINISH[stopKind(script)]);
  const usageStyle = dialect.streamUsage ?? 'include-usage';
  if (usageStyle === 'final-chunk') last.usage = usageBody(script);
  if (usageStyle === 'x-groq') last.x_groq = { id: fakeId('req_'), usage: usageBody(script) };
  frames.push(last);
  const options = isObject(body.stream_options) ? body.stream_options : {};
  if (usageStyle === 'include-usage' && options.include_usage === true) {
    frames.push({ ...base, choices: [], usage: usageBody(script) });
  }
  return [...frames.map(sseData), 'data: [DONE]\n\n'];
}

function errorBody(dialect: OpenAiChatDialect, status: number, message: string): unknown {
  const type =
    status === 429
      ? 'rate_limit_exceeded'
      : status >= 500
        ? 'server_error'
        : 'invalid_request_error';
  switch (dialect.errorStyle ?? 'openai') {
    case 'mistral':
      return { object: 'error', message, type, param: null, code: String(status) };
    case 'numeric-code':
      return { error: { message, type, code: status } };
    case 'openai':
      return {
        error: { message, type, param: null, code: status === 429 ? 'rate_limit_exceeded' : null },
      };
  }
}

/** Documented request rules a real server enforces; breaking one is a 400. */
function validate(context: WireContext): string | undefined {
  const body = bodyOf(context.request);
  if (context.request.method !== 'POST') return undefined;
  if (typeof body.model !== 'string' || body.model === '')
    return 'you must provide a model parameter';
  const messages = arrayOf(body.messages);
  if (messages.length === 0) return "'messages' must contain at least one message";
  for (const message of messages.filter(isObject)) {
    for (const call of arrayOf(message.tool_calls).filter(isObject)) {
      const fn = isObject(call.function) ? call.function : {};
      if (typeof fn.arguments !== 'string')
        return "'tool_calls[].function.arguments' must be a string";
    }
    if (message.role === 'tool' && typeof message.tool_call_id !== 'string') {
      return "messages with role 'tool' must have a 'tool_call_id'";
    }
  }
  return undefined;
}

const isChat = (path: string) => path.endsWith('/chat/completions');
const isModels = (path: string) => path.endsWith('/models');

export const openAiChat: WireRoute = {
  name: 'openai-chat',
  matches: (method, path) =>
    (method === 'POST' && isChat(path)) || (method === 'GET' && isModels(path)),
  scripted: (method, path) => method === 'POST' && isChat(path),
  validate,
  respond: (context, script) => {
    if (context.request.method === 'GET') {
      const data = (context.options.models ?? []).map((id) => ({
        id,
        object: 'model',
        created: 1_700_000_000,
        owned_by: 'system',
      }));
      return json(200, { object: 'list', data });
    }
    if (bodyOf(context.request).stream === true) {
      return {
        kind: 'stream',
        contentType: 'text/event-stream',
        frames: streamFrames(context, script),
      };
    }
    return json(200, completion(context, script));
  },
  error: (context, error) =>
    json(
      error.status,
      error.body ??
        errorBody(
          context.options.openAiChat ?? {},
          error.status,
          error.message ?? defaultErrorMessage(error.status),
        ),
      retryHeaders(error.status),
    ),
};
