/**
 * The Responses API (`POST …/responses`) as xAI serves it (`@ai-sdk/xai` v5 speaks only this)
 * and as OpenAI serves it to Hearth while web search is on: output items `reasoning`,
 * `web_search_call`, `message` (with `url_citation` annotations), `function_call`; SSE events
 * `response.*` with usage in `response.completed`. Errors use xAI's `{code, error}` body.
 * https://platform.openai.com/docs/api-reference/responses-streaming,
 * https://platform.openai.com/docs/guides/tools-web-search and https://docs.x.ai/docs/api-reference
 */
import {
  fakeId,
  jsonPieces,
  reasoningPieces,
  stopKind,
  textPieces,
  usageOf,
  type ReplyScript,
} from './script.ts';
import {
  arrayOf,
  bodyOf,
  defaultErrorMessage,
  isObject,
  json,
  nowSeconds,
  retryHeaders,
  sseEvent,
  type JsonObject,
  type WireContext,
  type WireRoute,
} from './wire.ts';

interface Items {
  reasoning?: JsonObject;
  search?: JsonObject;
  message?: JsonObject;
  /** The message's annotations: a `url_citation` of the first search result. */
  annotations: JsonObject[];
  calls: JsonObject[];
}

/** Sources are listed in the call only when the request asks for them in `include`. */
function webSearchCall(context: WireContext, script: ReplyScript): JsonObject | undefined {
  const search = script.webSearch;
  if (!search) return undefined;
  const include = arrayOf(bodyOf(context.request).include);
  return {
    type: 'web_search_call',
    id: fakeId('ws_'),
    status: 'completed',
    action: {
      type: 'search',
      query: search.query,
      ...(include.includes('web_search_call.action.sources')
        ? { sources: search.results.map((result) => ({ type: 'url', url: result.url })) }
        : {}),
    },
  };
}

function items(context: WireContext, script: ReplyScript): Items {
  const result: Items = { calls: [], annotations: [] };
  result.search = webSearchCall(context, script);
  const cited = script.webSearch?.results[0];
  if (cited && script.text) {
    result.annotations.push({
      type: 'url_citation',
      start_index: 0,
      end_index: script.text.length,
      url: cited.url,
      title: cited.title,
    });
  }
  if (script.reasoning) {
    result.reasoning = {
      type: 'reasoning',
      id: fakeId('rs_'),
      summary: [{ type: 'summary_text', text: script.reasoning }],
      status: 'completed',
    };
  }
  if (script.text) {
    result.message = {
      type: 'message',
      id: fakeId('msg_'),
      role: 'assistant',
      status: 'completed',
      content: [
        {
          type: 'output_text',
          text: script.text,
          annotations: result.annotations,
          logprobs: [],
        },
      ],
    };
  }
  result.calls = (script.toolCalls ?? []).map((call) => ({
    type: 'function_call',
    id: fakeId('fc_'),
    call_id: call.id ?? fakeId('call_'),
    name: call.name,
    arguments: JSON.stringify(call.arguments),
    status: 'completed',
  }));
  return result;
}

function response(
  context: WireContext,
  script: ReplyScript,
  output: JsonObject[],
  id: string,
): JsonObject {
  const usage = usageOf(script);
  return {
    id,
    object: 'response',
    created_at: nowSeconds(),
    model: bodyOf(context.request).model,
    status: stopKind(script) === 'length' ? 'incomplete' : 'completed',
    output,
    usage: {
      input_tokens: usage.inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: usage.outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.inputTokens + usage.outputTokens,
    },
  };
}

function flat(parts: Items): JsonObject[] {
  return [
    ...(parts.reasoning ? [parts.reasoning] : []),
    ...(parts.search ? [parts.search] : []),
    ...(parts.message ? [parts.message] : []),
    ...parts.calls,
  ];
}

function streamFrames(context: WireContext, script: ReplyScript): string[] {
  const parts = items(context, script);
  const id = fakeId('resp_');
  let sequence = 0;
  const frames: string[] = [];
  const emit = (type: string, rest: JsonObject) => {
    frames.push(sseEvent(type, { type, sequence_number: sequence, ...rest }));
    sequence += 1;
  };
  const started = { ...response(context, script, [], id), status: 'in_progress', usage: null };
  emit('response.created', { response: started });
  emit('response.in_progress', { response: started });
  let output_index = 0;
  if (parts.reasoning) {
    const item_id = String(parts.reasoning.id);
    emit('response.output_item.added', {
      output_index,
      item: { ...parts.reasoning, summary: [], status: 'in_progress' },
    });
    emit('response.reasoning_summary_part.added', {
      item_id,
      output_index,
      summary_index: 0,
      part: { type: 'summary_text', text: '' },
    });
    for (const delta of reasoningPieces(script)) {
      emit('response.reasoning_summary_text.delta', {
        item_id,
        output_index,
        summary_index: 0,
        delta,
      });
    }
    const text = script.reasoning ?? '';
    emit('response.reasoning_summary_text.done', { item_id, output_index, summary_index: 0, text });
    emit('response.reasoning_summary_part.done', {
      item_id,
      output_index,
      summary_index: 0,
      part: { type: 'summary_text', text },
    });
    emit('response.output_item.done', { output_index, item: parts.reasoning });
    output_index += 1;
  }
  if (parts.search) {
    const item_id = String(parts.search.id);
    emit('response.output_item.added', {
      output_index,
      item: { type: 'web_search_call', id: item_id, status: 'in_progress' },
    });
    for (const stage of ['in_progress', 'searching', 'completed'])
      emit(`response.web_search_call.${stage}`, { item_id, output_index });
    emit('response.output_item.done', { output_index, item: parts.search });
    output_index += 1;
  }
  if (parts.message) {
    const item_id = String(parts.message.id);
    const empty = { type: 'output_text', text: '', annotations: [], logprobs: [] };
    emit('response.output_item.added', {
      output_index,
      item: { ...parts.message, content: [], status: 'in_progress' },
    });
    emit('response.content_part.added', { item_id, output_index, content_index: 0, part: empty });
    for (const delta of textPieces(script)) {
      emit('response.output_text.delta', {
        item_id,
        output_index,
        content_index: 0,
        delta,
        logprobs: [],
      });
    }
    for (const [annotation_index, annotation] of parts.annotations.entries()) {
      emit('response.output_text.annotation.added', {
        item_id,
        output_index,
        content_index: 0,
        annotation_index,
        annotation,
      });
    }
    const text = script.text ?? '';
    emit('response.output_text.done', {
      item_id,
      output_index,
      content_index: 0,
      text,
      logprobs: [],
    });
    emit('response.content_part.done', {
      item_id,
      output_index,
      content_index: 0,
      part: { ...empty, text, annotations: parts.annotations },
    });
    if (script.streamError !== undefined) {
      emit('error', { code: 'server_error', message: script.streamError, param: null });
      return frames;
    }
    emit('response.output_item.done', { output_index, item: parts.message });
    output_index += 1;
  }
  for (const call of parts.calls) {
    const item_id = String(call.id);
    emit('response.output_item.added', {
      output_index,
      item: { ...call, arguments: '', status: 'in_progress' },
    });
    for (const delta of jsonPieces(JSON.parse(String(call.arguments)))) {
      emit('response.function_call_arguments.delta', { item_id, output_index, delta });
    }
    emit('response.function_call_arguments.done', {
      item_id,
      output_index,
      arguments: call.arguments,
    });
    emit('response.output_item.done', { output_index, item: call });
    output_index += 1;
  }
  emit('response.completed', { response: response(context, script, flat(parts), id) });
  return frames;
}

function validate(context: WireContext): string | undefined {
  const body = bodyOf(context.request);
  if (typeof body.model !== 'string') return 'Missing required parameter: model';
  for (const item of arrayOf(body.input).filter(isObject)) {
    if (item.type === 'function_call_output' && typeof item.call_id !== 'string')
      return 'function_call_output.call_id is required';
    if (item.type === 'web_search_call' && (typeof item.id !== 'string' || !isObject(item.action)))
      return "Missing required parameter: 'input[].action'.";
    if (item.type === 'item_reference' && body.store === false)
      return `Item with id '${String(item.id)}' not found. Items are not persisted when \`store\` is set to false.`;
  }
  return undefined;
}

export const openAiResponses: WireRoute = {
  name: 'openai-responses',
  matches: (method, path) => method === 'POST' && path.endsWith('/responses'),
  scripted: () => true,
  validate,
  respond: (context, script) =>
    bodyOf(context.request).stream === true
      ? { kind: 'stream', contentType: 'text/event-stream', frames: streamFrames(context, script) }
      : json(200, response(context, script, flat(items(context, script)), fakeId('resp_'))),
  error: (_context, error) =>
    json(
      error.status,
      error.body ?? {
        code:
          error.status === 429
            ? 'Some resource has been exhausted'
            : error.status >= 500
              ? 'Internal error'
              : 'Client specified an invalid argument',
        error: error.message ?? defaultErrorMessage(error.status),
      },
      retryHeaders(error.status),
    ),
};
